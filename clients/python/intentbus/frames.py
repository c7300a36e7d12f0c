"""Multipart send and receive on a pyzmq socket with plain integer flags.

pyzmq's `send_multipart` ORs `zmq.SNDMORE` into the flags for every frame and
`recv_multipart` reads `zmq.RCVMORE` through the option enum for every frame: on CPython 3.11 those
enum operations were a fifth of the plugin SDK's per-request cost (six frames each way).
These two do the same with ints.
"""

from __future__ import annotations

from typing import Any, List, Sequence

import zmq

__all__ = ["send_frames", "recv_frames"]

_SNDMORE = int(zmq.SNDMORE)
#: zmq.NOBLOCK as an int, for `flags`.
NOBLOCK = int(zmq.NOBLOCK)


def send_frames(sock: "zmq.Socket[Any]", frames: Sequence[Any], flags: int = 0, copy: bool = True) -> None:
    """Sends `frames` as one multipart message (ZeroMQ takes all parts or none)."""
    # A plain pyzmq socket's `send` is a Python method (for DRAFT routing ids and groups)
    # around the compiled one: called directly, a six-frame send costs a third.
    send = _BACKEND_SEND if type(sock) is _PLAIN_SOCKET else type(sock).send
    last = len(frames) - 1
    more = flags | _SNDMORE
    for i, frame in enumerate(frames):
        send(sock, frame, more if i < last else flags, copy)


def recv_frames(sock: "zmq.Socket[Any]", flags: int = 0) -> List[bytes]:
    """Receives one multipart message as bytes; `zmq.Again` when `flags` has NOBLOCK
    and nothing is there."""
    # A Frame's `more` is a plain attribute; getsockopt(RCVMORE) builds an enum per call.
    recv = _BACKEND_RECV if type(sock) is _PLAIN_SOCKET else type(sock).recv
    frame = recv(sock, flags, False)
    parts: List[bytes] = [frame.bytes]
    while frame.more:
        frame = recv(sock, flags, False)
        parts.append(frame.bytes)
    return parts


_PLAIN_SOCKET: Any = zmq.Socket
_BACKEND_SEND: Any = zmq.backend.Socket.send if issubclass(zmq.Socket, zmq.backend.Socket) else zmq.Socket.send
_BACKEND_RECV: Any = zmq.backend.Socket.recv if issubclass(zmq.Socket, zmq.backend.Socket) else zmq.Socket.recv
