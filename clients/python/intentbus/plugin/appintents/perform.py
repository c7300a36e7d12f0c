"""What `perform` can do (intentbus.plugin.appintents): the `PerformContext` of a new-style
request, and the binding of checked wire values to Python values (entities resolved
through their query, several matches put to the user)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Type, Union

from .entities import Entity, EntityType
from .params import NeedsValue, Parameter, parse_date
from ...errors import BusError, ErrorCode
from ...lists import bind_items, current_item
from ..context import Context
from ..types import Request

if TYPE_CHECKING:
    from .intent import AppIntent

__all__ = ["PerformContext"]

_UNSET: Any = object()


class PerformContext:
    """What `perform` can do besides reading its parameters: ask mid-perform questions,
    report progress, notice cancellation. One per request (it survives restarts)."""

    def __init__(self, intent_class: Type[AppIntent], request: Request, ctx: Context):
        self.intent_class = intent_class
        self.request = request
        #: The underlying plugin context (progress, prompt, cancellation).
        self.context = ctx
        self.logger = ctx.logger
        #: The client identity, when the client gave one.
        self.client = request.client
        mf = request.header.get("migrated_from")
        #: The legacy intent name the client used, when the request reached a migrated intent.
        self.migrated_from: Optional[str] = mf if isinstance(mf, str) else None

    def _param(self, parameter: Union[str, Parameter]) -> Parameter:
        if isinstance(parameter, Parameter):
            return parameter
        p = self.intent_class.parameter(parameter)
        if p is None:
            raise ValueError(f"{self.intent_class.intent_identifier()} has no parameter {parameter!r}")
        return p

    def progress(self, message: Optional[str] = None, fraction: Optional[float] = None, **extra: Any) -> None:
        """Sends a PROGRESS update."""
        self.context.progress(message, fraction, **extra)

    def request_value(self, parameter: Union[str, Parameter], dialog: Optional[str] = None) -> Any:
        """Asks the user for a parameter's value now (a `value` PROMPT; the host checks
        the answer against the parameter) and returns it, an entity resolved. The
        parameter keeps its old value; assign the answer if it should change."""
        p = self._param(parameter)
        answer = self.context.prompt(p.value_prompt(dialog))
        return _bind(p, answer, self)

    def request_confirmation(self, dialog: str, parameter: Union[str, Parameter, None] = None,
                             value: Any = _UNSET) -> bool:
        """A yes/no question: about `parameter` (and its `value`) when given, else about
        the whole intent. True only for a yes."""
        prompt: Dict[str, Any] = {"kind": "confirmation", "dialog": dialog}
        if parameter is not None:
            p = self._param(parameter)
            prompt["parameter"] = p.name
            if value is not _UNSET:
                prompt["value"] = p.wire(value)
        return self.context.prompt(prompt) is True

    def request_disambiguation(self, parameter: Union[str, Parameter], options: Sequence[Any],
                               dialog: Optional[str] = None) -> Any:
        """Asks the user to pick one of `options` (entities, enum case values, or plain
        values) and returns the chosen one."""
        p = self._param(parameter)
        return _disambiguate(p, list(options), dialog or f"Which {p.title.lower()}?", self)

    def needs_value(self, parameter: Union[str, Parameter], dialog: Optional[str] = None) -> NeedsValue:
        """The error to raise when a parameter's value won't do: `raise ctx.needs_value("minutes")`."""
        return NeedsValue(self._param(parameter).name, dialog)

    @property
    def cancelled(self) -> bool:
        """Whether the host cancelled this request."""
        return self.context.cancelled

    def check_cancelled(self) -> None:
        """Raises `RequestCancelled` if the host cancelled the request."""
        self.context.check_cancelled()


def _option(p: Parameter, o: Any) -> Tuple[Dict[str, Any], Any]:
    """A prompt option for `o`, and what choosing it returns."""
    if isinstance(o, Entity):
        return o.display(), o
    if isinstance(o, dict) and "id" in o:
        shown = {"id": str(o["id"]), "title": str(o.get("title", o["id"]))}
        if o.get("subtitle") is not None:
            shown["subtitle"] = o["subtitle"]
        return shown, o.get("value", o["id"])
    title = p.enum.title(o) if p.enum is not None else str(o)
    return {"id": str(o), "title": title}, o


def _disambiguate(p: Parameter, options: List[Any], dialog: str, pctx: PerformContext) -> Any:
    if not options:
        raise ValueError(f"nothing to choose from for {p.name}")
    pairs = [_option(p, o) for o in options]
    answer = pctx.context.prompt({"kind": "disambiguation", "parameter": p.name, "dialog": dialog,
                                  "options": [shown for shown, _ in pairs], **current_item()})
    for shown, value in pairs:
        if shown["id"] == (answer if isinstance(answer, str) else str(answer)):
            return value
    raise BusError(ErrorCode.INVALID_PARAMETERS, f"parameter {p.name}: {answer!r} is not one of the options offered",
                   {"parameter": p.name})


def _bind(p: Parameter, value: Any, pctx: PerformContext) -> Any:
    """The Python value of a checked wire value: entities resolved through their query."""
    if value is None:
        return None
    if p.multiple and not current_item():  # each item is bound on its own, in order
        return bind_items(p, value, lambda q, item: _bind(q, item, pctx))
    if p.type == "decimal" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if p.type == "date" and isinstance(value, str):
        try:
            return parse_date(value)
        except ValueError:
            raise BusError(ErrorCode.INVALID_PARAMETERS, f"parameter {p.name} expects an ISO 8601 date, got "
                                                         f"{value!r}", {"parameter": p.name}) from None
    if p.entity is None:
        return value
    entity = p.entity
    if isinstance(value, dict):
        id, text = value.get("id"), value.get("text")
    else:
        id = text = str(value)
    if id is not None:
        found = entity.by_id(str(id))
        if found is not None:
            return _tag(found, entity)
    if text is not None and entity.query.supports("matching"):
        matches = list(entity.query.matching(str(text)) or [])
        if len(matches) == 1:
            return _tag(matches[0], entity)
        if len(matches) > 1:
            chosen = _disambiguate(p, matches, f"Which {entity.type_display_name.lower()} do you mean by "
                                               f"\"{text}\"?", pctx)
            return _tag(chosen, entity)
    given = id if id is not None else text
    # Nothing matches: ask again, as SiriKit's needsValue would, offering the query's
    # suggestions; perform runs again with the answer (a bounded number of times).
    try:
        suggested = list(entity.query.suggested() or [])[:100]
    except Exception:  # a failing suggestion list must not hide the question
        suggested = []
    shown = [e.display() for e in suggested if isinstance(e, Entity)]
    type_name = entity.type_display_name
    raise NeedsValue(p, f"No {type_name} matches \u201c{given}\u201d. Which {type_name} do you mean?",
                     options=shown or None, reason="no_match")


def _tag(e: Entity, entity: EntityType) -> Entity:
    # Remembers the entity type, so a returned entity names it on the wire.
    e._entity_type = entity.name
    return e
