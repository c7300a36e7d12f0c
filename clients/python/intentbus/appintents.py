"""New-style (App Intents-style) handlers in Python (docs/protocol.md §9).

An intent is a class with declared parameters and a `perform(ctx)` method; the plugin
sends the declarations in HELLO `metadata.new_style`, the host checks them, checks every
request's parameters against them, applies defaults and asks for missing required ones
before `perform` runs:

    from intentbus import AppIntent, EnumType, Parameter, Plugin

    Mood = EnumType("Mood", {"calm": "Calm", "wild": "Wild"})

    class StartFocusSession(AppIntent):
        identifier = "StartFocusSessionIntent"
        title = "Start focus session"
        minutes = Parameter("Minutes", int, default=25, range=(5, 180), request_value_dialog="How long?")
        mood = Parameter("Mood", Mood, default="calm")

        def perform(self, ctx):
            if self.minutes > 120 and not ctx.request_confirmation("That's long. Sure?"):
                raise ctx.needs_value("minutes", "How long, then?")
            return IntentResult(dialog=f"Focus for {self.minutes} minutes.", value=self.minutes)

    plugin = Plugin()
    plugin.register(StartFocusSession)
    plugin.run()

Parameter types: `int` (integer), `float` (decimal), `bool` (boolean), `str` (string),
`datetime.date` or `datetime.datetime` (date), `"url"` (url: an absolute URL, a `str` in
`perform`), an `EnumType` or an `EntityType`. A date parameter arrives as a
`datetime.date` (date-only wire form) or an aware UTC `datetime.datetime` (date and time).
Entity parameters arrive as the client gave them (an id
or a text); the runtime resolves them with the entity's query (by id, then by text;
several matches are put to the user) before `perform` sees an `Entity`.

A plugin with entity types answers `ib.entities` queries (docs/protocol.md §9.4) from
their `EntityQuery`: it declares `ib.entities` with style `plain` in HELLO.

With `INTENTBUS_DESCRIBE=1` in the environment a plugin prints its HELLO declarations as
one JSON line and exits 0 (`intentbus validate`); see `Plugin.run`.
"""

from __future__ import annotations

import datetime as _dt
import re as _re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Type, Union

from ._awaitable import settle
from .errors import BusError, ErrorCode
from .lists import bind_items, current_item, value_fields
from .plugin import Context, Handler, HandlerStyle, Request, Result

__all__ = ["AppIntent", "Parameter", "EnumType", "EntityType", "Entity", "EntityQuery", "IntentResult",
           "NeedsValue", "PerformContext", "NewStyleHandler", "EntityQueryHandler", "NewStyleRegistry",
           "ENTITY_QUERY_INTENT", "ALWAYS_ALLOWED", "REQUIRES_AUTHENTICATION"]

#: The host intent that forwards entity queries to the plugin declaring the entity.
ENTITY_QUERY_INTENT = "ib.entities"
#: Authentication policies (metadata `authentication`).
ALWAYS_ALLOWED = "always_allowed"
REQUIRES_AUTHENTICATION = "requires_authentication"

#: How often one request may restart `perform()` after needs-value errors (as the Swift SDK).
MAX_RESTARTS = 10

_UNSET: Any = object()


# -- enums and entities ------------------------------------------------------------------


class EnumType:
    """An enum type (metadata `enums[]`): a name, a display name, and cases with titles.

    `cases` is a mapping value → title, a list of `(value, title)` pairs, or a list of
    values (each its own title). Parameter values are the case values (strings).
    """

    def __init__(self, name: str, cases: Union[Dict[str, str], Iterable[Any]],
                 type_display_name: Optional[str] = None):
        self.name = name
        self.type_display_name = type_display_name if type_display_name is not None else name
        if isinstance(cases, dict):
            pairs = list(cases.items())
        else:
            pairs = [tuple(c) if isinstance(c, (tuple, list)) else (c, c) for c in cases]
        self.cases: List[Tuple[str, str]] = [(str(v), str(t)) for v, t in pairs]

    def title(self, value: Any) -> str:
        """The title of a case value (the value itself when unknown)."""
        for v, t in self.cases:
            if v == value:
                return t
        return str(value)

    def metadata(self) -> Dict[str, Any]:
        """The `enums` entry of the HELLO metadata."""
        return {"name": self.name, "type_display_name": self.type_display_name,
                "cases": [{"value": v, "title": t} for v, t in self.cases]}

    def options(self) -> List[Dict[str, Any]]:
        """The cases as prompt options (`{"id", "title"}`)."""
        return [{"id": v, "title": t} for v, t in self.cases]

    def __repr__(self) -> str:
        return f"EnumType({self.name!r})"


