"""What hostile clients can make the host hold, in bytes (docs/reliability.md, "Memory"):
a client that never reads its answers, and one that keeps large requests open. The host's
resident memory is read from /proc while they try; before these bounds, 300 answers of
1 MiB to a client that never reads all stayed inside libzmq (its queue counts messages:
100,000 of them), and the host's memory grew by the sum."""

import socket
import struct
import threading
import time

import zmq

from conftest import py_plugin, swift_test_plugin
from intentbus.wire import Kind, Message

MIB = 1 << 20


def rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


class PeakRSS:
    """Samples a process's resident memory every 20 ms until stopped; `peak` is the most seen."""

    def __init__(self, pid):
        self.pid, self.peak, self._stop = pid, rss(pid), threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss(self.pid))

    def stop(self):
        self._stop.set()
        self._thread.join()
        return self.peak


def request(rid, intent, body, header=None):
    return Message.build(Kind.REQUEST, rid, intent, header or {}, body).encode()


def test_a_client_that_never_reads_cannot_grow_the_host_by_its_answers(start_host):
    limits = ("  limits:\n    client_queue_bytes: 4194304\n    client_backlog_bytes: 4194304\n"
              "    max_message_size: 2097152\n")
    # The plugin builds 1 MiB answers in Python worker threads, which can keep its socket
    # thread from the GIL for over a second on a loaded machine (it was then killed as
    # hung and the test measured restarts): this test is about the host's memory, so the
    # plugin gets a heartbeat that such a pause does not miss.
    big = py_plugin("big") + "\n    heartbeat: 10s"
    host = start_host([big], wait_ready=["big"], host_extra=limits)
    ctx = zmq.Context()
    hog = ctx.socket(zmq.DEALER)
    hog.setsockopt(zmq.LINGER, 0)
    hog.setsockopt(zmq.RCVHWM, 1)          # it takes (almost) nothing off its socket
    hog.setsockopt(zmq.RCVBUF, 64 * 1024)
    hog.connect(host.frontend)
    count = 300
    try:
        before = rss(host.process.pid)
        sampler = PeakRSS(host.process.pid)
        for n in range(count):
            # Small requests, answers of 1 MiB, at a pace the plugin keeps up with.
            hog.send_multipart(request(f"big-{n}", "PyIntent", {"reply_bytes": MIB - 200}))
            time.sleep(0.01)
        # Every request has had its answer by now: kept, dropped once the backlog is full
        # ("more were dropped"), or refused busy while the client does not read. Which of the
        # last two ends the run depends on how many 1 MiB answers libzmq's queue took.
        deadline = time.monotonic() + 30
        last = f"request=big-{count - 1} request big-{count - 1} for PyIntent: busy"
        while not ("more were dropped since the last report" in host.log or last in host.log):
            assert time.monotonic() < deadline, f"the last request was neither answered nor refused:\n{host.log}"
            time.sleep(0.05)
        time.sleep(1.0)  # whatever was still on its way has arrived
        peak = sampler.stop()
        grown = peak - before
        print(f"a client that never reads, {count} answers of 1 MiB: the host's RSS {before / MIB:.0f} MiB "
              f"-> at most {peak / MIB:.0f} MiB (+{grown / MIB:.0f} MiB)")
        # 4 MiB in libzmq, 4 MiB in the backlog, the requests passing through, allocator slack;
        # without the byte bounds it was every answer: +303 MiB measured.
        assert grown < 64 * MIB, grown
        assert host.process.poll() is None, host.log
        # Its new requests are refused while it does not read (their ERRORs wait or are dropped too).
        # Now it reads: what was kept comes in order, then everything works again.
        hog.setsockopt(zmq.RCVTIMEO, 3000)
        replies = []
        while True:
            try:
                frames = hog.recv_multipart()
            except zmq.Again:
                break
            replies.append(Message.decode(frames))
        kept = [m.request_id for m in replies if m.kind == Kind.REPLY]
        codes = {}
        for m in replies:
            if m.kind == Kind.ERROR:
                codes[m.body_json()["code"]] = codes.get(m.body_json()["code"], 0) + 1
        print(f"it reads: {len(kept)} answers were kept for it, refusals {codes}")
        # 4 MiB in libzmq and 4 MiB in the host's backlog, and what the kernel's buffers took.
        assert 4 <= len(kept) <= 16, len(kept)
        assert len(set(kept)) == len(kept), "each once"  # (the Python plugin may answer out of order)
        # Once its backlog is sent (the host logs "a client read again after N … dropped" when
        # some were dropped), a new request is served again; until then it may still be busy.
        deadline = time.monotonic() + 10
        attempt = 0
        while True:
            attempt += 1
            hog.send_multipart(request(f"after-{attempt}", "PyIntent", {"small": 1}))
            msg = Message.decode(hog.recv_multipart())
            while msg.request_id != f"after-{attempt}":
                msg = Message.decode(hog.recv_multipart())
            if msg.kind == Kind.REPLY:
                break
            assert msg.kind == Kind.ERROR and msg.body_json()["code"] == "busy", msg
            assert time.monotonic() < deadline, "still busy 10 s after the client read everything"
            time.sleep(0.2)
    finally:
        hog.close(linger=0)
        ctx.term()
    assert host.client().ping(wait=2)["protocol"] == 1


