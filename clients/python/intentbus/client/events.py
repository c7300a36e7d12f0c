"""What a client reads from the host (intentbus.client): the events of a conversation
(`Progress`, `Prompt`, `IntermediateResult`, `Reply`), the `Answer` it sends back, and
the decoding of host messages into them. Shared by the blocking and the asyncio client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..errors import BusError, ProtocolViolation, WireError
from ..results import IntermediateResult, SnippetAction, snippet_actions
from ..wire import Kind, Message

__all__ = ["Reply", "Prompt", "Progress", "Answer", "Event", "refusal", "to_event"]


@dataclass(frozen=True)
class Reply:
    """A final REPLY (docs/protocol.md §4.2)."""

    status: str
    plugin: Optional[str]
    header: Dict[str, Any]
    body: Any
    request_id: str = ""
    intent: str = ""
    #: The RESULTs of the intents that opened this one, oldest first (docs/results.md).
    earlier: Tuple[IntermediateResult, ...] = ()
    #: The endpoint of the host that answered (the client's, with several hosts).
    host: Optional[str] = None

    @property
    def succeeded(self) -> bool:
        """Whether the header's status is `success`."""
        return self.status == "success"

    @property
    def actions(self) -> List[SnippetAction]:
        """The actions its snippet view offers (`client.send(a.intent, a.parameters)`)."""
        return snippet_actions(self.body)


@dataclass(frozen=True)
class Prompt:
    """A question from the host (a PROMPT body, docs/protocol.md §4.4)."""

    kind: str
    parameter: Optional[str]
    dialog: str
    type: Optional[str]
    options: List[Dict[str, Any]]
    remember: List[str]
    raw: Dict[str, Any]
    request_id: str = ""
    intent: str = ""

    @classmethod
    def from_body(cls, body: Any, request_id: str = "", intent: str = "") -> "Prompt":
        """Reads a PROMPT body; missing fields get neutral values."""
        b = body if isinstance(body, dict) else {}
        raw_options, raw_remember = b.get("options"), b.get("remember")
        options: List[Any] = raw_options if isinstance(raw_options, list) else []
        remember: List[Any] = raw_remember if isinstance(raw_remember, list) else []
        kind, parameter, dialog, type_ = b.get("kind"), b.get("parameter"), b.get("dialog"), b.get("type")
        return cls(kind=kind if isinstance(kind, str) else "value",
                   parameter=parameter if isinstance(parameter, str) else None,
                   dialog=dialog if isinstance(dialog, str) else "",
                   type=type_ if isinstance(type_, str) else None,
                   options=[o for o in options if isinstance(o, dict)], remember=list(remember), raw=b,
                   request_id=request_id, intent=intent)

    @property
    def option_ids(self) -> List[Any]:
        """The `id` of every option, in order."""
        return [o.get("id") for o in self.options]

    # The parameter fields of a question (docs/protocol.md §4.4), typed; None (or False)
    # when the host did not send them or sent something of another type.

    def _text(self, key: str) -> Optional[str]:
        value = self.raw.get(key)
        return value if isinstance(value, str) else None

    def _number(self, key: str) -> Optional[float]:
        value = self.raw.get(key)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def _count(self, key: str) -> Optional[int]:
        value = self.raw.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def type_title(self) -> Optional[str]:
        """The type for people, in the dialogs' language ("Ganzzahl", "whole number")."""
        return self._text("type_title")

    @property
    def multiple(self) -> bool:
        """Whether a list is welcome as the answer (a single value is a list of one)."""
        return self.raw.get("multiple") is True

    @property
    def minimum(self) -> Optional[float]:
        """The lowest value taken (an int for Integer parameters), or None."""
        return self._number("minimum")

    @property
    def maximum(self) -> Optional[float]:
        """The highest value taken (an int for Integer parameters), or None."""
        return self._number("maximum")

    @property
    def range(self) -> Optional[str]:
        """The bounds as text for people ("5…180", "≥ 5"), or None."""
        return self._text("range")

    @property
    def problem(self) -> Optional[str]:
        """Why the previous answer was not taken, on a repeated question."""
        return self._text("problem")

    @property
    def item(self) -> Optional[int]:
        """The 0-based position of the list item this question is about, or None."""
        return self._count("item")

    @property
    def items(self) -> Optional[int]:
        """The length of the list an item question is about, or None."""
        return self._count("items")


@dataclass(frozen=True)
class Progress:
    """A progress update (a PROGRESS body, docs/protocol.md §4.5)."""

    message: Optional[str]
    fraction: Optional[float]
    raw: Dict[str, Any]
    request_id: str = ""
    intent: str = ""


@dataclass(frozen=True)
class Answer:
    """An answer with extras: return it from `on_prompt` (or pass it to
    `Conversation.answer`) to send `remember` with a plugin choice."""

    value: Any
    remember: Optional[str] = None

    @property
    def body(self) -> Dict[str, Any]:
        """The ANSWER body."""
        out: Dict[str, Any] = {"value": self.value}
        if self.remember is not None:
            out["remember"] = self.remember
        return out


Event = Union[Progress, Prompt, IntermediateResult, Reply]

def refusal(msg: Message, request_id: str, intent: str) -> BusError:
    """The error a REFUSED message carries (never final: the request it names goes on)."""
    try:
        body = msg.body_json()
    except WireError:
        body = {}
    return BusError.from_body(body, request_id=request_id, intent=intent)


def to_event(msg: Message, request_id: str, intent: str, earlier: Tuple[IntermediateResult, ...] = (),
             host: Optional[str] = None) -> Event:
    """What a message from the host means for the request: a `Progress`, a `Prompt` or
    the `Reply` (with `earlier` and `host`); a final ERROR is raised as its `BusError` subclass."""
    if msg.kind is Kind.REPLY:
        header = _parse(msg.header_json, "REPLY header")
        if not isinstance(header, dict):
            raise ProtocolViolation("the REPLY header is not a JSON object")
        body = _parse(msg.body_json, "REPLY body")
        plugin = header.get("plugin")
        return Reply(header.get("status", "success"), plugin if isinstance(plugin, str) else None,
                     header, body, request_id, intent, earlier, host)
    if msg.kind is Kind.ERROR:
        raise BusError.from_body(_parse(msg.body_json, "ERROR body"), request_id=request_id, intent=intent)
    if msg.kind is Kind.PROGRESS:
        body = _parse(msg.body_json, "PROGRESS body")
        b = body if isinstance(body, dict) else {}
        fraction = b.get("fraction")
        return Progress(message=b.get("message") if isinstance(b.get("message"), str) else None,
                        fraction=float(fraction) if isinstance(fraction, (int, float))
                        and not isinstance(fraction, bool) else None,
                        raw=b, request_id=request_id, intent=intent)
    if msg.kind is Kind.PROMPT:
        return Prompt.from_body(_parse(msg.body_json, "PROMPT body"), request_id=request_id, intent=intent)
    if msg.kind is Kind.RESULT:
        header = _parse(msg.header_json, "RESULT header")
        header = header if isinstance(header, dict) else {}
        plugin = header.get("plugin")
        return IntermediateResult(status=str(header.get("status", "success")),
                                  plugin=plugin if isinstance(plugin, str) else None,
                                  header=header, body=_parse(msg.body_json, "RESULT body"),
                                  request_id=request_id, intent=msg.intent or intent)
    raise ProtocolViolation(f"unexpected {msg.kind.value} from the host for request {request_id}")


def _parse(fn: Callable[[], Any], what: str) -> Any:
    try:
        return fn()
    except WireError as e:
        raise ProtocolViolation(f"{what}: {e.message}") from None