class Entity:
    """An entity value: a stable `id`, a `title` (and `subtitle`) to show, plus any
    attributes of your own (`Entity("p1", "Website relaunch", due="2026-12-15")`)."""

    def __init__(self, id: Any, title: str, subtitle: Optional[str] = None, *, entity_type: Optional[str] = None,
                 **data: Any):
        self.id = str(id)
        self.title = title
        self.subtitle = subtitle
        #: The entity type's name, for the wire form of a returned entity (set when the
        #: runtime resolves a parameter; give it when perform() makes entities itself).
        self._entity_type = entity_type
        self.data = data

    def __getattr__(self, name: str) -> Any:
        data = self.__dict__.get("data", {})
        if name in data:
            return data[name]
        raise AttributeError(name)

    def display(self) -> Dict[str, Any]:
        """`{"id", "title", "subtitle"?}`: what a prompt option shows."""
        out: Dict[str, Any] = {"id": self.id, "title": self.title}
        if self.subtitle is not None:
            out["subtitle"] = self.subtitle
        return out

    def to_json(self, type_name: str) -> Dict[str, Any]:
        """The wire form of a returned or listed entity: `{"id", "title", "subtitle"?, "type"}`."""
        out = self.display()
        out["type"] = type_name
        return out

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Entity) and other.id == self.id and type(other) is type(self)

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"Entity({self.id!r}, {self.title!r})"


class EntityQuery:
    """How the plugin finds entities of one type. Override `entities_for` (required:
    stored ids must resolve) and any of `suggested`, `matching` and `all`; what you
    override is what the metadata's `query` declares."""

    def entities_for(self, ids: List[str]) -> List[Entity]:
        """The entities with these ids; unknown ids are skipped."""
        raise NotImplementedError

    def suggested(self) -> List[Entity]:
        """A few entities to offer."""
        return []

    def matching(self, text: str) -> List[Entity]:
        """Entities whose name matches `text` (declared only when overridden)."""
        raise NotImplementedError

    def all(self) -> List[Entity]:
        """Every entity, for small sets (declared only when overridden)."""
        raise NotImplementedError

    def supports(self, capability: str) -> bool:
        """Whether this query overrides `matching` or `all`."""
        mine = getattr(type(self), capability, None)
        return mine is not None and mine is not getattr(EntityQuery, capability)


class EntityType:
    """An entity type (metadata `entities[]`): its name, its display name for people,
    and its query."""

    def __init__(self, name: str, type_display_name: str, query: EntityQuery):
        self.name = name
        self.type_display_name = type_display_name
        self.query = query

    def metadata(self) -> Dict[str, Any]:
        """The `entities` entry of the HELLO metadata."""
        return {"name": self.name, "type_display_name": self.type_display_name,
                "query": {"ids": True, "suggested": True, "matching": self.query.supports("matching"),
                          "all": self.query.supports("all")}}

    def by_id(self, id: str) -> Optional[Entity]:
        """The entity with `id`, or None."""
        for e in self.query.entities_for([id]) or []:
            if e.id == id:
                return e
        return None

    def __repr__(self) -> str:
        return f"EntityType({self.name!r})"


# -- parameters --------------------------------------------------------------------------


_PY_TYPES = {int: "integer", float: "decimal", bool: "boolean", str: "string", _dt.date: "date",
             _dt.datetime: "date"}
_WIRE_TYPES = {"integer", "decimal", "boolean", "string", "date", "url"}
_DATE_TIME = _re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


