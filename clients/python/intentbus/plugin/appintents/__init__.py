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

from typing import Any, Dict, List, Type

from .._awaitable import settle
from .entities import Entity, EntityQuery, EntityType, EnumType
from .intent import ALWAYS_ALLOWED, REQUIRES_AUTHENTICATION, AppIntent, IntentResult
from .intent import _value_json as _value_json
from .params import _DATE_TIME as _DATE_TIME
from .params import _PY_TYPES as _PY_TYPES
from .params import _WIRE_TYPES as _WIRE_TYPES
from .params import NeedsValue, Parameter
from .params import date_text as date_text
from .params import parse_date as parse_date
from .perform import _UNSET as _UNSET
from .perform import PerformContext
from .perform import _bind as _bind
from .perform import _disambiguate as _disambiguate
from .perform import _option as _option
from .perform import _tag as _tag
from ...errors import BusError, ErrorCode
from ...shortcuts import AppShortcut, reply_header
from ..context import Context
from ..handlers import Handler
from ..types import HandlerStyle, Request, Result

__all__ = ["AppIntent", "Parameter", "EnumType", "EntityType", "Entity", "EntityQuery", "IntentResult",
           "NeedsValue", "PerformContext", "NewStyleHandler", "EntityQueryHandler", "NewStyleRegistry",
           "ENTITY_QUERY_INTENT", "ALWAYS_ALLOWED", "REQUIRES_AUTHENTICATION"]

#: The host intent that forwards entity queries to the plugin declaring the entity.
ENTITY_QUERY_INTENT = "ib.entities"

#: How often one request may restart `perform()` after needs-value errors (as the Swift SDK).
MAX_RESTARTS = 10


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
                prompt["reason"] = needs.reason
                if needs.options:
                    prompt["options"] = needs.options
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
                header = reply_header(out.donation, out.delete_donations)
                if out.entities_changed is not None:
                    header["entities_changed"] = (True if out.entities_changed is True else
                                                  [e.name if isinstance(e, EntityType) else str(e)
                                                   for e in out.entities_changed])
                return Result("success", out.to_json(), header)
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
