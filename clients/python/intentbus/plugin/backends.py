"""The plugin's connections to its hosts (intentbus.plugin): one DEALER per backend.

A plugin the host spawned has one backend. A remote plugin may serve several hosts
side by side (docs/scale-out.md): `INTENTBUS_BACKEND=A,B` (and, on tcp, one host key
for all in `INTENTBUS_SERVER_KEY` or one per backend, `KA,KB`). Each connection says its
own HELLO, answers its host's heartbeats, and carries the answers to the requests that
came on it; a host that is lost (its connection dropped, or it said DISCONNECT) is
greeted again with a new HELLO once it is back.
"""

from __future__ import annotations

from typing import Any, List, Optional

import zmq
from zmq.utils.monitor import recv_monitor_message

__all__ = ["BackendLink", "backend_links"]

_DISCONNECTED = int(zmq.EVENT_DISCONNECTED)


class BackendLink:
    """One host's backend: its socket, and where the handshake with it stands
    (`hello`: HELLO sent, `ready`: WELCOME received, `idle`: lost or refused, HELLO
    again at `retry_at`)."""

    def __init__(self, index: int, endpoint: str, server_key: Optional[str], secret: Optional[str]):
        self.index = index
        self.endpoint = endpoint
        self.server_key = server_key
        self.secret = secret
        self.state = "idle"
        self.hello_at = 0.0
        self.retry_at = 0.0
        self.socket: Optional["zmq.Socket[bytes]"] = None
        self.monitor: Optional["zmq.Socket[bytes]"] = None

    def open(self, context: "zmq.Context[Any]", several: bool) -> "zmq.Socket[bytes]":
        sock: "zmq.Socket[bytes]" = context.socket(zmq.DEALER)
        if self.server_key and self.secret:  # a CURVE backend (tcp): docs/security.md
            sock.curve_secretkey = self.secret.encode("ascii")
            sock.curve_publickey = zmq.curve_public(self.secret.encode("ascii"))
            sock.curve_serverkey = self.server_key.encode("ascii")
        sock.setsockopt(zmq.LINGER, 2000)
        sock.setsockopt(zmq.SNDHWM, 100_000)
        sock.setsockopt(zmq.RCVHWM, 100_000)
        if several:
            # Nothing queued for a host that is not there (a HELLO would pile up while it
            # restarts); its loss is seen by the monitor.
            sock.setsockopt(zmq.IMMEDIATE, 1)
            self.monitor = sock.get_monitor_socket(zmq.EVENT_DISCONNECTED)
        sock.connect(self.endpoint)
        self.socket = sock
        return sock

    def dropped(self) -> bool:
        """Reads the monitor's waiting events: whether the connection dropped."""
        lost = False
        while self.monitor is not None:
            try:
                event = recv_monitor_message(self.monitor, zmq.NOBLOCK)
            except zmq.Again:
                break
            lost = lost or event["event"] == _DISCONNECTED
        return lost

    def close(self, linger: int) -> None:
        if self.monitor is not None and self.socket is not None:
            try:
                self.socket.disable_monitor()
            except zmq.ZMQError:
                pass
            self.monitor.close(linger=0)
        if self.socket is not None:
            self.socket.close(linger=linger)


def backend_links(backend: str, server_keys: Optional[str], secret: Optional[str]) -> List[BackendLink]:
    """The links for `INTENTBUS_BACKEND` (endpoints separated by commas) and
    `INTENTBUS_SERVER_KEY` (one key, or one per endpoint). ValueError when they don't
    pair up."""
    endpoints = [e.strip() for e in backend.split(",") if e.strip()]
    keys = [k.strip() for k in (server_keys or "").split(",") if k.strip()]
    if len(keys) > 1 and len(keys) != len(endpoints):
        raise ValueError(f"INTENTBUS_SERVER_KEY names {len(keys)} host keys for {len(endpoints)} backends: "
                         f"give one key for all, or one per backend in the same order")
    return [BackendLink(i, e, keys[i] if len(keys) > 1 else (keys[0] if keys else None), secret)
            for i, e in enumerate(endpoints)]