def date_text(value: Any) -> Any:
    """The wire text of a date (docs/protocol.md §9.1), as the Swift SDK writes it: a
    `datetime.date` as `2026-12-01`, a `datetime.datetime` in UTC with seconds,
    `2026-12-01T08:30:00Z` (a naive one is taken as UTC). Anything else is returned as is."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        return value.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, _dt.date):
        return value.isoformat()
    return value


def parse_date(text: str) -> Any:
    """A date value the host has checked and normalised: `2026-12-01` → `datetime.date`,
    `2026-12-01T08:30:00Z` → aware UTC `datetime.datetime`."""
    if _DATE_TIME.fullmatch(text):
        return _dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=_dt.timezone.utc)
    return _dt.date.fromisoformat(text)


class Parameter:
    """A declared parameter of an `AppIntent` (metadata `parameters[]`); its wire name is
    the class attribute's name.

    - `type`: `int`, `float`, `bool`, `str`, `datetime.date`/`datetime.datetime` (or
      "integer", "decimal", "boolean", "string", "date", "url"), an `EnumType` or an
      `EntityType`;
    - `default`: applied when the request leaves the parameter out;
    - `range=(min, max)` (or `min=`, `max=`): inclusive, numeric types only (no ranges
      for date and url);
    - `optional=True`: may stay absent (then None); otherwise a missing value with no
      default is asked of the client (with `request_value_dialog`) before `perform`.

    Inside `perform`, `self.<name>` is the value. The declaration is sent as written: the
    host, not the SDK, decides whether it is valid (and `intentbus validate` says why not).
    """

    def __init__(self, title: str, type: Any = str, *, description: Optional[str] = None, default: Any = None,
                 range: Optional[Tuple[Any, Any]] = None, min: Any = None, max: Any = None,
                 optional: bool = False, request_value_dialog: Optional[str] = None, name: Optional[str] = None):
        self.title = title
        self.description = description
        self.default = default
        if range is not None:
            min, max = range
        self.min = min
        self.max = max
        self.optional = optional
        self.request_value_dialog = request_value_dialog
        self.name = name or ""
        self.enum: Optional[EnumType] = None
        self.entity: Optional[EntityType] = None
        #: A list parameter: declared as `[item_type]` (metadata "multiple": true).
        self.multiple = isinstance(type, list) and len(type) == 1
        if self.multiple:
            type = type[0]
        if isinstance(type, EnumType):
            self.type, self.enum = "enum", type
        elif isinstance(type, EntityType):
            self.type, self.entity = "entity", type
        elif type in _PY_TYPES:
            self.type = _PY_TYPES[type]
        elif isinstance(type, str):
            self.type = type  # as written: the host checks it
        else:
            raise TypeError(f"parameter {title!r}: type is int, float, bool, str, datetime.date, datetime.datetime, "
                            f"\"url\", an EnumType or an EntityType, "
                            f"not {type!r}")

    def __set_name__(self, owner: type, name: str) -> None:
        if not self.name:
            self.name = name

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        values = obj.__dict__.get("_values", {})
        if self.name in values:
            return values[self.name]
        return self.default

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__.setdefault("_values", {})[self.name] = value

    def metadata(self) -> Dict[str, Any]:
        """The `parameters` entry of the HELLO metadata."""
        out: Dict[str, Any] = {"name": self.name, "title": self.title, "type": self.type,
                               "optional": bool(self.optional)}
        if self.enum is not None:
            out["enum"] = self.enum.name
        if self.entity is not None:
            out["entity"] = self.entity.name
        if self.description is not None:
            out["description"] = self.description
        if self.default is not None:
            out["default"] = date_text(self.default) if self.type == "date" else self.default
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.request_value_dialog is not None:
            out["request_value_dialog"] = self.request_value_dialog
        if self.multiple:
            out["multiple"] = True
        return out

    def value_prompt(self, dialog: Optional[str] = None) -> Dict[str, Any]:
        """A `value` PROMPT body for this parameter."""
        prompt: Dict[str, Any] = {"kind": "value", "parameter": self.name,
                                  "dialog": dialog or self.request_value_dialog or f"What is the {self.title.lower()}?"}
        prompt.update(value_fields(self))  # the fields both handler styles share
        return prompt

    def wire(self, value: Any) -> Any:
        """A value of this parameter as JSON (an entity by its wire form)."""
        if isinstance(value, Entity):
            return value.to_json(self.entity.name if self.entity else type(value).__name__)
        return value

    def __repr__(self) -> str:
        return f"Parameter({self.name!r}, {self.type!r})"


class NeedsValue(Exception):
    """Raised from `perform` (usually as `raise ctx.needs_value("minutes")`) when a
    parameter's value won't do: the runtime asks the user for a new value (a `value`
    PROMPT with `"reason": "needs_value"`) and runs `perform` again from the start."""

    def __init__(self, parameter: Union[str, Parameter], dialog: Optional[str] = None):
        self.parameter = parameter.name if isinstance(parameter, Parameter) else parameter
        self.dialog = dialog
        super().__init__(f"parameter {self.parameter} needs a value")


class IntentResult:
    """What `perform` returns: a `dialog` for people, a returned `value` (an entity, an
    enum case, a number …) and a structured `snippet`; each optional. Returning a plain
    string means a dialog; None means an empty result."""

    __slots__ = ("dialog", "value", "snippet", "donation", "delete_donations", "opens_intent", "view")

    def __init__(self, dialog: Optional[str] = None, value: Any = None, snippet: Any = None, *,
                 donation: Any = None, delete_donations: Optional[Dict[str, Any]] = None,
                 opens_intent: Any = None, view: Any = None):
        self.dialog = dialog
        self.value = value
        self.snippet = snippet
        #: An `IntentDonation` (shortcuts.py), sent in the REPLY header.
        self.donation = donation
        #: `shortcuts.deletion(...)`: this plugin's donations to delete.
        self.delete_donations = delete_donations
        #: `results.OpensIntent`: the intent the host runs next; `results.SnippetView`.
        self.opens_intent = opens_intent
        self.view = view

    def to_json(self) -> Dict[str, Any]:
        """The REPLY body: `{"dialog", "value", "snippet"}`, absent parts left out."""
        out: Dict[str, Any] = {}
        if self.dialog is not None:
            out["dialog"] = self.dialog
        if self.value is not None:
            out["value"] = _value_json(self.value)
        if self.snippet is not None:
            out["snippet"] = self.snippet
        if self.opens_intent is not None:
            out["opens_intent"] = self.opens_intent.to_json()
        if self.view is not None:
            out["view"] = self.view.to_json()
        return out


def _value_json(value: Any) -> Any:
    if isinstance(value, Entity):
        return value.to_json(value._entity_type or type(value).__name__)
    if isinstance(value, (list, tuple)):
        return [_value_json(v) for v in value]
    return date_text(value)


# -- intents -----------------------------------------------------------------------------


class AppIntent:
    """The base of new-style intents. Class attributes:

    - `identifier` (default: the class name): the intent name on the bus;
    - `title` (required by the host), `description`, `category`;
    - `authentication`: `ALWAYS_ALLOWED` (default) or `REQUIRES_AUTHENTICATION` (the
      host then demands the client credential);
    - `migrated_from`: a legacy intent name this intent takes over (docs/migration.md);
    - the `Parameter`s.

    `perform(self, ctx)` does the work; parameters are attributes (`self.minutes`).
    """

    identifier: str = ""
    title: str = ""
    description: Optional[str] = None
    category: Optional[str] = None
    authentication: str = ALWAYS_ALLOWED
    migrated_from: Optional[str] = None
    #: An assistant schema it implements (results.SYSTEM_SEARCH, …; docs/schemas.md).
    schema: Optional[str] = None

    def perform(self, ctx: "PerformContext") -> Any:
        """Does the work; returns an `IntentResult` (or a dialog string, or None)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement perform()")

    @classmethod
    def intent_identifier(cls) -> str:
        """The identifier: `identifier`, else the class name."""
        return cls.identifier or cls.__name__

    @classmethod
    def parameters(cls) -> List[Parameter]:
        """The declared parameters, in declaration order (base classes first)."""
        seen: Dict[str, Parameter] = {}
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                if isinstance(value, Parameter):
                    seen[value.name] = value
        return list(seen.values())

    @classmethod
    def parameter(cls, name: str) -> Optional[Parameter]:
        """The parameter named `name`, or None."""
        for p in cls.parameters():
            if p.name == name:
                return p
        return None

    @classmethod
    def metadata(cls) -> Dict[str, Any]:
        """The `intents` entry of the HELLO metadata."""
        out: Dict[str, Any] = {"identifier": cls.intent_identifier(), "title": cls.title,
                               "authentication": cls.authentication,
                               "parameters": [p.metadata() for p in cls.parameters()]}
        if cls.description is not None:
            out["description"] = cls.description
        if cls.category is not None:
            out["category"] = cls.category
        if cls.migrated_from:
            out["migrated_from"] = cls.migrated_from
        if cls.schema:
            out["schema"] = cls.schema
        return out


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
    raise BusError(ErrorCode.INVALID_PARAMETERS, f"parameter {p.name}: no {entity.type_display_name} matches "
                                                 f"\"{given}\"", {"parameter": p.name, "entity": entity.name})


