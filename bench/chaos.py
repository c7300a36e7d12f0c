"""`make chaos`: requests under fire (docs/reliability.md, "Chaos").

Starts a real `intentbus host` on a manifest of its own (a temporary directory, its own
ipc endpoints) with one plugin of two instances, sends REQUESTS requests (default
10,000; each sleeps 0…600 ms in the plugin) keeping WINDOW (default 100) in flight on
one DEALER, and meanwhile kills plugin
processes with SIGKILL and freezes them with SIGSTOP at random: only pids the host lists
in `ib.plugins` whose parent is that host. It prints sent, final answers, answers per id
(0 = lost, 2 = doubled), errors by code, restarts, hang detections (and how long each
took), time to recover from a kill, and whether the host is still up. Exit status 0 when
every goal holds: sent = finals, 0 lost, 0 doubled, every frozen plugin found within two
heartbeat intervals (plus 100 ms of polling slack), host up, and the host answered every
`ib.ping` of a pinger beside the load within 100 ms throughout (issue 24's proof; the
pinger is clients/python/tests/ping_watch.py, in a process of its own).

Bounded: at most --seconds (default 120) of load, then at most 15 s more for the last
answers; the host is stopped by its pid and reaped at the end, whatever happened.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional

import zmq

from intentbus import Client
from intentbus.wire import Kind, Message

REPO = Path(__file__).resolve().parents[1]
HEARTBEAT_MS = 400

sys.path.insert(0, str(REPO / "clients" / "python" / "tests"))
from ping_watch import PingWatch  # noqa: E402 - found through the path above


def manifest(bin_dir: Path) -> str:
    plugin = bin_dir / "plugin-testplugin"
    return f"""host:
  state_dir: state
  drain_timeout: 2s
plugins:
  - id: chaos
    exec: {plugin}
    IntentsSupported: [ChaosIdempotent, ChaosPlain]
    env: {{TEST_INTENTS: "ChaosIdempotent,ChaosPlain"}}
    timeout: 20s
    instances: 2
    idempotent: [ChaosIdempotent]
    heartbeat: {HEARTBEAT_MS}ms
    crash_limit: 1000
    crash_window: 2s
    max_in_flight: 100000
