"""The IB1 wire format (docs/protocol.md §2–3): six frames per message, canonical JSON.

This module is pure value code, no sockets: `Message.encode()` gives the frames to send,
`Message.decode(frames)` checks and parses what arrived. The conformance vectors in the
repository's `conformance/` directory pin both directions byte for byte.
"""

from __future__ import annotations

import json
import math
import threading
import unicodedata
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from .errors import ErrorCode, JSONValueError, WireError

__all__ = ["SIGNATURE", "PROTOCOL_VERSION", "FRAME_COUNT", "MAX_NAME_LENGTH", "MAX_JSON_DEPTH", "Kind", "Message",
           "canonical_json", "parse_json", "split_envelope"]

#: Frame 0 of every message: signature and protocol version.
SIGNATURE = b"IB1"
#: The protocol version number carried in HELLO and WELCOME.
PROTOCOL_VERSION = 1
#: Frames in a message, after any routing envelope.
FRAME_COUNT = 6
#: Longest request id or intent name, in bytes (UTF-8).
MAX_NAME_LENGTH = 255
#: The deepest nesting of arrays and objects in a header or body (the Swift side's too).
MAX_JSON_DEPTH = 512
#: The protocol's integers are 64-bit signed (docs/protocol.md §2).
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


class Kind(str, Enum):
    """Message kinds: frame 1 of every message (docs/protocol.md §3)."""

    REQUEST = "REQUEST"
    ANSWER = "ANSWER"
    CANCEL = "CANCEL"
    REPLY = "REPLY"
    ERROR = "ERROR"
    PROMPT = "PROMPT"
    PROGRESS = "PROGRESS"
    HELLO = "HELLO"
    WELCOME = "WELCOME"
    REJECT = "REJECT"
    DISCONNECT = "DISCONNECT"
    HEARTBEAT = "HEARTBEAT"
    REFUSED = "REFUSED"
    RESULT = "RESULT"

    @property
    def is_final(self) -> bool:
        """Whether a message of this kind ends a request (REPLY or ERROR)."""
        return self in (Kind.REPLY, Kind.ERROR)

    def __str__(self) -> str:
        return self.value


#: Frame 1's bytes of each kind, and back.
_KIND_BYTES: Dict["Kind", bytes] = {k: k.value.encode("ascii") for k in Kind}
_KIND_OF_BYTES: Dict[bytes, "Kind"] = {v: k for k, v in _KIND_BYTES.items()}


def canonical_json(value: Any) -> bytes:
    """The canonical JSON bytes of `value`: sorted keys, no spaces, "/" unescaped, UTF-8.

    Raises `JSONValueError` (a `WireError` and a `ValueError`) for what the protocol's
    JSON cannot carry, which the Swift side cannot even hold: non-finite floats,
    integers outside 64 bits, strings with a lone surrogate, nesting deeper than
    `MAX_JSON_DEPTH`.
    """
    failure: Optional[BaseException] = None
    try:
        text = _encode(value)
        data = text.encode("utf-8")  # a lone surrogate fails here
    except (ValueError, TypeError, UnicodeEncodeError, RecursionError) as e:
        failure, text, data = e, "", b""
    # What the encoder lets through can only be there with non-ASCII text (a key that
    # clashes in normalization), a run of 19 digits (an integer beyond 64 bits) or many
    # brackets (deep nesting): C-speed checks, and the full walk only then.
    if failure is not None or not text.isascii() or _NINETEEN_DIGITS in data.translate(_DIGITS_AS_ZEROS) \
            or data.count(b"[") + data.count(b"{") > MAX_JSON_DEPTH:
        problem = _unrepresentable(value, writing=True)
        if problem is not None:
            raise JSONValueError(ErrorCode.BAD_FRAME, f"not valid JSON: {problem}")
        if failure is not None:
            raise failure  # not JSON at all (a set, an object): the encoder's own error
    return data


def parse_json(data: bytes) -> Any:
    """Parses a header or body frame. An empty frame means `{}`.

    Raises `WireError(bad_frame)` when the bytes are not UTF-8 JSON, or hold what the
    protocol refuses (as the Swift parser does): an integer outside 64 bits, a decimal
    beyond a double's range, a lone surrogate escape, nesting deeper than `MAX_JSON_DEPTH`.
    """
    if not data:
        return {}
    data = bytes(data)
    if data.isascii() and b"\\u" not in data and data.count(b"[") + data.count(b"{") <= MAX_JSON_DEPTH:
        # Nothing here that only the object hook and the walk can judge (C-speed checks).
        text = data.decode("ascii")
        try:
            try:  # the C scanner itself; `decode` (whitespace, errors) when it did not take it all
                value, end = _PLAIN_SCAN(text, 0)
            except StopIteration:
                end = -1
            return value if end == len(text) else _PLAIN_DECODER.decode(text)
        except ValueError as e:
            raise WireError(ErrorCode.BAD_FRAME, f"not valid JSON: {e}") from None
    try:
        value = _DECODER.decode(data.decode("utf-8"))
    except RecursionError:
        raise WireError(ErrorCode.BAD_FRAME, f"not valid JSON: nested deeper than {MAX_JSON_DEPTH} levels") from None
    except (UnicodeDecodeError, ValueError) as e:
        raise WireError(ErrorCode.BAD_FRAME, f"not valid JSON: {e}") from None
    # Only escapes make lone surrogates, and only many brackets deep nesting: skip the
    # walk for everything else (C-speed checks).
    if b"\\u" in data or data.count(b"[") + data.count(b"{") > MAX_JSON_DEPTH:
        problem = _unrepresentable(value, writing=False)
        if problem is not None:
            raise WireError(ErrorCode.BAD_FRAME, f"not valid JSON: {problem}")
    return value


