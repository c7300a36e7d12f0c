"""Enum and entity types of new-style intents (intentbus.plugin.appintents): `EnumType`, and
`Entity` values found through an `EntityType`'s `EntityQuery`."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

__all__ = ["EnumType", "Entity", "EntityQuery", "EntityType"]


class EnumType:
    """An enum type (metadata `enums[]`): a name, a display name, and cases with titles.

    `cases` is a mapping value → title, a list of `(value, title)` pairs, or a list of
    values (each its own title). Parameter values are the case values (strings).
    `synonyms` maps a case value to other names people say for it (App Intents'
    `DisplayRepresentation(title:synonyms:)`): phrases match them like the title.
    """

    def __init__(self, name: str, cases: Union[Dict[str, str], Iterable[Any]],
                 type_display_name: Optional[str] = None, synonyms: Optional[Dict[str, List[str]]] = None):
        self.name = name
        self.type_display_name = type_display_name if type_display_name is not None else name
        if isinstance(cases, dict):
            pairs = list(cases.items())
        else:
            pairs = [tuple(c) if isinstance(c, (tuple, list)) else (c, c) for c in cases]
        self.cases: List[Tuple[str, str]] = [(str(v), str(t)) for v, t in pairs]
        self.synonyms: Dict[str, List[str]] = {str(k): [str(s) for s in v] for k, v in (synonyms or {}).items()}
        unknown = set(self.synonyms) - {v for v, _ in self.cases}
        if unknown:
            raise ValueError(f"enum {name}: synonyms for cases it does not have: {', '.join(sorted(unknown))}")

    def title(self, value: Any) -> str:
        """The title of a case value (the value itself when unknown)."""
        for v, t in self.cases:
            if v == value:
                return t
        return str(value)

    def metadata(self) -> Dict[str, Any]:
        """The `enums` entry of the HELLO metadata."""
        cases = []
        for v, t in self.cases:
            case: Dict[str, Any] = {"value": v, "title": t}
            if self.synonyms.get(v):
                case["synonyms"] = self.synonyms[v]
            cases.append(case)
        return {"name": self.name, "type_display_name": self.type_display_name, "cases": cases}

    def options(self) -> List[Dict[str, Any]]:
        """The cases as prompt options (`{"id", "title"}`)."""
        return [{"id": v, "title": t} for v, t in self.cases]

    def __repr__(self) -> str:
        return f"EnumType({self.name!r})"


class Entity:
    """An entity value: a stable `id`, a `title` (and `subtitle`) to show, other names
    people say for it (`synonyms`, matched in phrases when the query lists all entities),
    plus any attributes of your own (`Entity("p1", "Website relaunch", due="2026-12-15")`)."""

    def __init__(self, id: Any, title: str, subtitle: Optional[str] = None, *, entity_type: Optional[str] = None,
                 synonyms: Optional[List[str]] = None, **data: Any):
        self.id = str(id)
        self.title = title
        self.subtitle = subtitle
        self.synonyms = [str(s) for s in synonyms or []]
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
        """The wire form of a returned or listed entity: `{"id", "title", "subtitle"?, "synonyms"?, "type"}`."""
        out = self.display()
        if self.synonyms:
            out["synonyms"] = self.synonyms
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
