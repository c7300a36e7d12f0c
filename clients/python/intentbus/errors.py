"""Exceptions of the IntentBus Python package.

Every failure the *bus* reports (an ERROR message, docs/protocol.md §4.3) is raised as a
`BusError` carrying the machine-readable `code`; each code has its own subclass, so
callers can catch exactly what they handle::

    try:
        client.send("OrderCoffeeIntent", {"beverage": "latte"})
    except ChoiceRequired as e:
        print([c["id"] for c in e.candidates])
    except BusError as e:
        print(e.code, e.message)

Failures on this side of the socket (no answer at all, a malformed message, a prompt
nobody answered) have their own classes, all under `IntentBusError`.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Dict, List, Optional, Type

__all__ = [
    "ErrorCode", "IntentBusError", "BusError", "WireError", "JSONValueError", "NoAnswer", "ProtocolViolation",
    "Unanswered", "error_class",
    "BadFrame", "UnsupportedVersion", "UnknownIntent", "ChoiceRequired", "UnknownPlugin", "BusTimeout",
    "PluginCrashed", "PluginUnavailable", "Busy", "InvalidParameters", "AuthenticationRequired",
    "ConversationExpired", "Cancelled", "DuplicateRequest", "PluginError", "ShuttingDown", "InternalError",
]


class ErrorCode(str, Enum):
    """The codes of ERROR messages (docs/protocol.md §4.3). Stable: programs switch on them."""

    BAD_FRAME = "bad_frame"
    UNSUPPORTED_VERSION = "unsupported_version"
    UNKNOWN_INTENT = "unknown_intent"
    CHOICE_REQUIRED = "choice_required"
    UNKNOWN_PLUGIN = "unknown_plugin"
    TIMEOUT = "timeout"
    PLUGIN_CRASHED = "plugin_crashed"
    PLUGIN_HUNG = "plugin_hung"
    PLUGIN_UNAVAILABLE = "plugin_unavailable"
    BUSY = "busy"
    INVALID_PARAMETERS = "invalid_parameters"
    AUTHENTICATION_REQUIRED = "authentication_required"
    FORBIDDEN = "forbidden"
    CONVERSATION_EXPIRED = "conversation_expired"
    CANCELLED = "cancelled"
    DUPLICATE_REQUEST = "duplicate_request"
    UNEXPECTED_ANSWER = "unexpected_answer"
    TOO_LARGE = "too_large"
    PLUGIN_ERROR = "plugin_error"
    SHUTTING_DOWN = "shutting_down"
    STATE_UNAVAILABLE = "state_unavailable"
    INTERNAL = "internal"
    #: The client's own final answer when the host holding a request is lost
    #: (docs/protocol.md §4.10); no host sends it.
    HOST_LOST = "host_lost"

    def __str__(self) -> str:
        return self.value


class IntentBusError(Exception):
    """The base of every exception this package raises."""


class BusError(IntentBusError):
    """A failure reported by the bus: the body of an ERROR message.

    `code` is an `ErrorCode`; a code this package does not know becomes
    `ErrorCode.INTERNAL` (as in the Swift implementation) and `raw_code` keeps the text.
    `details` holds the structured extras (`candidates`, `plugin`, `exit`, …).
    """

    code: ErrorCode = ErrorCode.INTERNAL

    def __init__(self, code: Any = None, message: str = "", details: Optional[Dict[str, Any]] = None,
                 *, request_id: str = "", intent: str = ""):
        raw = str(code.value if isinstance(code, ErrorCode) else (code if code is not None else type(self).code.value))
        try:
            self.code = ErrorCode(raw)
        except ValueError:
            self.code = ErrorCode.INTERNAL
        self.raw_code = raw
        self.message = message or raw
        self.details: Dict[str, Any] = dict(details or {})
        self.request_id = request_id
        self.intent = intent
        super().__init__(f"{raw}: {self.message}")

    @property
    def body(self) -> Dict[str, Any]:
        """The ERROR body for this error: `code`, `message` and, when not empty, `details`."""
        out: Dict[str, Any] = {"code": self.raw_code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out

    @staticmethod
    def from_body(body: Any, *, request_id: str = "", intent: str = "") -> "BusError":
        """Builds the right subclass from an ERROR body."""
        if not isinstance(body, dict):
            body = {}
        raw = body.get("code") if isinstance(body.get("code"), str) else "internal"
        message = body.get("message") if isinstance(body.get("message"), str) else raw
        details = body.get("details") if isinstance(body.get("details"), dict) else {}
        return error_class(raw)(raw, message, details, request_id=request_id, intent=intent)


class BadFrame(BusError):
    """The message did not follow the frame format."""
    code = ErrorCode.BAD_FRAME


class UnsupportedVersion(BusError):
    """Frame 0 names a protocol version the peer does not speak."""
    code = ErrorCode.UNSUPPORTED_VERSION


class UnknownIntent(BusError):
    """No plugin claims the intent. `details["known_intents"]` lists those that exist."""
    code = ErrorCode.UNKNOWN_INTENT


class ChoiceRequired(BusError):
    """Several plugins claim the intent and the request did not say which."""
    code = ErrorCode.CHOICE_REQUIRED

    @property
    def candidates(self) -> List[Any]:
        """The claimants: `[{"id", "name", "style"}, …]`."""
        c = self.details.get("candidates")
        return c if isinstance(c, list) else []


class UnknownPlugin(BusError):
    """The `plugin` named in the request does not exist or does not claim the intent."""
    code = ErrorCode.UNKNOWN_PLUGIN


class BusTimeout(BusError, TimeoutError):
    """The plugin did not answer within its timeout (the host's verdict)."""
    code = ErrorCode.TIMEOUT


class PluginCrashed(BusError):
    """The plugin exited while holding the request; `details["exit"]` says how."""
    code = ErrorCode.PLUGIN_CRASHED


class PluginHung(BusError):
    """The plugin stopped answering heartbeats while it held the request; it is restarted."""
    code = ErrorCode.PLUGIN_HUNG


class PluginUnavailable(BusError):
    """The plugin can't be started, was rejected, disconnected or is in a crash loop."""
    code = ErrorCode.PLUGIN_UNAVAILABLE


class Busy(BusError):
    """The plugin has too many requests in flight; retry later."""
    code = ErrorCode.BUSY


class InvalidParameters(BusError):
    """The parameters do not match the intent's declaration."""
    code = ErrorCode.INVALID_PARAMETERS


class AuthenticationRequired(BusError):
    """A restricted intent without the right credential."""
    code = ErrorCode.AUTHENTICATION_REQUIRED


class Forbidden(BusError):
    """The client's key does not give it the right to do this (docs/security.md)."""
    code = ErrorCode.FORBIDDEN


class ConversationExpired(BusError):
    """An answer for a conversation that ended, or a prompt nobody answered in time."""
    code = ErrorCode.CONVERSATION_EXPIRED


class Cancelled(BusError):
    """The request was cancelled."""
    code = ErrorCode.CANCELLED


class DuplicateRequest(BusError):
    """The request id is already open for this client."""
    code = ErrorCode.DUPLICATE_REQUEST


class UnexpectedAnswer(BusError):
    """An ANSWER for a request that is not waiting for one (no prompt is open)."""
    code = ErrorCode.UNEXPECTED_ANSWER


class TooLarge(BusError):
    """The message is larger than the host's `limits.max_message_size`."""
    code = ErrorCode.TOO_LARGE


class PluginError(BusError):
    """The plugin reported an error."""
    code = ErrorCode.PLUGIN_ERROR


class ShuttingDown(BusError):
    """The host is stopping."""
    code = ErrorCode.SHUTTING_DOWN


class HostLost(BusError):
    """The host that held the request was lost (its connection dropped, or it went
    silent) and the request could not be sent elsewhere: not idempotent, or already in
    a conversation. It may or may not have run there. `details["host"]` names the host."""
    code = ErrorCode.HOST_LOST


class StateUnavailable(BusError):
    """The host's shared state (`host.state: postgresql://...`) is out of reach: nothing was changed; retry later."""
    code = ErrorCode.STATE_UNAVAILABLE


class InternalError(BusError):
    """A bug in the host, or a code this package does not know (see `raw_code`)."""
    code = ErrorCode.INTERNAL


_BY_CODE: Dict[str, Type[BusError]] = {
    cls.code.value: cls
    for cls in (BadFrame, UnsupportedVersion, UnknownIntent, ChoiceRequired, UnknownPlugin, BusTimeout,
                PluginCrashed, PluginHung, PluginUnavailable, Busy, InvalidParameters, AuthenticationRequired,
                Forbidden,
                ConversationExpired, Cancelled, DuplicateRequest, UnexpectedAnswer, TooLarge, PluginError,
                ShuttingDown, StateUnavailable, InternalError, HostLost)
}


def error_class(code: Any) -> Type[BusError]:
    """The `BusError` subclass for `code` (an `ErrorCode` or its text); unknown codes map to `InternalError`."""
    raw = code.value if isinstance(code, ErrorCode) else str(code)
    return _BY_CODE.get(raw, InternalError)


class WireError(IntentBusError):
    """A message that does not follow docs/protocol.md §2. `code` is `bad_frame` or `unsupported_version`."""

    def __init__(self, code: ErrorCode, message: str):
        self.code = code
        self.message = message
        super().__init__(f"{code.value}: {message}")


class JSONValueError(WireError, ValueError):
    """A value the protocol's JSON cannot carry, refused by `canonical_json` before it is
    written: a non-finite float, an integer outside 64 bits, a lone surrogate, nesting
    deeper than 512 levels. Also a `ValueError`, as `json.dumps` raises for NaN."""


class NoAnswer(IntentBusError, TimeoutError):
    """The host did not answer at all within the client's wait limit (is it running?)."""

    def __init__(self, endpoint: str, waited: float, request_id: str = ""):
        self.endpoint = endpoint
        self.waited = waited
        self.request_id = request_id
        super().__init__(f"no answer from the host at {endpoint} within {waited:g} s (is `intentbus host` running?)")


class ProtocolViolation(IntentBusError):
    """The peer sent something that is not IB1, or a message kind that makes no sense here."""


class Unanswered(IntentBusError):
    """A prompt arrived and no answer was given (no callback, or it returned None).

    The client cancels the request before raising this. `prompt` is the question.
    """

    def __init__(self, prompt: Any):
        self.prompt = prompt
        what = getattr(prompt, "kind", "prompt")
        dialog = getattr(prompt, "dialog", "")
        super().__init__(f"the host asked {dialog!r} ({what}) and no answer was given")
