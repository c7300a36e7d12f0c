"""A Majordomo client and worker written from ZeroMQ RFC 7 (MDP/0.1,
https://rfc.zeromq.org/spec:7/MDP) and RFC 8 (MMI), for the tests. Nothing here knows
IntentBus: it is what an existing MDP user would bring.

    client -> broker   "" | "MDPC01" | service | body...       (REQ adds the empty frame)
    broker -> client   "" | "MDPC01" | service | body...
    worker -> broker   "" | "MDPW01" | 0x01 READY | service
    broker -> worker   "" | "MDPW01" | 0x02 REQUEST | client address | "" | body...
    worker -> broker   "" | "MDPW01" | 0x03 REPLY | client address | "" | body...
    either way         "" | "MDPW01" | 0x04 HEARTBEAT
    either way         "" | "MDPW01" | 0x05 DISCONNECT

Run as a script it is a worker process (for tests that kill one by pid):

    python mdp_rfc7.py ENDPOINT SERVICE NAME HEARTBEAT_SECONDS [hold]

It answers each request with {"worker": NAME, "params": <the request body as JSON>};
with `hold` it never answers (it stays busy, as a worker stuck in its handler).
"""

import json
import sys
import threading
import time

import zmq

MDPC01 = b"MDPC01"
MDPW01 = b"MDPW01"
READY, REQUEST, REPLY, HEARTBEAT, DISCONNECT = b"\x01", b"\x02", b"\x03", b"\x04", b"\x05"


def _curve(socket, curve):
    """`curve` = (public key, secret key, server key), Z85 text: a CURVE client socket."""
    if curve:
        socket.curve_publickey, socket.curve_secretkey, socket.curve_serverkey = (k.encode() for k in curve)


class MDPClient:
    """A synchronous MDP client on a REQ socket (the RFC's recommended socket). On a
    timeout the socket is closed and a new one opened, as RFC 7 recommends."""

    def __init__(self, endpoint, timeout=10.0, curve=None):
        self.endpoint = endpoint
        self.timeout = timeout
        self.curve = curve
        self.context = zmq.Context()
        self.socket = None
        self._connect()

    def _connect(self):
        if self.socket is not None:
            self.socket.close(linger=0)
        self.socket = self.context.socket(zmq.REQ)
        self.socket.setsockopt(zmq.LINGER, 0)
        _curve(self.socket, self.curve)
        self.socket.connect(self.endpoint)

    def request(self, service, *body, timeout=None):
        """Sends REQUEST(service, body frames) and returns the reply's body frames."""
        service = service.encode() if isinstance(service, str) else service
        self.socket.send_multipart([MDPC01, service, *body])
        if not self.socket.poll(int(1000 * (timeout or self.timeout))):
            self._connect()
            raise TimeoutError(f"no MDP reply for {service!r} within {timeout or self.timeout} s")
        frames = self.socket.recv_multipart()  # REQ has removed the empty frame
        assert len(frames) >= 3, frames
        assert frames[0] == MDPC01, frames
        assert frames[1] == service, frames
        return frames[2:]

    def call(self, service, params=None, timeout=None):
        """An intent request: parameters as one JSON frame; the reply's one JSON frame."""
        body = [] if params is None else [json.dumps(params).encode()]
        frames = self.request(service, *body, timeout=timeout)
        assert len(frames) == 1, frames
        return json.loads(frames[0])

    def close(self):
        self.context.destroy(linger=0)  # closes the socket too, whatever state it is in


class MDPWorker:
    """An MDP worker on a DEALER socket, in a thread of its own: READY, then REQUEST and
    REPLY; heartbeats both ways; a broker silent for `liveness` intervals, or a
    DISCONNECT, means a new socket and a new READY. `handler(body_frames)` returns the
    reply's body frames, or None to never answer."""

    def __init__(self, endpoint, service, handler, heartbeat=0.25, liveness=3, extra_ready=False, curve=None):
        self.endpoint = endpoint
        self.curve = curve
        self.service = service.encode() if isinstance(service, str) else service
        self.handler = handler
        self.heartbeat = heartbeat
        self.liveness = liveness
        self.extra_ready = extra_ready  # break the RFC once: a second READY
        self.context = zmq.Context()
        self.disconnects = 0
        self.connections = 0
        self.requests = 0
        self.heartbeats_seen = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def _connect(self, old):
        if old is not None:
            old.close(linger=0)
        socket = self.context.socket(zmq.DEALER)
        socket.setsockopt(zmq.LINGER, 0)
        _curve(socket, self.curve)
        socket.connect(self.endpoint)
        socket.send_multipart([b"", MDPW01, READY, self.service])
        self.connections += 1
        if self.extra_ready and self.connections == 1:
            socket.send_multipart([b"", MDPW01, READY, self.service])
        return socket

    def _run(self):
        try:
            self._serve()
        finally:
            self.context.destroy(linger=0)  # so that stop() never waits on a socket left open

    def _serve(self):
        socket = self._connect(None)
        heard = time.monotonic()
        next_beat = time.monotonic() + self.heartbeat
        while not self._stop.is_set():
            if socket.poll(int(self.heartbeat * 1000)):
                frames = socket.recv_multipart()
                heard = time.monotonic()
                assert frames[0] == b"" and frames[1] == MDPW01, frames
                command = frames[2]
                if command == REQUEST:
                    address, empty, body = frames[3], frames[4], frames[5:]
                    assert empty == b""
                    self.requests += 1
                    reply = self.handler(body)
                    if reply is not None:
                        socket.send_multipart([b"", MDPW01, REPLY, address, b"", *reply])
                elif command == HEARTBEAT:
                    self.heartbeats_seen += 1
                elif command == DISCONNECT:
                    self.disconnects += 1
                    socket = self._connect(socket)
                    heard = time.monotonic()
            elif time.monotonic() - heard > self.heartbeat * self.liveness:
                socket = self._connect(socket)  # the broker is gone: start again
                heard = time.monotonic()
            if time.monotonic() >= next_beat:
                socket.send_multipart([b"", MDPW01, HEARTBEAT])
                next_beat = time.monotonic() + self.heartbeat
        socket.send_multipart([b"", MDPW01, DISCONNECT])
        socket.close(linger=100)

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=5)
        if self._thread.is_alive():
            raise AssertionError("the MDP worker thread did not stop")


def json_worker(name):
    """A handler that answers {"worker": name, "params": <request JSON>}."""
    def handle(body):
        params = json.loads(body[0]) if body and body[0] else {}
        return [json.dumps({"worker": name, "params": params}).encode()]
    return handle


def mmi_service(client, service):
    """RFC 8: "200" when the broker knows `service`, "404" when not."""
    return client.request("mmi.service", service.encode())[0].decode()


if __name__ == "__main__":
    endpoint, service, name, beat = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    hold = len(sys.argv) > 5 and sys.argv[5] == "hold"
    worker = MDPWorker(endpoint, service, (lambda body: None) if hold else json_worker(name), heartbeat=beat)
    worker.start()
    print("ready", flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        worker.stop()