def json_type_name(value: Any) -> str:
    """The JSON type's name, as the Swift SDK words it ("an array", "a string", …)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _parse_int(text: str) -> int:
    value = int(text)
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"integer outside the 64-bit range ({text[:24]}…)")
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number outside the range of a 64-bit decimal ({text[:24]})")
    return value


def _object(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    obj = dict(pairs)
    if _normalization_clash(obj):
        raise ValueError("two keys differ only in Unicode normalization")
    return obj


#: One encoder and one decoder for every message (json.dumps/loads make one per call when
#: given options).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float,
                            object_pairs_hook=_object)
#: A run of 19 digits, looked for in the text with every digit made a zero (C speed; a
#: regular expression cost as much as the encoding).
_DIGITS_AS_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_NINETEEN_DIGITS = b"0" * 19
#: The parser without the object hook, for ASCII frames without escapes: a key that may
#: clash in normalization is not ASCII or is written with an escape, and so is a lone
#: surrogate; numbers and constants go through the same hooks as in `_DECODER`. Same
#: values and errors, without a Python call per object.
_PLAIN_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_int=_parse_int, parse_float=_parse_float)
_PLAIN_SCAN: Callable[[str, int], Tuple[Any, int]] = _PLAIN_DECODER.scan_once  # type: ignore[attr-defined]


def _encoder_call() -> Callable[[Any], str]:
    """`_ENCODER.encode` without the Python layers around the C encoder (its closures
    made again at every call), when this Python's C encoder takes the arguments that
    JSONEncoder gives it; else `_ENCODER.encode`."""
    make = getattr(json.encoder, "c_make_encoder", None)
    basestring = getattr(json.encoder, "c_encode_basestring", None)
    if make is None or basestring is None:
        return _ENCODER.encode

    def new_encoder() -> Any:
        return make({}, _ENCODER.default, basestring, None, ":", ",", True, False, False)

    # One C encoder per thread, not one per call (making it was a tenth of a small
    # message's encoding). Its `markers` dict (the circular-reference check) is empty
    # after every call that succeeds; after one that failed it may not be, so it is made again.
    mine = threading.local()

    def encode(value: Any) -> str:
        if type(value) is str:
            return str(basestring(value))
        encoder = getattr(mine, "encoder", None)
        if encoder is None:
            encoder = mine.encoder = new_encoder()
        try:
            chunks = encoder(value, 0)
        except BaseException:
            mine.encoder = new_encoder()
            raise
        return "".join(chunks)
    try:
        if encode({"b": [1, 2.5, None, True], "a": "\u00e9/"}) == _ENCODER.encode({"b": [1, 2.5, None, True],
                                                                                   "a": "\u00e9/"}):
            return encode
    except (TypeError, ValueError):
        pass
    return _ENCODER.encode


_encode = _encoder_call()


def _normalization_clash(obj: Dict[Any, Any]) -> bool:
    """Whether two keys are canonically equivalent but not equal ("é" and "e\u0301"): one
    key in Swift, two here, so both sides refuse them."""
    keys = [k for k in obj if isinstance(k, str)]
    if len(keys) < 2 or all(k.isascii() for k in keys):
        return False
    return len({unicodedata.normalize("NFC", k) for k in keys}) < len(keys)


def _has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _unrepresentable(value: Any, *, writing: bool) -> Optional[str]:
    """Why `value` is not the protocol's JSON, or None. Iterative: no depth can overflow
    the interpreter's stack. Reading checks strings and depth (the parse hooks check
    numbers); writing checks numbers too."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _has_lone_surrogate(item):
                return "unpaired surrogate in a string"
        elif isinstance(item, (dict, list, tuple)):
            if depth > MAX_JSON_DEPTH:
                return f"nested deeper than {MAX_JSON_DEPTH} levels"
            if isinstance(item, dict):
                if writing and _normalization_clash(item):
                    return "two keys differ only in Unicode normalization"
                for key, inner in item.items():
                    if isinstance(key, str) and _has_lone_surrogate(key):
                        return "unpaired surrogate in a key"
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)
        elif writing and isinstance(item, bool):
            pass
        elif writing and isinstance(item, int):
            if not INT64_MIN <= item <= INT64_MAX:
                return "integer outside the 64-bit range"
        elif writing and isinstance(item, float):
            if not math.isfinite(item):
                return f"{item!r} is not a JSON number"
    return None


