"""List parameters and the shared prompt vocabulary for the Python SDK.

- Legacy: a `resolve_<name>` method of a `multiple` parameter may return a list of
  `Resolution`s, one per item in the items' order (SiriKit's `resolveRecipients`); the
  host asks about each item that needs it, in order (docs/protocol.md §8.3).
- New style: `Parameter("Projects", [projects])` or `Parameter("Tags", [str])` declares a
  list (metadata `"multiple": true`); each item is bound in order, and an ambiguous entity
  item is asked about with the item's position (`item`, `items`).
- `value_fields` gives a value question the fields both handler styles share
  (docs/protocol.md §4.4 "Parameter fields").
"""

from __future__ import annotations

import contextvars
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["resolution_json", "value_fields", "bind_items", "current_item", "TYPE_NAMES"]

#: Metadata type → the type name value questions use in both styles.
TYPE_NAMES = {"integer": "Integer", "decimal": "Decimal", "boolean": "Boolean", "string": "String",
              "date": "Date", "url": "URL"}
_TITLES = {"integer": "whole number", "decimal": "number", "boolean": "yes or no", "string": "text",
           "date": "date", "url": "web address"}

_ITEM: contextvars.ContextVar[Optional[Tuple[int, int]]] = contextvars.ContextVar("intentbus_item", default=None)


def resolution_json(out: Any, where: str, single: Callable[[Any], Dict[str, Any]]) -> Any:
    """The wire form of what a resolve method returned: one result, or a list of them
    (one per item of a list parameter)."""
    if isinstance(out, (list, tuple)):
        if not out:
            raise TypeError(f"resolving {where} returned an empty list; return [Resolution.needs_value()] "
                            f"for a list without items")
        return [single(r) for r in out]
    return single(out)


def value_fields(p: Any) -> Dict[str, Any]:
    """`type`, `type_title`, `enum`/`entity`, `options`, `multiple` and the range of a
    new-style parameter's value question."""
    out: Dict[str, Any] = {}
    if p.enum is not None:
        out.update(type=p.enum.name, enum=p.enum.name, type_title=p.enum.type_display_name, options=p.enum.options())
    elif p.entity is not None:
        out.update(type=p.entity.name, entity=p.entity.name, type_title=p.entity.type_display_name)
    else:
        out.update(type=TYPE_NAMES.get(p.type, p.type), type_title=_TITLES.get(p.type, p.type))
    if getattr(p, "multiple", False):
        out["multiple"] = True
    if p.min is not None:
        out["minimum"] = p.min
    if p.max is not None:
        out["maximum"] = p.max
    if p.min is not None or p.max is not None:
        lo, hi = p.min, p.max
        out["range"] = f"{lo}…{hi}" if lo is not None and hi is not None else (f"≥ {lo}" if hi is None else f"≤ {hi}")
    return out


def bind_items(p: Any, value: Any, bind_one: Callable[[Any, Any], Any]) -> List[Any]:
    """Binds a list parameter's items in order; a single value is a list of one."""
    items = value if isinstance(value, list) else [value]
    out = []
    for index, item in enumerate(items):
        token = _ITEM.set((index, len(items)))
        try:
            out.append(bind_one(p, item))
        finally:
            _ITEM.reset(token)
    return out


def current_item() -> Dict[str, Any]:
    """`{"item": index, "items": count}` while a list item is bound, else `{}`."""
    item = _ITEM.get()
    return {} if item is None else {"item": item[0], "items": item[1]}
