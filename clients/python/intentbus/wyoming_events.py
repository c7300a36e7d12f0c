"""Reading Wyoming events with bounds (docs/wyoming.md, "Hostile input").

A Wyoming event is a JSON header line, then `data_length` bytes of JSON data merged into
the header's `data`, then `payload_length` bytes of payload. The `wyoming` package's own
reader (`wyoming.event.async_read_event`) trusts both lengths, so a header claiming a
gigabyte makes it buffer a gigabyte, and it turns every malformed header into a silent
disconnect. This reader checks the header first and says what was wrong; everything else
(the `Event` type, writing) is the package's.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, Dict, Optional

from wyoming.event import Event

__all__ = ["EventLimits", "WyomingFault", "read_event"]


@dataclass(frozen=True)
class EventLimits:
    """The most a client may send in one event (bytes)."""

    #: The JSON header line, newline included: the StreamReader's buffer limit, which
    #: `wyoming`'s servers leave at asyncio's default (64 KiB), so it is only reported here.
    line: int = 64 * 1024
    #: The JSON data after the header (`data_length`).
    data: int = 64 * 1024
    #: A binary payload (`payload_length`): intent services take none, so a small one is
    #: read and dropped and a large one ends the connection.
    payload: int = 64 * 1024


class WyomingFault(Exception):
    """A client's event the service cannot take. `code` goes into the `error` event;
    `fatal` means the byte stream can no longer be followed, so the connection closes."""

    def __init__(self, code: str, text: str, *, fatal: bool):
        super().__init__(text)
        self.code = code
        self.text = text
        self.fatal = fatal


def _length(header: Dict[str, Any], key: str, limit: int) -> int:
    value = header.get(key)
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise WyomingFault("malformed-event", f"{key} must be a whole number ≥ 0, not {json.dumps(value)}",
                           fatal=True)
    if value > limit:
        raise WyomingFault("too-large", f"{key} {value} is over the limit of {limit} bytes", fatal=True)
    return value


def _json(raw: bytes, what: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise WyomingFault("malformed-event", f"the {what} is not JSON in UTF-8 ({e})", fatal=True) from None


async def read_event(reader: asyncio.StreamReader, limits: EventLimits = EventLimits()) -> Optional[Event]:
    """The next event, or None at a clean end of stream (between events).

    Raises `WyomingFault` for an event that breaks the format or a limit, and
    `asyncio.IncompleteReadError` when the client leaves in the middle of one."""
    try:
        line = await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as e:
        if not e.partial.strip():
            return None
        raise
    except asyncio.LimitOverrunError:
        raise WyomingFault("too-large", f"the header line is over the limit of {limit_text(limits.line)}",
                           fatal=True) from None
    header = _json(line, "header line")
    if not isinstance(header, dict):
        raise WyomingFault("malformed-event", "the header line is not a JSON object", fatal=True)
    # Both lengths are checked before any byte after the line is read.
    data_length = _length(header, "data_length", limits.data)
    payload_length = _length(header, "payload_length", limits.payload)
    data = header.get("data", {})
    if data is None:
        data = {}
    if data_length:
        extra = _json(await reader.readexactly(data_length), "data")
        if not isinstance(extra, dict):
            raise WyomingFault("malformed-event", "the data after the header is not a JSON object", fatal=True)
        if not isinstance(data, dict):
            raise WyomingFault("malformed-event", "the header's data is not a JSON object", fatal=True)
        data = {**data, **extra}
    payload = await reader.readexactly(payload_length) if payload_length else None
    kind = header.get("type")
    if not isinstance(kind, str) or not kind:
        raise WyomingFault("malformed-event", "the event has no type (a string)", fatal=False)
    if not isinstance(data, dict):
        raise WyomingFault("malformed-event", "the event's data is not a JSON object", fatal=False)
    return Event(type=kind, data=data, payload=payload)


def limit_text(n: int) -> str:
    """`65536` → `64 KiB`, for error texts."""
    return f"{n // 1024} KiB" if n % 1024 == 0 else f"{n} bytes"
