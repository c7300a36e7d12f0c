"""Declared parameters of new-style intents (intentbus.plugin.appintents): `Parameter`, the
date wire forms, and `NeedsValue`."""

from __future__ import annotations

import datetime as _dt
import re as _re
from typing import Any, Dict, List, Optional, Tuple, Union

from .entities import Entity, EntityType, EnumType
from ...lists import value_fields

__all__ = ["Parameter", "NeedsValue", "date_text", "parse_date"]


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

    def __init__(self, parameter: Union[str, Parameter], dialog: Optional[str] = None,
                 options: Optional[List[Dict[str, Any]]] = None, reason: str = "needs_value"):
        self.parameter = parameter.name if isinstance(parameter, Parameter) else parameter
        self.dialog = dialog
        # What the question offers (an entity's suggestions when a text matched none) and
        # why it is asked: `needs_value`, or `no_match` for such a text.
        self.options = options
        self.reason = reason
        super().__init__(f"parameter {self.parameter} needs a value")