def test_open_request_bytes_are_bounded_per_client_and_in_all(start_host):
    limits = "  limits:\n    max_in_flight_bytes_per_client: 4194304\n    max_in_flight_bytes: 6291456\n"
    host = start_host([swift_test_plugin("slow")], wait_ready=["slow"], host_extra=limits)
    ctx = zmq.Context()
    a, b = ctx.socket(zmq.DEALER), ctx.socket(zmq.DEALER)
    for s in (a, b):
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RCVTIMEO, 10000)
        s.connect(host.frontend)
    pad = "x" * 1_000_000
    try:
        # Four requests of 1 MB each stay open in the plugin (it sleeps 1.5 s); the fifth passes 4 MiB.
        for n in range(5):
            a.send_multipart(request(f"a{n}", "TestIntent", {"sleep_ms": 1500, "pad": pad}))
        refused = Message.decode(a.recv_multipart())
        assert refused.request_id == "a4" and refused.kind == Kind.ERROR, refused
        assert refused.body_json()["code"] == "busy" and "max_in_flight_bytes_per_client" in refused.body_json()["message"], refused.body_json()
        # Another client has its own share, but the host's 6 MiB in all is reached at its third.
        for n in range(3):
            b.send_multipart(request(f"b{n}", "TestIntent", {"sleep_ms": 1500, "pad": pad}))
        refused = Message.decode(b.recv_multipart())
        assert refused.request_id == "b2" and refused.body_json()["code"] == "busy", refused
        assert "max_in_flight_bytes" in refused.body_json()["message"], refused.body_json()
        finals = {}
        for s, expect in ((a, 4), (b, 2)):
            while sum(1 for k in finals if k[0] == ("a" if s is a else "b")) < expect:
                msg = Message.decode(s.recv_multipart())
                finals[msg.request_id] = msg.kind
        assert all(kind == Kind.REPLY for kind in finals.values()), finals
        # Once they have ended, the bytes are free again.
        a.send_multipart(request("again", "TestIntent", {"pad": pad}))
        assert Message.decode(a.recv_multipart()).kind == Kind.REPLY
    finally:
        a.close(linger=0)
        b.close(linger=0)
        ctx.term()


def zmtp_null_dealer(path):
    """A raw ZMTP 3.0 peer on a unix socket: the greeting (NULL mechanism) and READY."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    greeting = b"\xff" + b"\x00" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\x00") + b"\x00" + b"\x00" * 31
    ready = b"\x05READY" + b"\x0bSocket-Type" + struct.pack(">I", 6) + b"DEALER"
    s.sendall(greeting + bytes([0x04, len(ready)]) + ready)
    return s


def test_a_message_that_never_ends_is_cut_off(start_host):
    host = start_host([py_plugin("big")], wait_ready=["big"])
    path = host.frontend[len("ipc://"):]
    before = rss(host.process.pid)
    sampler = PeakRSS(host.process.pid)
    s = zmtp_null_dealer(path)
    chunk = b"\x01\x01x" * 4096  # one-byte frames, each with MORE: a message without end
    sent = 0
    cut = False
    client = host.client()
    try:
        while sent < 12 * MIB:
            try:
                s.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                cut = True
                break
            sent += len(chunk)
            if sent % (64 * len(chunk)) == 0:
                assert client.ping(wait=2)["protocol"] == 1  # everyone else is served meanwhile
    finally:
        s.close()
    peak = sampler.stop()
    print(f"a message that never ends: cut after {sent / 1024:.0f} KiB sent; the host's RSS +{(peak - before) / MIB:.1f} MiB")
    # Before the gate libzmq took all 12 MB and held ~250 MB of frames for it.
    assert cut, f"the host took {sent} bytes of one message"
    assert sent < 1 * MIB, sent
    host.wait_log("cut 1 connection(s) whose message did not end", seconds=5)
    assert "(at most 1024 frames, host.limits.max_message_frames" in host.log
    assert peak - before < 16 * MIB
    assert client.ping(wait=2)["protocol"] == 1
    assert host.process.poll() is None
