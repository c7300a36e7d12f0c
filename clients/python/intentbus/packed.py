"""The packed form of an IB1 message (docs/protocol.md §2.1): the six frames in one, for
CURVE connections, where libzmq encrypts every frame on its own.

    b"IB1P" · u8 n · kind · u8 n · request id · u8 n · intent · u32 n · header · u32 n · body

Lengths are big-endian and the frame ends exactly with the body. A client announces the
form with a packed HEARTBEAT and packs once the host has answered in it (`PackedLink`)."""

from __future__ import annotations

import struct
from typing import List, Sequence

from .errors import ErrorCode, WireError
from .wire import FRAME_COUNT, SIGNATURE

__all__ = ["PACKED_SIGNATURE", "is_packed", "pack", "unpack", "PackedLink"]

PACKED_SIGNATURE = b"IB1P"
_U32 = struct.Struct(">I")


def is_packed(frames: Sequence[bytes]) -> bool:
    """Whether a received message is one packed frame."""
    return len(frames) == 1 and frames[0][:4] == PACKED_SIGNATURE


def pack(frames: Sequence[bytes]) -> bytes:
    """The six frames (IB1 first) as one packed frame; WireError `bad_frame` when they are
    not six or the kind, request id or intent is over 255 bytes."""
    if len(frames) != FRAME_COUNT or frames[0] != SIGNATURE:
        raise WireError(ErrorCode.BAD_FRAME, f"a packed frame carries the {FRAME_COUNT} frames of an IB1 message")
    kind, request_id, intent, header, body = (bytes(f) for f in frames[1:])
    for name, field in (("kind", kind), ("request id", request_id), ("intent", intent)):
        if len(field) > 255:
            raise WireError(ErrorCode.BAD_FRAME, f"the {name} is longer than 255 bytes")
    return b"".join((PACKED_SIGNATURE, bytes((len(kind),)), kind, bytes((len(request_id),)), request_id,
                     bytes((len(intent),)), intent, _U32.pack(len(header)), header, _U32.pack(len(body)), body))


def unpack(frame: bytes) -> List[bytes]:
    """The six frames a packed frame carries (IB1 first); every length is checked
    against what is left of the frame (WireError `bad_frame` naming the field)."""
    if frame[:4] != PACKED_SIGNATURE:
        raise WireError(ErrorCode.BAD_FRAME, 'a packed frame starts with "IB1P"')
    size = len(frame)
    at = 4
    parts = [SIGNATURE]
    for name, width in (("kind", 1), ("request id", 1), ("intent", 1), ("header", 4), ("body", 4)):
        if size - at < width:
            raise WireError(ErrorCode.BAD_FRAME, f"a packed frame of {size} bytes ends before the length of its {name}")
        n = frame[at] if width == 1 else _U32.unpack_from(frame, at)[0]
        at += width
        if n > size - at:
            raise WireError(ErrorCode.BAD_FRAME,
                            f"the {name} of a packed frame ({n} bytes) runs past the frame's end ({size} bytes)")
        parts.append(bytes(frame[at:at + n]))
        at += n
    if at != size:
        raise WireError(ErrorCode.BAD_FRAME, f"a packed frame of {size} bytes has {size - at} bytes after its body")
    return parts


class PackedLink:
    """One connection's side of the packed form: announce it once (a packed HEARTBEAT
    before the first message), send packed once the host has sent a packed message, and
    read both forms always."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.announced = False
        self.host_packs = False

    @staticmethod
    def announcement() -> List[bytes]:
        """The packed HEARTBEAT a client sends before its first message (then it sets
        `announced`)."""
        return [pack([SIGNATURE, b"HEARTBEAT", b"", b"", b"", b""])]

    def outgoing(self, frames: List[bytes]) -> List[bytes]:
        """What to send for `frames` (the six): one packed frame once the host packs."""
        return [pack(frames)] if self.host_packs else frames

    def incoming(self, frames: List[bytes]) -> List[bytes]:
        """A received message as six frames; a packed one says the host packs."""
        if not is_packed(frames):
            return frames
        six = unpack(frames[0])
        self.host_packs = True
        return six
