"""The ZeroMQ peers of the benchmark: the clients for the IntentBus host and for an MDP
broker, and the processes of the bare pyzmq relay and of MDP's worker.

    python zmq_peers.py relay FRONTEND BACKEND     zmq.proxy between a ROUTER and a DEALER
    python zmq_peers.py ib-worker BACKEND          answers IntentBus REQUESTs behind the relay
    python zmq_peers.py mdp-worker BROKER          an MDP/0.1 worker for the service "echo"

Each runs until SIGTERM.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from typing import Dict, List

import zmq

from mdp_broker import CLIENT, DISCONNECT, HEARTBEAT, HEARTBEAT_INTERVAL, HEARTBEAT_LIVENESS, REPLY, REQUEST, READY, WORKER

HWM = 100_000


class _Matcher:
    """Matches answers to the futures of the calls that wait for them, by a key.

    The socket is a plain (blocking-API) pyzmq socket read from the asyncio loop through
    its ZMQ_FD: one callback drains every message waiting, without the future per
    receive that zmq.asyncio makes, so that the client shape costs about what the D-Bus
    and gRPC clients' own asyncio integrations cost. The FD is
    edge-triggered, so after each send ZMQ_EVENTS is checked for input that arrived
    meanwhile.
    """

    def __init__(self, socket: zmq.Socket) -> None:
        self.socket = socket
        self.waiting: Dict[bytes, asyncio.Future] = {}
        self.loop = asyncio.get_running_loop()
        self.loop.add_reader(socket.getsockopt(zmq.FD), self._drain)

    def expect(self, key: bytes) -> asyncio.Future:
        future = self.loop.create_future()
        self.waiting[key] = future
        return future

    def send(self, frames: List[bytes]) -> None:
        self.socket.send_multipart(frames, zmq.NOBLOCK)  # the high-water mark is far above any window
        if self.socket.getsockopt(zmq.EVENTS) & zmq.POLLIN:
            self.loop.call_soon(self._drain)

    def _drain(self) -> None:
        while True:
            try:
                frames = self.socket.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            key, answer = self.parse(frames)
            future = self.waiting.pop(key, None)
            if future is not None and not future.done():
                future.set_result(answer)

    def parse(self, frames: List[bytes]):
        raise NotImplementedError

    def close(self) -> None:
        self.loop.remove_reader(self.socket.getsockopt(zmq.FD))
        self.socket.close(linger=0)


class IntentBusClient(_Matcher):
    """A DEALER speaking the IntentBus six frames (docs/protocol.md) to the host or relay."""

    def __init__(self, context: zmq.Context, endpoint: str, intent: bytes = b"EchoIntent") -> None:
        socket = context.socket(zmq.DEALER)
        socket.linger = 0
        socket.sndhwm = socket.rcvhwm = HWM
        socket.connect(endpoint)
        super().__init__(socket)
        self.intent = intent
        self.next_id = 0

    async def call(self, body: bytes) -> bytes:
        self.next_id += 1
        rid = b"%d" % self.next_id
        future = self.expect(rid)
        self.send([b"IB1", b"REQUEST", rid, self.intent, b"", body])
        return await future

    def parse(self, frames: List[bytes]):
        if len(frames) != 6:
            return b"", b""
        if frames[1] == b"REPLY":
            return frames[2], frames[5]
        if frames[1] == b"ERROR":
            return frames[2], b"ERROR " + frames[5]
        return b"", b""  # PROGRESS and the like are not final


class PythonIntentBusClient:
    """The package's own `AsyncClient` (clients/python): parameters in as a dict, the
    reply's body out, re-encoded as canonical JSON so that the load generator can check
    the echo byte for byte, as a user's code would read and write JSON."""

    def __init__(self, endpoint: str, intent: str = "PyEchoIntent") -> None:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
        from intentbus import AsyncClient, canonical_json
        self._client = AsyncClient(endpoint)
        self._canonical = canonical_json
        self.intent = intent

    async def call(self, body: bytes) -> bytes:
        reply = await self._client.send(self.intent, json.loads(body), timeout=30)
        return self._canonical(reply.body)

    async def close(self) -> None:
        await self._client.close()


