"""The plugin's socket loop reads what is waiting and sends the answers together
(intentbus/plugin/runtime.py, docs/performance.md "third pass"), against a fake host on a
ROUTER in this process, so that the test decides what is waiting when the loop reads."""

import threading
import time

import zmq

from intentbus import Plugin
from intentbus.wire import Kind, Message


class FakeHost:
    """A ROUTER that greets one plugin and keeps what it sends, with arrival times."""

    def __init__(self, endpoint):
        self.ctx = zmq.Context()
        self.router = self.ctx.socket(zmq.ROUTER)
        self.router.linger = 0
        self.router.bind(endpoint)
        self.peer = None

    def greet(self, seconds=10):
        assert self.router.poll(seconds * 1000), "no HELLO"
        frames = self.router.recv_multipart()
        self.peer = frames[0]
        assert Message.decode(frames[1:]).kind is Kind.HELLO
        self.send(Message.build(Kind.WELCOME, "", "", None, {"protocol": 1}))

    def send(self, msg):
        self.router.send_multipart([self.peer] + msg.encode())

    def request(self, rid, params):
        self.send(Message.build(Kind.REQUEST, rid, "T", None, params))

    def replies(self, count, seconds=10, started=None):
        """`count` final answers: {request id: (body, seconds since `started`)}."""
        got = {}
        deadline = time.monotonic() + seconds
        while len(got) < count and time.monotonic() < deadline:
            if not self.router.poll(100):
                continue
            msg = Message.decode(self.router.recv_multipart()[1:])
            if msg.kind.is_final:
                got[msg.request_id] = (msg.body_json(), time.monotonic() - (started or 0.0))
        return got

    def close(self):
        self.router.close()
        self.ctx.term()


def serve(endpoint, handle):
    plugin = Plugin(environ={"INTENTBUS_BACKEND": endpoint, "INTENTBUS_PLUGIN_ID": "batch"})
    plugin.handler("T")(handle)
    codes = []
    thread = threading.Thread(target=lambda: codes.append(plugin.serve()), daemon=True)
    thread.start()
    return plugin, thread, codes


def handle(request, ctx):
    time.sleep(request.params.get("sleep_ms", 0) / 1000)
    return {"n": request.params["n"]}


def test_every_request_of_a_burst_gets_its_own_answer(tmp_path):
    # More than one batch (32) waiting at once: each request still gets exactly one answer,
    # its own.
    host = FakeHost(f"ipc://{tmp_path}/b.sock")
    plugin, thread, codes = serve(f"ipc://{tmp_path}/b.sock", handle)
    try:
        host.greet()
        host.request("hold", {"n": -1, "sleep_ms": 5})  # the loop is busy while the burst arrives
        for i in range(100):
            host.request(f"r{i}", {"n": i})
        got = host.replies(101)
        assert {rid: body for rid, (body, _) in got.items()} == {"hold": {"n": -1}, **{f"r{i}": {"n": i}
                                                                                    for i in range(100)}}
        time.sleep(0.1)
        assert host.replies(1, seconds=0.2) == {}, "a request was answered twice"
    finally:
        plugin.stop("test over")
        thread.join(5)
        host.close()
    assert codes == [0]


def test_answers_read_before_a_blocking_handler_go_out_before_it_ends(tmp_path):
    # The burst ends with a handler that blocks the loop's thread: the loop moves to a new
    # thread, which sends the answers read before it at once, not after the blocked handler.
    host = FakeHost(f"ipc://{tmp_path}/b.sock")
    plugin, thread, codes = serve(f"ipc://{tmp_path}/b.sock", handle)
    try:
        host.greet()
        started = time.monotonic()
        host.request("hold", {"n": -1, "sleep_ms": 5})  # so that what follows waits, and is read at once
        for i in range(8):
            host.request(f"q{i}", {"n": i})
        host.request("block", {"n": 99, "sleep_ms": 1500})
        got = host.replies(10, started=started)
        assert set(got) == {"hold", "block"} | {f"q{i}" for i in range(8)}
        quick = [got[f"q{i}"][1] for i in range(8)]
        assert max(quick) < 1.0, f"answers waited for the blocked handler: {quick}"
        assert got["block"][1] >= 1.4
    finally:
        plugin.stop("test over")
        thread.join(5)
        host.close()
    assert codes == [0]
