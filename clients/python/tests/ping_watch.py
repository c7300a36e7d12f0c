"""A host must answer `ib.ping` within 100 ms throughout a long run (issue 24's proof;
docs/reliability.md, "Long runs"): `make chaos` and the live protocol fuzzer of `make fuzz`
run this beside their load and fail when the worst ping is over the bound.

It pings from a process of its own: the load's Python threads hold the GIL for long
stretches, and a pinger among them would measure them, not the host. One ping at a time,
every INTERVAL; a ping unanswered after LOST_AFTER counts as lost (and as that long).

    with PingWatch(endpoint) as watch:
        ... the load ...
    print(watch.line()); assert watch.ok()
"""

import json
import os
import select
import subprocess
import sys
import time

BOUND_MS = 100.0
INTERVAL = 0.05
LOST_AFTER = 2.0


class PingWatch:
    """Starts the pinger process on enter; on exit stops it and reads its figures."""

    def __init__(self, endpoint, bound_ms=BOUND_MS):
        self.endpoint = endpoint
        self.bound_ms = bound_ms
        self.result = None
        self._process = None

    def __enter__(self):
        here = os.path.dirname(os.path.abspath(__file__))
        self._process = subprocess.Popen([sys.executable, os.path.join(here, "ping_watch.py"), self.endpoint,
                                          str(self.bound_ms)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        # The first ping is done before the load starts: a short run is watched too.
        self._process.stdout.readline()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def stop(self):
        """Ends the pinger (closing its stdin) and keeps what it measured."""
        if self._process is None or self.result is not None:
            return self.result
        try:
            out, _ = self._process.communicate(timeout=LOST_AFTER + 10)
            self.result = json.loads(out.decode() or "{}")
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
            self.result = {}
        return self.result

    def ok(self):
        r = self.result or {}
        return r.get("pings", 0) > 0 and r.get("lost", 1) == 0 and r.get("refused", 1) == 0 \
            and r.get("max_ms", float("inf")) <= self.bound_ms

    def line(self):
        r = self.result or {}
        if not r.get("pings"):
            return "ib.ping throughout: the pinger measured nothing"
        return (f"ib.ping throughout: {r['pings']} pings, max {r['max_ms']:.1f} ms (bound {self.bound_ms:.0f} ms), "
                f"p99 {r['p99_ms']:.1f} ms, median {r['median_ms']:.1f} ms, {r['over']} over the bound, "
                f"lost {r['lost']}, refused {r['refused']}; worst at {r['worst_at']} UTC; "
                f"the pinger itself woke up to {r['pinger_late_ms']:.0f} ms late")


def _watch(endpoint):
    import zmq

    from intentbus.wire import Kind, Message

    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, 0)
    sock.connect(endpoint)
    latencies = []
    lost = refused = 0
    n = 0
    worst_at = ""
    # How late this process woke up for a ping (beyond INTERVAL): on a loaded machine the
    # pinger waits for a CPU too, and that is not the host's latency.
    late_ms = 0.0
    while True:
        # Stdin closed (or anything written): the run is over.
        waited = time.perf_counter()
        if n and select.select([sys.stdin], [], [], INTERVAL)[0]:
            break
        if n:
            late_ms = max(late_ms, (time.perf_counter() - waited - INTERVAL) * 1000)
        rid = f"watch-{n}"
        n += 1
        started = time.perf_counter()
        sock.send_multipart(Message.build(Kind.REQUEST, rid, "ib.ping", None, {}).encode())
        answered = None
        while answered is None:
            left = started + LOST_AFTER - time.perf_counter()
            if left <= 0 or not sock.poll(int(left * 1000) + 1):
                break
            msg = Message.decode(sock.recv_multipart())
            if msg.request_id == rid and msg.kind in (Kind.REPLY, Kind.ERROR):
                answered = msg.kind
        took = (time.perf_counter() - started) * 1000
        if not latencies or took > max(latencies):
            worst_at = time.strftime("%H:%M:%S", time.gmtime()) + f".{int(time.time() * 1000) % 1000:03d}"
        latencies.append(took)
        if answered is None:
            lost += 1
            # A lost ping's late answer must not be taken for the next one's.
            sock.close()
            sock = ctx.socket(zmq.DEALER)
            sock.setsockopt(zmq.LINGER, 0)
            sock.connect(endpoint)
        elif answered is not Kind.REPLY:
            refused += 1
        if n == 1:
            sys.stdout.write("ready\n")
            sys.stdout.flush()
    sock.close()
    ctx.term()
    ordered = sorted(latencies)
    figures = {"pings": len(ordered), "lost": lost, "refused": refused, "worst_at": worst_at,
               "pinger_late_ms": late_ms, "over": sum(1 for t in ordered if t > float(sys.argv[2]))}
    if ordered:
        figures.update(max_ms=ordered[-1], median_ms=ordered[len(ordered) // 2],
                       p99_ms=ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))])
    sys.stdout.write(json.dumps(figures))


if __name__ == "__main__":
    _watch(sys.argv[1])