class MDPClient(_Matcher):
    """An MDP/0.1 client on a DEALER (so it writes the empty frame itself); answers are
    matched by the request number at the start of the echoed body."""

    def __init__(self, context: zmq.Context, endpoint: str, service: bytes = b"echo") -> None:
        socket = context.socket(zmq.DEALER)
        socket.linger = 0
        socket.sndhwm = socket.rcvhwm = HWM
        socket.connect(endpoint)
        super().__init__(socket)
        self.service = service

    async def call(self, body: bytes) -> bytes:
        future = self.expect(body[:22])
        self.send([b"", CLIENT, self.service, body])
        return await future

    def parse(self, frames: List[bytes]):
        if len(frames) < 4 or frames[1] != CLIENT:
            return b"", b""
        return frames[3][:22], frames[3]


def relay(frontend: str, backend: str) -> None:
    context = zmq.Context()
    front, back = context.socket(zmq.ROUTER), context.socket(zmq.DEALER)
    for s in (front, back):
        s.linger = 0
        s.sndhwm = s.rcvhwm = HWM
    front.bind(frontend)
    back.bind(backend)
    zmq.proxy(front, back)


def ib_worker(backend: str) -> None:
    """The relay's far end in Python: the request's frames come back as a REPLY."""
    context = zmq.Context()
    socket = context.socket(zmq.DEALER)
    socket.linger = 0
    socket.sndhwm = socket.rcvhwm = HWM
    socket.connect(backend)
    header = b'{"plugin":"relay","status":"success"}'
    while True:
        frames = socket.recv_multipart(copy=False)
        n = len(frames)
        if n < 7:
            continue
        frames[n - 5] = b"REPLY"
        frames[n - 2] = header
        socket.send_multipart(frames, copy=False)


def mdp_worker(broker: str) -> None:
    """An MDP/0.1 worker for "echo": one request at a time, as the protocol has it."""
    context = zmq.Context()

    def connect() -> zmq.Socket:
        s = context.socket(zmq.DEALER)
        s.linger = 0
        s.sndhwm = s.rcvhwm = HWM
        s.connect(broker)
        s.send_multipart([b"", WORKER, READY, b"echo"])
        return s

    socket = connect()
    poller = zmq.Poller()
    poller.register(socket, zmq.POLLIN)
    liveness = HEARTBEAT_LIVENESS
    next_heartbeat = time.monotonic() + HEARTBEAT_INTERVAL
    while True:
        if poller.poll(HEARTBEAT_INTERVAL * 1000):
            frames = socket.recv_multipart()
            liveness = HEARTBEAT_LIVENESS  # any message from the broker counts
            if len(frames) >= 3 and frames[1] == WORKER:
                command = frames[2]
                if command == REQUEST and len(frames) >= 5:
                    client, body = frames[3], frames[5:]
                    socket.send_multipart([b"", WORKER, REPLY, client, b""] + body)
                elif command == DISCONNECT:
                    poller.unregister(socket)
                    socket.close()
                    socket = connect()
                    poller.register(socket, zmq.POLLIN)
        else:
            liveness -= 1
            if liveness == 0:  # the broker is gone: reconnect, as the RFC says
                poller.unregister(socket)
                socket.close()
                socket = connect()
                poller.register(socket, zmq.POLLIN)
                liveness = HEARTBEAT_LIVENESS
        if time.monotonic() >= next_heartbeat:
            socket.send_multipart([b"", WORKER, HEARTBEAT])
            next_heartbeat = time.monotonic() + HEARTBEAT_INTERVAL


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    role, args = sys.argv[1], sys.argv[2:]
    if role == "relay":
        relay(*args)
    elif role == "ib-worker":
        ib_worker(*args)
    elif role == "mdp-worker":
        mdp_worker(*args)
    else:
        sys.exit(f"unknown role {role}")


if __name__ == "__main__":
    main()