def _tag(e: Entity, entity: EntityType) -> Entity:
    # Remembers the entity type, so a returned entity names it on the wire.
    e._entity_type = entity.name
    return e


# -- handlers ----------------------------------------------------------------------------


class NewStyleHandler(Handler):
    """Serves one `AppIntent` class (style `new`): binds the parameters, runs `perform`,
    and restarts it after a needs-value error."""

    style = HandlerStyle.NEW

    def __init__(self, intent_class: Type[AppIntent]):
        self.intent_class = intent_class

    def serve(self, request: Request, ctx: Context) -> Result:
        cls = self.intent_class
        values: Dict[str, Any] = dict(request.params) if isinstance(request.params, dict) else {}
        pctx = PerformContext(cls, request, ctx)
        restarts = 0
        while True:
            intent = cls()
            try:
                for p in cls.parameters():
                    raw = values.get(p.name)
                    if raw is None and p.default is None and not p.optional:
                        # The host asks before it calls the plugin; a plugin called without it asks here.
                        raw = ctx.prompt(p.value_prompt())
                        values[p.name] = raw
                    if raw is not None:
                        setattr(intent, p.name, _bind(p, raw, pctx))
                out = settle(intent.perform(pctx), ctx)
            except NeedsValue as needs:
                restarts += 1
                asked = cls.parameter(needs.parameter)
                if asked is None:
                    raise BusError(ErrorCode.PLUGIN_ERROR, f"{cls.intent_identifier()} raised needs-value for "
                                                           f"{needs.parameter!r}, which it does not declare") from None
                p = asked
                if restarts > MAX_RESTARTS:
                    raise BusError(ErrorCode.INVALID_PARAMETERS,
                                   f"parameter {p.name} still has no usable value after {MAX_RESTARTS} answers",
                                   {"parameter": p.name}) from None
                prompt = p.value_prompt(needs.dialog)
                prompt["reason"] = "needs_value"
                # Ask, then run perform() again from the start with the answer.
                values[p.name] = ctx.prompt(prompt)
                continue
            if isinstance(out, Result):
                return out
            if out is None:
                return Result.success({})
            if isinstance(out, str):
                return Result.success({"dialog": out})
            if isinstance(out, IntentResult):
                from .shortcuts import reply_header
                return Result("success", out.to_json(), reply_header(out.donation, out.delete_donations))
            return Result.success(IntentResult(value=out).to_json())


