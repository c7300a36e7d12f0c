"""A Majordomo broker, MDP/0.1 (ZeroMQ RFC 7), for the peers benchmark.

Written from the specification (docs: /work/shared/REFERENCE.md §4 sums it up), in the
shape of the zguide's Python broker: one ROUTER socket that clients and workers both
connect to, a queue of requests per service, a list of idle workers per service, and
heartbeats both ways (every 2.5 s; a peer silent for 3 intervals is dead). MMI
(RFC 8): `mmi.service` answers "200" or "404", any other `mmi.*` "501".

Frames, after the ROUTER's peer address:
    client → broker   "" | "MDPC01" | service | body…
    broker → client   "" | "MDPC01" | service | body…
    worker ↔ broker   "" | "MDPW01" | command | …
        READY 0x01 + service; REQUEST 0x02 + client | "" | body…;
        REPLY 0x03 + client | "" | body…; HEARTBEAT 0x04; DISCONNECT 0x05

Usage: python mdp_broker.py ENDPOINT   (runs until SIGTERM)
"""

from __future__ import annotations

import signal
import sys
import time
from collections import deque
from typing import Deque, Dict, List, Optional

import zmq

CLIENT = b"MDPC01"
WORKER = b"MDPW01"
READY, REQUEST, REPLY, HEARTBEAT, DISCONNECT = b"\x01", b"\x02", b"\x03", b"\x04", b"\x05"
HEARTBEAT_INTERVAL = 2.5
HEARTBEAT_LIVENESS = 3


class Worker:
    """A worker the broker knows: its address, its service, and when it is presumed dead."""

    def __init__(self, address: bytes) -> None:
        self.address = address
        self.service: Optional[Service] = None
        self.expiry = time.monotonic() + HEARTBEAT_INTERVAL * HEARTBEAT_LIVENESS


class Service:
    """One service: the requests waiting for it and its idle workers."""

    def __init__(self, name: bytes) -> None:
        self.name = name
        self.requests: Deque[List[bytes]] = deque()  # [client address, body frames…]
        self.idle: Deque[Worker] = deque()


class Broker:
    def __init__(self, endpoint: str) -> None:
        self.context = zmq.Context()
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.linger = 0
        self.socket.sndhwm = self.socket.rcvhwm = 100_000
        self.socket.bind(endpoint)
        self.services: Dict[bytes, Service] = {}
        self.workers: Dict[bytes, Worker] = {}
        self.next_heartbeat = time.monotonic() + HEARTBEAT_INTERVAL

    def service(self, name: bytes) -> Service:
        s = self.services.get(name)
        if s is None:
            s = self.services[name] = Service(name)
        return s

    def run(self) -> None:
        poller = zmq.Poller()
        poller.register(self.socket, zmq.POLLIN)
        while True:
            if poller.poll(HEARTBEAT_INTERVAL * 1000):
                # Drain the burst: one poll per batch, not per message.
                while True:
                    try:
                        frames = self.socket.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    self.handle(frames)
            now = time.monotonic()
            if now >= self.next_heartbeat:
                self.purge(now)
                for worker in list(self.workers.values()):
                    if worker.service is not None and worker in worker.service.idle:
                        self.send_worker(worker, HEARTBEAT)
                self.next_heartbeat = now + HEARTBEAT_INTERVAL

    def handle(self, frames: List[bytes]) -> None:
        if len(frames) < 3 or frames[1] != b"":
            return  # not MDP: ignored, as the RFC allows
        sender, protocol = frames[0], frames[2]
        if protocol == CLIENT and len(frames) >= 4:
            self.client_request(sender, frames[3], frames[4:])
        elif protocol == WORKER and len(frames) >= 4:
            self.worker_message(sender, frames[3], frames[4:])

    def client_request(self, client: bytes, service_name: bytes, body: List[bytes]) -> None:
        if service_name.startswith(b"mmi."):
            if service_name == b"mmi.service":
                known = bool(body) and body[0] in self.services and bool(self.services[body[0]].idle or
                                                                          self.has_workers(body[0]))
                answer = b"200" if known else b"404"
            else:
                answer = b"501"
            self.socket.send_multipart([client, b"", CLIENT, service_name, answer])
            return
        service = self.service(service_name)
        service.requests.append([client] + body)
        self.dispatch(service)

    def has_workers(self, name: bytes) -> bool:
        return any(w.service is not None and w.service.name == name for w in self.workers.values())

    def worker_message(self, address: bytes, command: bytes, rest: List[bytes]) -> None:
        worker = self.workers.get(address)
        if command == READY:
            if worker is not None or not rest or rest[0].startswith(b"mmi."):
                # READY twice, or for a reserved name: a protocol error; disconnect it.
                self.delete(address, disconnect=True)
                return
            worker = self.workers[address] = Worker(address)
            worker.service = self.service(rest[0])
            self.idle(worker)
        elif command == REPLY:
            if worker is None or worker.service is None or len(rest) < 2:
                self.delete(address, disconnect=True)
                return
            client, body = rest[0], rest[2:]
            self.socket.send_multipart([client, b"", CLIENT, worker.service.name] + body)
            self.idle(worker)
        elif command == HEARTBEAT:
            if worker is None:
                self.delete(address, disconnect=True)
            else:
                worker.expiry = time.monotonic() + HEARTBEAT_INTERVAL * HEARTBEAT_LIVENESS
        elif command == DISCONNECT:
            self.delete(address, disconnect=False)

    def idle(self, worker: Worker) -> None:
        worker.expiry = time.monotonic() + HEARTBEAT_INTERVAL * HEARTBEAT_LIVENESS
        assert worker.service is not None
        worker.service.idle.append(worker)
        self.dispatch(worker.service)

    def dispatch(self, service: Service) -> None:
        while service.idle and service.requests:
            worker = service.idle.popleft()
            request = service.requests.popleft()
            self.send_worker(worker, REQUEST, [request[0], b""] + request[1:])

    def send_worker(self, worker: Worker, command: bytes, rest: Optional[List[bytes]] = None) -> None:
        self.socket.send_multipart([worker.address, b"", WORKER, command] + (rest or []))

    def delete(self, address: bytes, disconnect: bool) -> None:
        worker = self.workers.pop(address, None)
        if disconnect:
            self.socket.send_multipart([address, b"", WORKER, DISCONNECT])
        if worker is not None and worker.service is not None and worker in worker.service.idle:
            worker.service.idle.remove(worker)

    def purge(self, now: float) -> None:
        for address, worker in list(self.workers.items()):
            if worker.expiry < now:
                self.delete(address, disconnect=False)


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: mdp_broker.py ENDPOINT")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    Broker(sys.argv[1]).run()


if __name__ == "__main__":
    main()
