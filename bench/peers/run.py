"""`make bench-peers`: request/reply echo through IntentBus and what a user would pick
instead, on the same machine, in one run, with the same Python client shape
(loadgen.run_window), 100 B bodies, one and 100 in flight (docs/performance.md, "Peers").

    IntentBus host     intentbus host (release) + plugin-echo (the SDK's plain handler); pyzmq client, six frames
    IntentBus, Python  the same host + bench/sdk/pyecho.py (the Python SDK's plain handler);
                       the package's own AsyncClient (what a Python user runs)
    pyzmq relay        zmq.proxy ROUTER/DEALER + a pyzmq echo worker; the same client
    D-Bus              a private dbus-daemon + a dbus-fast service; dbus-fast client
    Majordomo          a Python MDP/0.1 broker (mdp_broker.py) + one worker; DEALER client
    gRPC host→plugin   grpcio host forwarding to a grpcio plugin (go-plugin's shape)

Everything is local (ipc and unix sockets), every round is bounded by a request count and
a time limit, and every process started here is stopped by its pid and reaped.
Usage: run.py --bin .build/release [--out bench/results] [--rounds 3] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from typing import Dict, List

import zmq

import loadgen
from dbus_peer import DBusClient
from grpc_peer import GRPCClient
from zmq_peers import IntentBusClient, MDPClient, PythonIntentBusClient

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PY = sys.executable


class Processes:
    """Every process this run started; stopped by pid (SIGTERM, then SIGKILL) and reaped."""

    def __init__(self, work: str) -> None:
        self.work = work
        self.children: List[subprocess.Popen] = []

    def start(self, label: str, argv: List[str], env: Dict[str, str] = None) -> subprocess.Popen:
        log = open(f"{self.work}/{label}.log", "ab")
        # setpriv: the child gets SIGTERM if this process dies before it can clean up.
        prefix = ["setpriv", "--pdeathsig", "TERM", "--"] if shutil.which("setpriv") else []
        p = subprocess.Popen(prefix + argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             env=env or os.environ.copy(), cwd=HERE)
        self.children.append(p)
        return p

    def stop_all(self) -> None:
        for p in reversed(self.children):
            if p.poll() is None:
                p.terminate()
        deadline = time.monotonic() + 3
        for p in reversed(self.children):
            try:
                p.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def cpu_of(pids: List[int]) -> float:
    """User + system CPU seconds of `pids` and their children (a host's plugin), from /proc."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    seen = set()
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total


async def wait_answering(name: str, call, procs: List[subprocess.Popen], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    probe = loadgen.body(0)
    while time.monotonic() < deadline:
        for p in procs:
            if p.poll() is not None:
                raise SystemExit(f"{name}: a process exited during start-up (exit {p.returncode}); see the logs")
        try:
            if await asyncio.wait_for(call(probe), 1.0) == probe:
                return
        except Exception:  # noqa: BLE001 - not up yet
            pass
        await asyncio.sleep(0.05)
    raise SystemExit(f"{name} did not answer within {seconds} s")


async def start_peers(args, procs: Processes, work: str) -> List[dict]:
    peers = []
    zctx = zmq.Context()

    # The IntentBus host with its echo plugin (the same release binaries as `make bench`).
    os.makedirs(f"{work}/host", exist_ok=True)
    with open(f"{work}/host/plugins.yaml", "w") as f:
        f.write(f"host:\n  state_dir: {work}/host/state\nplugins:\n  - id: echo\n"
                f"    exec: {args.bin}/plugin-echo\n    IntentsSupported: [EchoIntent]\n"
                f"    timeout: 30s\n    max_in_flight: 4096\n"
                # The Python SDK's plain handler, on a second intent of the same host.
                f"  - id: pyecho\n    exec: {PY} {REPO}/bench/sdk/pyecho.py\n"
                f"    env: {{PYTHONPATH: {REPO}/clients/python, PYECHO_INTENT: PyEchoIntent}}\n"
                f"    IntentsSupported: [PyEchoIntent]\n"
                f"    timeout: 30s\n    max_in_flight: 4096\n")
    host = procs.start("host", [f"{args.bin}/intentbus", "host", "--config", f"{work}/host/plugins.yaml",
                                "--log-level", "warning"])
    c = IntentBusClient(zctx, f"ipc://{work}/host/state/frontend.sock")
    peers.append({"name": "IntentBus host (Swift) + plugin-echo", "short": "intentbus", "call": c.call, "procs": [host]})
    py = PythonIntentBusClient(f"ipc://{work}/host/state/frontend.sock")
    peers.append({"name": "IntentBus, Python: AsyncClient → host → Python SDK plain handler", "short": "intentbus-python",
                  "call": py.call, "procs": [host], "close": py.close})

    relay = procs.start("relay", [PY, "zmq_peers.py", "relay", f"ipc://{work}/relay-front", f"ipc://{work}/relay-back"])
    worker = procs.start("relay-worker", [PY, "zmq_peers.py", "ib-worker", f"ipc://{work}/relay-back"])
    c = IntentBusClient(zctx, f"ipc://{work}/relay-front")
    peers.append({"name": "bare pyzmq relay (zmq.proxy) + pyzmq worker", "short": "pyzmq-relay", "call": c.call,
                  "procs": [relay, worker]})

    subprocess.run([PY, "dbus_peer.py", "config", work], check=True, cwd=HERE)
    daemon = procs.start("dbus-daemon", [shutil.which("dbus-daemon") or "/usr/bin/dbus-daemon",
                                         f"--config-file={work}/bus.conf", "--nofork", "--nopidfile"])
    address = f"unix:path={work}/bus.sock"
    deadline = time.monotonic() + 10
    while not os.path.exists(f"{work}/bus.sock"):
        if time.monotonic() > deadline or daemon.poll() is not None:
            raise SystemExit("dbus-daemon did not start; see its log")
        await asyncio.sleep(0.02)
    service = procs.start("dbus-service", [PY, "dbus_peer.py", "service", address])
    d = await DBusClient.connect(address)
    peers.append({"name": "D-Bus: dbus-daemon + dbus-fast service", "short": "dbus", "call": d.call,
                  "procs": [daemon, service], "close": d.close})

    broker = procs.start("mdp-broker", [PY, "mdp_broker.py", f"ipc://{work}/mdp"])
    mdpw = procs.start("mdp-worker", [PY, "zmq_peers.py", "mdp-worker", f"ipc://{work}/mdp"])
    m = MDPClient(zctx, f"ipc://{work}/mdp")
    peers.append({"name": "Majordomo MDP/0.1: Python broker + 1 worker", "short": "majordomo", "call": m.call,
                  "procs": [broker, mdpw]})

    gplugin = procs.start("grpc-plugin", [PY, "grpc_peer.py", "plugin", f"unix:{work}/grpc-plugin.sock"])
    ghost = procs.start("grpc-host", [PY, "grpc_peer.py", "host", f"unix:{work}/grpc-host.sock",
                                      f"unix:{work}/grpc-plugin.sock"])
    g = GRPCClient(f"unix:{work}/grpc-host.sock")
    peers.append({"name": "gRPC host → gRPC plugin (grpcio, go-plugin shape)", "short": "grpc", "call": g.call,
                  "procs": [ghost, gplugin]})

    if args.only:
        wanted = set(args.only.split(","))
        for p in peers:
            if p["short"] not in wanted and "close" in p:
                closing = p["close"]()
                if asyncio.iscoroutine(closing):
                    await closing
        peers = [p for p in peers if p["short"] in wanted]
    for p in peers:
        await wait_answering(p["name"], p["call"], p["procs"])
    return peers


async def measure(args, peers: List[dict]) -> None:
    plans = [("1", 1, args.count1, args.seconds1), ("100", 100, args.count100, args.seconds100)]
    for p in peers:  # one unrecorded warm-up round each
        for _, window, count, seconds in plans:
            await loadgen.run_window(p["call"], window, min(count, 2_000), 0.3)
        p["results"] = {label: [] for label, *_ in plans}
    for r in range(args.rounds):
        # Alternate the order, so that a noisy neighbour hits every peer alike.
        order = peers[r % len(peers):] + peers[:r % len(peers)]
        for p in order:
            for label, window, count, seconds in plans:
                pids = [q.pid for q in p["procs"]]
                cpu0 = cpu_of(pids)
                rnd = await loadgen.run_window(p["call"], window, count, seconds)
                p["results"][label].append((rnd, cpu_of(pids) - cpu0))
        print(f"[peers] round {r + 1} of {args.rounds} done", file=sys.stderr)


def summarize(peers: List[dict]) -> List[dict]:
    out = []
    for p in peers:
        s = {"peer": p["name"], "short": p["short"]}
        for label, rounds in p["results"].items():
            samples = [x for rnd, _ in rounds for x in rnd.samples]
            rates = sorted(rnd.ok / rnd.seconds if rnd.seconds > 0 else 0.0 for rnd, _ in rounds)
            ok = sum(rnd.ok for rnd, _ in rounds)
            s[label] = {
                "p50_us": loadgen.percentile(samples, 50) / 1e3, "p99_us": loadgen.percentile(samples, 99) / 1e3,
                "rate_median": rates[len(rates) // 2] if len(rates) % 2 else sum(rates[len(rates) // 2 - 1:len(rates) // 2 + 1]) / 2,
                "rate_min": rates[0], "rate_max": rates[-1],
                "sent": sum(rnd.sent for rnd, _ in rounds), "ok": ok,
                "errors": sum(rnd.errors for rnd, _ in rounds), "missing": sum(rnd.missing for rnd, _ in rounds),
                "first_error": next((rnd.first_error for rnd, _ in rounds if rnd.first_error), ""),
                "server_cpu_us": sum(c for _, c in rounds) / max(ok, 1) * 1e6,
                "client_cpu_us": sum(rnd.client_cpu for rnd, _ in rounds) / max(ok, 1) * 1e6,
                "rounds": [{"sent": rnd.sent, "ok": rnd.ok, "errors": rnd.errors, "missing": rnd.missing,
                            "seconds": rnd.seconds, "server_cpu_s": c, "client_cpu_s": rnd.client_cpu} for rnd, c in rounds],
            }
        out.append(s)
    return out


def table(summary: List[dict]) -> str:
    ib = summary[0]
    lines = ["| peer | p50, 1 in flight | p99, 1 in flight | req/s, 100 in flight (median; min–max) | p99, 100 in flight "
             "| server-side CPU per request (100 in flight) | client CPU per request | answered / sent, missing "
             "| IntentBus p50 ÷ its p50 (< 1: IntentBus ahead) | IntentBus req/s ÷ its req/s (> 1: IntentBus ahead) |",
             "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for s in summary:
        a, b = s["1"], s["100"]
        p50_ratio = ib["1"]["p50_us"] / a["p50_us"] if a["p50_us"] else float("nan")
        rate_ratio = ib["100"]["rate_median"] / b["rate_median"] if b["rate_median"] else float("nan")
        lines.append(
            f"| {s['peer']} | {a['p50_us']:.0f} µs | {a['p99_us']:.0f} µs | {b['rate_median']:,.0f} "
            f"({b['rate_min']:,.0f}–{b['rate_max']:,.0f}) | {b['p99_us']:,.0f} µs | {b['server_cpu_us']:.1f} µs "
            f"| {b['client_cpu_us']:.1f} µs | {a['ok'] + b['ok']:,} / {a['sent'] + b['sent']:,}, "
            f"{a['missing'] + b['missing']} missing | {p50_ratio:.2f}× | {rate_ratio:.2f}× |")
    return "\n".join(lines)


def python_against_dbus(summary: List[dict]) -> str:
    """Issue 30's Python row: the Python client → host → Python plugin against the same
    call through D-Bus with dbus-fast on both ends."""
    by = {s["short"]: s for s in summary}
    py, dbus = by["intentbus-python"], by["dbus"]
    p50 = py["1"]["p50_us"] / dbus["1"]["p50_us"] if dbus["1"]["p50_us"] else float("nan")
    rate = py["100"]["rate_median"] / dbus["100"]["rate_median"] if dbus["100"]["rate_median"] else float("nan")
    verdict = "ahead" if p50 < 1 and rate > 1 else "NOT ahead on both"
    return (f"Python client → host → Python plugin against dbus-fast → dbus-daemon → dbus-fast: p50 {p50:.2f}× "
            f"(< 1: IntentBus ahead), throughput at 100 in flight {rate:.2f}× (> 1: IntentBus ahead): {verdict}")


async def main_async(args) -> int:
    work = f"/tmp/ibp-{os.getpid()}"
    os.makedirs(work, exist_ok=True)
    procs = Processes(work)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: (procs.stop_all(), os._exit(130)))
    failed = True
    try:
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        load_before = os.getloadavg()
        peers = await start_peers(args, procs, work)
        print(f"[peers] all {len(peers)} answering; measuring", file=sys.stderr)
        t0 = time.monotonic()
        await measure(args, peers)
        summary = summarize(peers)
        result = {"startedAt": started, "durationSeconds": time.monotonic() - t0,
                  "loadAverageBefore": list(load_before), "loadAverageAfter": list(os.getloadavg()),
                  "cpus": os.cpu_count(), "settings": vars(args), "peers": summary}
        print(f"\nPeers, {started}: {os.cpu_count()} CPUs, load {' '.join('%.2f' % x for x in load_before)} → "
              f"{' '.join('%.2f' % x for x in os.getloadavg())}, {result['durationSeconds']:.0f} s\n")
        print(table(summary))
        if {"intentbus-python", "dbus"} <= {s["short"] for s in summary}:
            print("\n" + python_against_dbus(summary))
        os.makedirs(args.out, exist_ok=True)
        stamp = started.replace(":", "").replace("-", "")
        for name in (f"peers-{stamp}.json", "peers-latest.json"):
            with open(f"{args.out}/{name}", "w") as f:
                json.dump(result, f, indent=2)
        print(f"\nwrote {args.out}/peers-{stamp}.json and peers-latest.json")
        for p in peers:
            if "close" in p:  # before its daemon stops, so that the client does not see EOF
                closing = p["close"]()
                if asyncio.iscoroutine(closing):
                    await closing
        failed = False
        return 0
    finally:
        procs.stop_all()
        if failed:
            print(f"[peers] logs kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="where intentbus and plugin-echo are (the release build)")
    parser.add_argument("--out", default="bench/results")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a few seconds: checks that everything answers")
    parser.add_argument("--only", default="", help="measure only these peers (short names, comma-separated: "
                        "intentbus, intentbus-python, pyzmq-relay, dbus, majordomo, grpc); the first is the baseline")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    args.out = os.path.abspath(args.out)
    args.count1, args.seconds1, args.count100, args.seconds100 = (2_000, 1.5, 30_000, 2.0)
    if args.quick:
        args.rounds, args.count1, args.seconds1, args.count100, args.seconds100 = 1, 100, 0.3, 1_000, 0.3
    sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
