"""The new-style intent class (intentbus.plugin.appintents): `AppIntent`, its authentication
policies, and the `IntentResult` that `perform` returns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional

from .entities import Entity
from .params import Parameter, date_text

if TYPE_CHECKING:
    from .perform import PerformContext

__all__ = ["AppIntent", "IntentResult", "ALWAYS_ALLOWED", "REQUIRES_AUTHENTICATION"]

#: Authentication policies (metadata `authentication`).
ALWAYS_ALLOWED = "always_allowed"
REQUIRES_AUTHENTICATION = "requires_authentication"


class IntentResult:
    """What `perform` returns: a `dialog` for people, a returned `value` (an entity, an
    enum case, a number …) and a structured `snippet`; each optional. Returning a plain
    string means a dialog; None means an empty result."""

    __slots__ = ("dialog", "value", "snippet", "donation", "delete_donations", "opens_intent", "view",
                 "entities_changed")

    def __init__(self, dialog: Optional[str] = None, value: Any = None, snippet: Any = None, *,
                 donation: Any = None, delete_donations: Optional[Dict[str, Any]] = None,
                 opens_intent: Any = None, view: Any = None, entities_changed: Any = None):
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
        #: The entity types whose entities this intent changed (`True`: all of the
        #: plugin's), so that the host asks for them again and phrases take the new ones
        #: (App Intents' `updateAppShortcutParameters()`); sent in the REPLY header.
        self.entities_changed = entities_changed

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
