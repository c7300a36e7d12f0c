"""One DEALER per host (docs/protocol.md §4.10 rule 1), with the socket monitor that says
when its connection drops. Used by the blocking and the asyncio client."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, cast

import zmq
from zmq.utils.monitor import recv_monitor_message

from ..errors import ProtocolViolation, WireError
from ..frames import send_frames
from ..packed import PackedLink
from .transport import apply_curve

__all__ = ["HostLink"]

_DISCONNECTED = int(zmq.EVENT_DISCONNECTED)


class HostLink:
    """The connection to one host. `ZMQ_IMMEDIATE`: a message is queued only on a
    complete connection, so nothing waits in the socket for a host that is not there."""

    def __init__(self, context: "zmq.Context[Any]", endpoint: str, client_key: Optional[str],
                 server_key: Optional[str], immediate: bool):
        self.endpoint = endpoint
        # A plain socket even from a zmq.asyncio context: the asyncio client reads it
        # from the event loop itself.
        self.socket: "zmq.Socket[bytes]" = zmq.Socket(context, zmq.DEALER)
        apply_curve(self.socket, client_key, server_key)
        # The packed form (docs/protocol.md §2.1) on CURVE, where every frame costs a crypto_box.
        self.packing = PackedLink(enabled=self.socket.getsockopt(zmq.MECHANISM) == zmq.CURVE)
        self.socket.setsockopt(zmq.LINGER, 0)
        if immediate:
            self.socket.setsockopt(zmq.IMMEDIATE, 1)
        self.monitor: "zmq.Socket[bytes]" = self.socket.get_monitor_socket(zmq.EVENT_DISCONNECTED)
        self.socket.connect(endpoint)

    def send(self, frames: Sequence[bytes], flags: int = 0) -> None:
        """Sends one message (six frames): after the packed form's announcement on the
        first send, and packed once the host packs. `zmq.Again` as `send_frames` raises it."""
        if self.packing.enabled and not self.packing.announced:
            send_frames(self.socket, self.packing.announcement(), flags)  # zmq.Again: not announced yet
            self.packing.announced = True
        send_frames(self.socket, self.packing.outgoing(list(frames)), flags)

    def packing_incoming(self, frames: List[bytes]) -> List[bytes]:
        """A received message as its six frames, whichever form it came in; a malformed
        packed frame is a ProtocolViolation naming the length that does not fit."""
        try:
            return self.packing.incoming(frames)
        except WireError as e:
            raise ProtocolViolation(f"the host sent a malformed packed frame: {e}") from None

    @property
    def fds(self) -> "tuple[int, int]":
        """The socket's and the monitor's ZMQ_FD, for an event loop's add_reader."""
        return (cast(int, self.socket.getsockopt(zmq.FD)), cast(int, self.monitor.getsockopt(zmq.FD)))

    def dropped(self) -> bool:
        """Reads the monitor's waiting events: whether the connection dropped."""
        lost = False
        while True:
            try:
                event = recv_monitor_message(self.monitor, zmq.NOBLOCK)
            except zmq.Again:
                return lost
            lost = lost or event["event"] == _DISCONNECTED

    def close(self) -> None:
        """Closes the socket at once (linger 0): nothing queued for this host goes out."""
        if not self.socket.closed:
            try:
                self.socket.disable_monitor()
            except zmq.ZMQError:
                pass
            self.socket.close(linger=0)
        if not self.monitor.closed:
            self.monitor.close(linger=0)