"""


def parent_of(pid: int) -> Optional[int]:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


class Chaos(threading.Thread):
    """Kills or freezes a random instance every 0.3–0.8 s; measures detection and recovery."""

    def __init__(self, endpoint: str, host_pid: int, stop: threading.Event, rng: random.Random):
        super().__init__(name="chaos", daemon=True)
        self.client = Client(endpoint)
        self.host_pid = host_pid
        self.stop_event = stop
        self.rng = rng
        self.kills = 0
        self.freezes = 0
        self.detections: List[float] = []   # seconds from SIGSTOP to the host stopping it
        self.missed: List[int] = []         # frozen pids never detected
        self.recoveries: List[float] = []   # seconds from a kill to a new ready instance
        self.errors: List[str] = []

    def instances(self) -> List[Dict[str, object]]:
        for p in self.client.plugins(wait=5.0)["plugins"]:
            if p["id"] == "chaos":
                return list(p.get("instances", []))
        return []

    def run(self) -> None:
        try:
            while not self.stop_event.wait(self.rng.uniform(0.3, 0.8)):
                ready = [i for i in self.instances() if i.get("state") == "ready" and "pid" in i]
                if not ready:
                    continue
                victim = self.rng.choice(ready)
                pid = int(victim["pid"])  # type: ignore[call-overload]
                if parent_of(pid) != self.host_pid:
                    continue  # not a child of our host (gone and reused): never signal it
                if self.rng.random() < 0.3:
                    self.freeze(pid, int(victim["instance"]))  # type: ignore[call-overload]
                else:
                    self.kill(pid, int(victim["instance"]))  # type: ignore[call-overload]
        except Exception as e:  # noqa: BLE001 - reported, and the run fails
            self.errors.append(f"{type(e).__name__}: {e}")

    def state_of(self, number: int) -> Dict[str, object]:
        for i in self.instances():
            if i.get("instance") == number:
                return i
        return {}

    def kill(self, pid: int, number: int) -> None:
        os.kill(pid, signal.SIGKILL)
        self.kills += 1
        start = time.monotonic()
        while time.monotonic() - start < 15 and not self.stop_event.is_set():
            now = self.state_of(number)
            if now.get("state") == "ready" and now.get("pid") != pid:
                self.recoveries.append(time.monotonic() - start)
                return
            time.sleep(0.01)

    def freeze(self, pid: int, number: int) -> None:
        os.kill(pid, signal.SIGSTOP)
        self.freezes += 1
        start = time.monotonic()
        while time.monotonic() - start < 5:
            now = self.state_of(number)
            if now.get("pid") != pid or now.get("state") != "ready":
                self.detections.append(time.monotonic() - start)
                return
            time.sleep(0.01)
        self.missed.append(pid)
        if parent_of(pid) == self.host_pid:
            os.kill(pid, signal.SIGKILL)  # never leave a frozen child of ours behind


def load(endpoint: str, total: int, window: int, sleep_ms: int, seconds: float,
         rng: random.Random) -> Dict[str, object]:
    ctx = zmq.Context.instance()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.RCVHWM, 0)
    sock.setsockopt(zmq.SNDHWM, 0)
    sock.connect(endpoint)
    answers: Dict[str, int] = collections.Counter()
    codes: Dict[str, int] = collections.Counter()
    examples: Dict[str, str] = {}
    sent = 0
    finals = 0
    open_ids: set = set()
    started = time.monotonic()
    deadline = started + seconds
    poller = zmq.Poller()
    poller.register(sock, zmq.POLLIN)
    while True:
        now = time.monotonic()
        if sent < total and now < deadline:
            while len(open_ids) < window and sent < total:
                rid = f"c{sent}"
                intent = "ChaosIdempotent" if sent % 2 == 0 else "ChaosPlain"
                body = {"sleep_ms": rng.randint(0, sleep_ms)}
                sock.send_multipart(Message.build(Kind.REQUEST, rid, intent, None, body).encode())
                open_ids.add(rid)
                sent += 1
        elif not open_ids or now > max(deadline, started) + 15:
            break
        for s, _ in poller.poll(50):
            while True:
                try:
                    frames = sock.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    break
                msg = Message.decode(frames)
                if msg.kind not in (Kind.REPLY, Kind.ERROR):
                    continue
                answers[msg.request_id] += 1
                finals += 1
                open_ids.discard(msg.request_id)
                if msg.kind is Kind.ERROR:
                    error = msg.body_json()
                    codes[str(error.get("code"))] += 1
                    examples.setdefault(str(error.get("code")), str(error.get("message")))
    # A last look for doubled answers.
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        if poller.poll(100):
            try:
                msg = Message.decode(sock.recv_multipart(zmq.NOBLOCK))
            except zmq.Again:
                continue
            if msg.kind in (Kind.REPLY, Kind.ERROR):
                answers[msg.request_id] += 1
                finals += 1
    sock.close()
    elapsed = time.monotonic() - started
    per_id = collections.Counter(answers[f"c{i}"] for i in range(sent))
    return {"sent": sent, "finals": finals, "per_id": dict(per_id), "codes": dict(codes), "examples": examples,
            "seconds": elapsed}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=10_000)
    ap.add_argument("--window", type=int, default=100)
    ap.add_argument("--sleep-ms", type=int, default=600, help="each request sleeps 0…this in the plugin")
    ap.add_argument("--seconds", type=float, default=120.0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the host's log and manifest")
    ap.add_argument("--bin", default=os.environ.get("INTENTBUS_BIN", str(REPO / ".build" / "debug")))
    args = ap.parse_args()
    if not (1 <= args.requests <= 1_000_000 and 1 <= args.window <= 4_000 and 1 <= args.seconds <= 600
            and 0 <= args.sleep_ms <= 10_000):
        ap.error("requests 1…1,000,000, window 1…4,000, seconds 1…600, sleep-ms 0…10,000")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    bin_dir = Path(args.bin)
    work = Path(tempfile.mkdtemp(prefix="ib-chaos-"))
    (work / "plugins.yaml").write_text(manifest(bin_dir))
    log = open(work / "host.log", "w")
    host = subprocess.Popen([str(bin_dir / "intentbus"), "host", "--config", str(work / "plugins.yaml")],
                            stdout=log, stderr=subprocess.STDOUT, cwd=work)
    endpoint = f"ipc://{work}/state/frontend.sock"
    stop = threading.Event()
    chaos: Optional[Chaos] = None
    watch: Optional[PingWatch] = None
    try:
        client = Client(endpoint)
        start = time.monotonic()
        while True:
            try:
                p = [x for x in client.plugins(wait=0.5)["plugins"] if x["id"] == "chaos"][0]
                if all(i.get("state") == "ready" for i in p.get("instances", [])) and len(p.get("instances", [])) == 2:
                    break
            except Exception:  # noqa: BLE001 - not serving yet
                pass
            if time.monotonic() - start > 20 or host.poll() is not None:
                print("the host did not start serving; its log:\n" + (work / "host.log").read_text(), file=sys.stderr)
                return 1
            time.sleep(0.1)
        watch = PingWatch(endpoint).__enter__()
        chaos = Chaos(endpoint, host.pid, stop, random.Random(seed + 1))
        chaos.start()
        result = load(endpoint, args.requests, args.window, args.sleep_ms, args.seconds, rng)
        stop.set()
        chaos.join(timeout=20)
        watch.stop()
        host_up = host.poll() is None
        try:
            client.ping(wait=3.0)
        except Exception:  # noqa: BLE001
            host_up = False
        info = [x for x in client.plugins()["plugins"] if x["id"] == "chaos"][0] if host_up else {}
        restarts = sum(int(i.get("restarts", 0)) for i in info.get("instances", []))
        text = (work / "host.log").read_text()
        hangs_logged = text.count("it is hung; stopping it")
        retries = text.count("retrying it once")
    finally:
        stop.set()
        if watch is not None:
            watch.stop()
        if host.poll() is None:
            host.send_signal(signal.SIGTERM)
            try:
                host.wait(timeout=10)
            except subprocess.TimeoutExpired:
                host.kill()
                host.wait()
        log.close()

    per_id = result["per_id"]
    lost = per_id.get(0, 0)  # type: ignore[union-attr]
    doubled = sum(n for k, n in per_id.items() if k >= 2)  # type: ignore[union-attr]
    limit = 2 * HEARTBEAT_MS / 1000 + 0.1
    slow = [d for d in chaos.detections if d > limit]
    recov = chaos.recoveries
    print(f"chaos run (seed {seed}): {args.requests} requests, window {args.window}, sleep 0…{args.sleep_ms} ms, "
          f"2 instances, heartbeat {HEARTBEAT_MS} ms")
    print(f"  sent {result['sent']}, final answers {result['finals']} in {result['seconds']:.1f} s")
    print(f"  answers per id: {dict(sorted(per_id.items()))}  (lost {lost}, doubled {doubled})")
    print(f"  errors by code: {dict(sorted(result['codes'].items())) or 'none'}")  # type: ignore[union-attr]
    for code, message in sorted(result["examples"].items()):  # type: ignore[union-attr]
        print(f"    e.g. {code}: {message}")
    print(f"  SIGKILLs {chaos.kills}, SIGSTOPs {chaos.freezes}; restarts {restarts}; idempotent retries {retries}")
    if chaos.detections:
        print(f"  hang detections {len(chaos.detections)} (host log: {hangs_logged}): "
              f"median {statistics.median(chaos.detections) * 1000:.0f} ms, max {max(chaos.detections) * 1000:.0f} ms "
              f"(goal ≤ {limit * 1000:.0f} ms: two heartbeats plus polling); missed {len(chaos.missed)}")
    if recov:
        print(f"  time to recover from SIGKILL (new ready instance): median {statistics.median(recov) * 1000:.0f} ms, "
              f"max {max(recov) * 1000:.0f} ms")
    print(f"  host up: {host_up}")
    print(f"  {watch.line()}")
    for e in chaos.errors:
        print(f"  chaos thread error: {e}")
    ok = (result["sent"] == result["finals"] == args.requests and lost == 0 and doubled == 0
          and not slow and not chaos.missed and host_up and not chaos.errors and watch.ok())
    print("  goals met" if ok else f"  GOALS NOT MET (host log kept in {work})")
    if ok and not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    elif args.keep:
        print(f"  the host's log: {work}/host.log")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
