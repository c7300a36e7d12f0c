"""App shortcuts and donations for new-style plugins (docs/shortcuts.md).

    from intentbus import APPLICATION_NAME, AppShortcut, slot

    plugin.register(AppShortcut(
        OpenProject,
        [f"Öffne {slot('project')} in {APPLICATION_NAME}", "Open ${project} in ${applicationName}"],
        short_title="Projekt öffnen", system_image_name="folder"))

Every phrase must contain the application name or a parameter slot; a slot names an
entity or enum parameter of the intent. The host checks the rules at HELLO, and
`intentbus validate` before (at most 10 shortcuts per plugin).

A result may donate what the user just did, so that the host can suggest it again:

    return IntentResult("3 items", donation=IntentDonation(identifier="show-cart-ada", group="cart-ada",
                                                            title="Show my cart", suggested_phrase="Show My Cart"))
"""

from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

#: The placeholder for the plugin's name (its manifest `name`, or a synonym).
APPLICATION_NAME = "${applicationName}"

#: At most this many app shortcuts per plugin.
MAXIMUM_SHORTCUTS = 10


def slot(parameter: Union[str, Any]) -> str:
    """The placeholder for a parameter slot: `slot("project")` is `${project}`. Takes a
    parameter name or a `Parameter`."""
    name = parameter if isinstance(parameter, str) else getattr(parameter, "name", None)
    if not name:
        raise ValueError(f"slot() takes a parameter name or a declared Parameter, not {parameter!r}")
    return "${" + name + "}"


class AppShortcut:
    """Binds an intent to phrases people can say (App Intents' `AppShortcut`); HELLO
    `metadata.new_style.shortcuts[]`."""

    __slots__ = ("intent", "phrases", "short_title", "system_image_name", "requires_context", "excludes_context",
                 "lists")

    def __init__(self, intent: Any, phrases: Sequence[str], short_title: str, system_image_name: Optional[str] = None,
                 *, requires_context: Optional[Dict[str, Any]] = None,
                 excludes_context: Optional[Dict[str, Any]] = None, lists: Optional[Dict[str, Any]] = None):
        """`requires_context` / `excludes_context`: the phrases match only in requests whose
        context has these values / none of them (docs/shortcuts.md, "Phrases for one place").
        `lists`: by parameter name, what its slot takes (`{"range": {"from": 5, "to": 180}}`,
        `{"values": ["loud", {"in": "(quiet|calm)", "out": "quiet"}]}`), for any parameter type."""
        identifier = intent if isinstance(intent, str) else getattr(intent, "intent_identifier", lambda: None)()
        if not identifier:
            raise TypeError(f"AppShortcut takes an AppIntent subclass or an intent identifier, not {intent!r}")
        self.intent: str = identifier
        self.phrases: List[str] = [str(p) for p in phrases]
        self.short_title = short_title
        self.system_image_name = system_image_name
        self.requires_context = dict(requires_context or {})
        self.excludes_context = dict(excludes_context or {})
        self.lists = dict(lists or {})

    def metadata(self) -> Dict[str, Any]:
        """The `shortcuts` entry of the HELLO metadata."""
        out: Dict[str, Any] = {"intent": self.intent, "phrases": list(self.phrases), "short_title": self.short_title}
        if self.system_image_name:
            out["system_image_name"] = self.system_image_name
        if self.requires_context:
            out["requires_context"] = dict(self.requires_context)
        if self.excludes_context:
            out["excludes_context"] = dict(self.excludes_context)
        if self.lists:
            out["lists"] = dict(self.lists)
        return out

    def __repr__(self) -> str:
        return f"AppShortcut({self.intent!r}, {self.phrases!r})"


class IntentDonation:
    """What a result donates (REPLY header `donation`): a persistent `identifier` and a
    `group` to delete it by later, a `title`, the `suggested_phrase` "Add to Siri" offers,
    whether it is `eligible_for_prediction`, and the `parameters` to suggest it with (the
    request's own when None)."""

    __slots__ = ("identifier", "group", "title", "suggested_phrase", "eligible_for_prediction", "parameters")

    def __init__(self, identifier: Optional[str] = None, group: Optional[str] = None, title: Optional[str] = None,
                 suggested_phrase: Optional[str] = None, eligible_for_prediction: bool = True,
                 parameters: Optional[Dict[str, Any]] = None):
        self.identifier = identifier
        self.group = group
        self.title = title
        self.suggested_phrase = suggested_phrase
        self.eligible_for_prediction = eligible_for_prediction
        self.parameters = parameters

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"eligible_for_prediction": bool(self.eligible_for_prediction)}
        for key in ("identifier", "group", "title", "suggested_phrase", "parameters"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def deletion(identifiers: Optional[Iterable[str]] = None, group: Optional[str] = None,
             all: bool = False) -> Dict[str, Any]:
    """The REPLY header's `delete_donations`: exactly one of `identifiers`, `group`,
    `all`. The host deletes only the plugin's own donations."""
    chosen = [x for x in (identifiers is not None, group is not None, all) if x]
    if len(chosen) != 1:
        raise ValueError("delete donations by exactly one of identifiers=, group= or all=True")
    if identifiers is not None:
        return {"identifiers": list(identifiers)}
    if group is not None:
        return {"group": group}
    return {"all": True}


def reply_header(donation: Optional[IntentDonation], delete_donations: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """The REPLY header fields for a result's donation and deletion."""
    header: Dict[str, Any] = {}
    if donation is not None:
        header["donation"] = donation.to_json()
    if delete_donations is not None:
        header["delete_donations"] = delete_donations
    return header
