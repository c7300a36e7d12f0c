"""Results that lead on (docs/results.md): an intent a result opens next, interactive
snippet views whose rows offer follow-up intents, assistant schemas, and the client's
view of them (`IntermediateResult`, `SnippetAction`).

    class FindProjectIntent(AppIntent):
        title = "Find project"
        name = Parameter(str, title="Name")

        def perform(self, ctx):
            return IntentResult(dialog=f"Found {self.name}.",
                                opens_intent=OpensIntent("OpenProjectIntent", project=self.name))

    class SearchProjectsIntent(AppIntent):
        title = "Search projects"
        schema = SYSTEM_SEARCH                       # @AssistantIntent(schema: .system.search)
        criteria = Parameter(str, title="Criteria")

        def perform(self, ctx):
            rows = [Row(p.name, actions=[Action("Open", OpensIntent("OpenProjectIntent", project=p.id))])
                    for p in search(self.criteria)]
            return IntentResult(view=SnippetView(rows, title="Projects"))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

__all__ = ["OpensIntent", "SnippetView", "Row", "Action", "IntermediateResult", "SnippetAction",
           "snippet_actions", "SYSTEM_SEARCH", "MESSAGES_SEND_MESSAGE", "REQUIRES_LOCAL_DEVICE_AUTHENTICATION"]

#: Assistant schemas the host knows (docs/schemas.md): `criteria` (str) …
SYSTEM_SEARCH = "system.search"
#: … and `recipients`, `content`, optional `speakableGroupName`, `serviceName` (INSendMessageIntent).
MESSAGES_SEND_MESSAGE = "messages.sendMessage"
#: The third authentication policy: like REQUIRES_AUTHENTICATION, and only from this
#: machine (ipc frontend) — docs/security.md "Authentication policies".
REQUIRES_LOCAL_DEVICE_AUTHENTICATION = "requires_local_device_authentication"


class OpensIntent:
    """An intent a result opens: the host runs it next in the same conversation.
    `OpensIntent("OpenProjectIntent", project="p1")` or with a `parameters` dict."""

    __slots__ = ("intent", "parameters")

    def __init__(self, intent: Any, parameters: Optional[Dict[str, Any]] = None, **more: Any):
        name = intent.intent_identifier() if hasattr(intent, "intent_identifier") else intent
        if not isinstance(name, str) or not name:
            raise ValueError("OpensIntent needs an intent name or an AppIntent class")
        self.intent = name
        self.parameters: Dict[str, Any] = dict(parameters or {})
        self.parameters.update(more)

    def to_json(self) -> Dict[str, Any]:
        """`{"intent", "parameters"}`."""
        return {"intent": self.intent, "parameters": dict(self.parameters)}


class Action:
    """A button in a snippet row: runs `opens` when chosen (a new request)."""

    __slots__ = ("title", "opens")

    def __init__(self, title: str, opens: OpensIntent):
        self.title = title
        self.opens = opens

    def to_json(self) -> Dict[str, Any]:
        return {"title": self.title, "intent": self.opens.intent, "parameters": dict(self.opens.parameters)}


class Row:
    """One row of a snippet view: a title, a subtitle, and its actions."""

    __slots__ = ("title", "subtitle", "actions")

    def __init__(self, title: str, subtitle: Optional[str] = None, actions: Optional[List[Action]] = None):
        self.title = title
        self.subtitle = subtitle
        self.actions = list(actions or [])

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"title": self.title}
        if self.subtitle is not None:
            out["subtitle"] = self.subtitle
        if self.actions:
            out["actions"] = [a.to_json() for a in self.actions]
        return out


class SnippetView:
    """An interactive snippet (seed 003's iOS 26 snippets): rows offering follow-up
    intents. The host checks it: at most 20 rows, 4 actions a row, 200 characters a text."""

    __slots__ = ("rows", "title")

    def __init__(self, rows: List[Row], title: Optional[str] = None):
        self.rows = list(rows)
        self.title = title

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"rows": [r.to_json() for r in self.rows]}
        if self.title is not None:
            out["title"] = self.title
        return out


# -- the client's side ---------------------------------------------------------------------


@dataclass(frozen=True)
class SnippetAction:
    """An action a result's view offers: run it with `client.send(a.intent, a.parameters)`
    (or `Client.run_action`)."""

    title: str
    row: str
    intent: str
    parameters: Dict[str, Any] = field(default_factory=dict)


def snippet_actions(body: Any) -> List[SnippetAction]:
    """The actions of a result body's `view`, in order (as `intentbus send` numbers them)."""
    view = body.get("view") if isinstance(body, dict) else None
    rows = view.get("rows") if isinstance(view, dict) else None
    out: List[SnippetAction] = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict):
            continue
        for a in row.get("actions") or []:
            if isinstance(a, dict) and isinstance(a.get("intent"), str):
                params = a.get("parameters")
                out.append(SnippetAction(title=str(a.get("title", a["intent"])), row=str(row.get("title", "")),
                                         intent=a["intent"],
                                         parameters=dict(params) if isinstance(params, dict) else {}))
    return out


@dataclass(frozen=True)
class IntermediateResult:
    """A RESULT (docs/results.md): the answer of an intent that opened the next one. Not
    final: the opened intent's REPLY (or ERROR) follows under the same request id."""

    status: str
    plugin: Optional[str]
    header: Dict[str, Any]
    body: Any
    request_id: str = ""
    intent: str = ""

    @property
    def opens(self) -> Optional[str]:
        """The intent it opened."""
        value = self.header.get("opens")
        return value if isinstance(value, str) else None

    @property
    def actions(self) -> List[SnippetAction]:
        """Its view's actions."""
        return snippet_actions(self.body)