class EntityQueryHandler(Handler):
    """Answers `ib.entities` requests (docs/protocol.md §9.4) from the registered entity
    types' queries (style `plain`)."""

    style = HandlerStyle.PLAIN

    def __init__(self, entities: Dict[str, EntityType]):
        self.entities = entities

    def serve(self, request: Request, ctx: Context) -> Result:
        body = request.params if isinstance(request.params, dict) else {}
        name = body.get("entity")
        entity = self.entities.get(name) if isinstance(name, str) else None
        if entity is None:
            raise BusError(ErrorCode.INVALID_PARAMETERS, f"this plugin has no entity type {name!r} "
                                                         f"(it has: {', '.join(sorted(self.entities))})")
        query = body.get("query", "suggested")
        q = entity.query
        if query == "ids":
            ids = body.get("ids")
            if not isinstance(ids, list):
                raise BusError(ErrorCode.INVALID_PARAMETERS, "an ids query needs \"ids\": an array of entity ids")
            wanted = [str(i) for i in ids]
            found = {e.id: e for e in (q.entities_for(wanted) or [])}
            results = [found[i] for i in wanted if i in found]
        elif query == "suggested":
            results = list(q.suggested() or [])
        elif query == "matching":
            if not q.supports("matching"):
                raise BusError(ErrorCode.INVALID_PARAMETERS, f"{entity.name} has no string query; look it up by id "
                                                             f"or ask for suggestions")
            results = list(q.matching(str(body.get("text", ""))) or [])
        elif query == "all":
            if not q.supports("all"):
                raise BusError(ErrorCode.INVALID_PARAMETERS, f"{entity.name} can't list all its entities; ask for "
                                                             f"suggestions")
            results = list(q.all() or [])
        else:
            raise BusError(ErrorCode.INVALID_PARAMETERS, f"query is ids, suggested, matching or all; got {query!r}")
        return Result.success({"entity": entity.name, "query": query,
                               "results": [e.to_json(entity.name) for e in results]})