def _frame_text(data: bytes, what: str) -> str:
    if len(data) > MAX_NAME_LENGTH:
        raise WireError(ErrorCode.BAD_FRAME, f"{what} must be UTF-8 of at most {MAX_NAME_LENGTH} bytes")
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise WireError(ErrorCode.BAD_FRAME, f"{what} must be UTF-8 of at most {MAX_NAME_LENGTH} bytes") from None


JSONFrame = Union[bytes, None]


class Message:
    """One IntentBus message, after any routing envelope.

    `header` and `body` hold the raw frame bytes (empty = `{}`), so a message can be
    forwarded without decoding; `header_json()` and `body_json()` parse them. Build an
    outgoing message from JSON values with `Message.build(...)`.
    """

    __slots__ = ("kind", "request_id", "intent", "header", "body")

    def __init__(self, kind: Union[Kind, str], request_id: str = "", intent: str = "",
                 header: bytes = b"", body: bytes = b""):
        self.kind = kind if type(kind) is Kind else Kind(kind)
        self.request_id = request_id
        self.intent = intent
        self.header = bytes(header)
        self.body = bytes(body)

    @classmethod
    def build(cls, kind: Union[Kind, str], request_id: str = "", intent: str = "",
              header: Any = None, body: Any = None) -> "Message":
        """A message from JSON values; `None` (not `{}`) gives an empty frame."""
        return cls(kind, request_id, intent,
                   b"" if header is None else canonical_json(header),
                   b"" if body is None else canonical_json(body))

    def encode(self) -> List[bytes]:
        """The six frames to send."""
        request_id, intent = self.request_id.encode("utf-8"), self.intent.encode("utf-8")
        for what, data in (("request id", request_id), ("intent", intent)):
            if len(data) > MAX_NAME_LENGTH:
                raise WireError(ErrorCode.BAD_FRAME, f"{what} is longer than {MAX_NAME_LENGTH} bytes")
        return [SIGNATURE, _KIND_BYTES[self.kind], request_id, intent, self.header, self.body]

    @classmethod
    def decode(cls, frames: Sequence[bytes]) -> "Message":
        """Checks and parses the frames after the routing envelope (docs/protocol.md §2).

        Raises `WireError` with `unsupported_version` when frame 0 is `IB` + another
        version, else `bad_frame` for anything that does not follow the format.
        """
        frames = [bytes(f) for f in frames]
        if not frames:
            raise WireError(ErrorCode.BAD_FRAME, "empty message")
        first = frames[0]
        if first != SIGNATURE:
            sig = first.decode("utf-8", "replace") if len(first) <= 16 else f"<{len(first)} bytes>"
            if first.startswith(b"IB"):
                raise WireError(ErrorCode.UNSUPPORTED_VERSION,
                                f"protocol {sig} is not supported; this side speaks IB1")
            raise WireError(ErrorCode.BAD_FRAME, f'frame 0 must be "IB1", got "{sig}"')
        if len(frames) != FRAME_COUNT:
            raise WireError(ErrorCode.BAD_FRAME,
                            f"expected {FRAME_COUNT} frames (IB1, kind, request id, intent, header, body), "
                            f"got {len(frames)}")
        kind = _KIND_OF_BYTES.get(frames[1])
        if kind is None:
            raise WireError(ErrorCode.BAD_FRAME,
                            f'frame 1 is not a known message kind: "{frames[1][:32].decode("utf-8", "replace")}"')
        request_id = _frame_text(frames[2], "frame 2 (request id)")
        intent = _frame_text(frames[3], "frame 3 (intent)")
        return cls(kind, request_id, intent, frames[4], frames[5])

    def header_json(self) -> Any:
        """The header parsed (empty frame = `{}`); raises `WireError` when it is not JSON."""
        return parse_json(self.header)

    def body_json(self) -> Any:
        """The body parsed (empty frame = `{}`); raises `WireError` when it is not JSON."""
        return parse_json(self.body)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and self.encode() == other.encode()

    def __repr__(self) -> str:
        return (f"Message({self.kind.value}, {self.request_id!r}, {self.intent!r}, "
                f"header={self.header.decode('utf-8', 'replace')!r}, body={self.body.decode('utf-8', 'replace')!r})")


def split_envelope(frames: Sequence[bytes]) -> "tuple[List[bytes], List[bytes]]":
    """Splits what a ROUTER socket received into (envelope, message frames).

    ROUTER prepends the peer's identity; a REQ peer adds an empty delimiter frame too.
    Only a program that binds a ROUTER needs this (clients and plugins use DEALER).
    """
    frames = list(frames)
    if not frames:
        return [], []
    n = 2 if len(frames) > 1 and len(frames[1]) == 0 else 1
    return frames[:n], frames[n:]


def optional_header(value: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """`value` or None when it is empty, so that an empty header goes out as an empty frame."""
    return value if value else None