class NewStyleRegistry:
    """A plugin's new-style declarations: the intents in registration order, and the
    entity and enum types they use. `metadata()` is HELLO `metadata.new_style`."""

    def __init__(self) -> None:
        self.intents: List[Type[AppIntent]] = []
        self.entities: Dict[str, EntityType] = {}
        self.enums: Dict[str, EnumType] = {}
        self.shortcuts: List[Any] = []

    def add_intent(self, cls: Type[AppIntent]) -> None:
        """Declares an intent and the entity and enum types its parameters use."""
        self.intents.append(cls)
        for p in cls.parameters():
            if p.entity is not None:
                self.entities[p.entity.name] = p.entity
            if p.enum is not None:
                self.enums[p.enum.name] = p.enum

    def add_entity(self, entity: EntityType) -> None:
        """Declares an entity type that no parameter uses (queryable through ib.entities)."""
        self.entities[entity.name] = entity

    def metadata(self) -> Dict[str, Any]:
        """HELLO `metadata.new_style` (docs/protocol.md §9.1)."""
        out = {"version": 1, "intents": [c.metadata() for c in self.intents],
               "entities": [self.entities[n].metadata() for n in sorted(self.entities)],
               "enums": [self.enums[n].metadata() for n in sorted(self.enums)]}
        if self.shortcuts:
            out["shortcuts"] = [s.metadata() for s in self.shortcuts]
        return out


def install(plugin: Any, item: Any) -> None:
    """Registers an `AppIntent` class or an `EntityType` with `plugin` (what
    `Plugin.register` does)."""
    from .shortcuts import AppShortcut
    registry: NewStyleRegistry = plugin._new_style_registry()
    if isinstance(item, AppShortcut):
        registry.shortcuts.append(item)
        return
    if isinstance(item, EntityType):
        registry.add_entity(item)
    elif isinstance(item, type) and issubclass(item, AppIntent):
        registry.add_intent(item)
        handler = NewStyleHandler(item)
        plugin.add(item.intent_identifier(), handler)
        if item.migrated_from:
            # Requests for the legacy name reach the new handler (style new in HELLO).
            plugin.add(item.migrated_from, handler)
        if item.schema:
            plugin.add(item.schema, handler)  # clients call the schema by name
    else:
        raise TypeError(f"register() takes an AppIntent subclass, an EntityType or an AppShortcut, not {item!r}")
    if registry.entities and ENTITY_QUERY_INTENT not in plugin.handlers:
        plugin._add_host_intent(ENTITY_QUERY_INTENT, EntityQueryHandler(registry.entities))
