"""How the Wyoming service answers (wyoming_service.py, docs/wyoming.md): its settings,
the request context it gives the host, and its `info`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from wyoming.info import Attribution, HandleModel, HandleProgram, Info, IntentModel, IntentProgram

from intentbus._version import __version__
from intentbus.wyoming_events import EventLimits
from intentbus.wyoming_turns import OpenQuestions

_ATTRIBUTION = Attribution(name="IntentBus", url="https://github.com/intentbus/intentbus")


@dataclass
class WyomingSettings:
    """How the service answers. `languages` go into `info`; `transcript` is `handle` or
    `recognize`; `timeout` (seconds) bounds each request to the host."""

    languages: List[str] = field(default_factory=lambda: ["en"])
    transcript: str = "handle"
    timeout: float = 10.0
    limits: EventLimits = field(default_factory=EventLimits)
    #: Context every request gets (`--context area=Kitchen`: a service per satellite or
    #: room); the event's own context is added to it.
    context: Dict[str, Any] = field(default_factory=dict)
    #: At most this many connections at once; one more gets `error busy` and is closed,
    #: so memory stays bounded (each holds at most one event's bytes, 64 KiB).
    max_connections: int = 64
    #: A connection that sends no complete event for this long is closed: an idle or
    #: trickling client does not hold one of the connections forever.
    idle_timeout: float = 300.0
    #: Connections open now (the handlers count themselves; one event loop, no lock).
    open_connections: int = 0
    #: `ask`: a plugin's question is asked back and the next transcript answers it;
    #: `end`: the request ends and the question is the not-handled text.
    questions: str = "ask"
    #: Seconds an asked question waits for its answer.
    question_timeout: float = 60.0
    #: The open questions of every connection (at most `max_connections`).
    open_questions: OpenQuestions = field(default_factory=OpenQuestions)

    def request_context(self, event_context: Optional[Dict[str, Any]]) -> Dict[str, Any]:
        """The IntentBus request context (docs/protocol.md §4.1) for an event's context:
        the fixed one, then those of the event's entries the host takes (a string of at
        most 255 bytes, a number, a boolean; at most 16 entries). Home Assistant's own
        context (`conversation_id`) fits; what does not is left out rather than making
        the host refuse the request."""
        out = dict(self.context)
        for key, value in sorted((event_context or {}).items()):
            if len(out) >= 16 and key not in out:
                break
            if not isinstance(key, str) or not 1 <= len(key.encode()) <= 64:
                continue
            if isinstance(value, str) and len(value.encode()) <= 255 or isinstance(value, (bool, int, float)):
                out[key] = value
        return out

    def info(self) -> Info:
        """The `info` event's content: one intent program and one handle program."""
        describe = "IntentBus: the intents and phrases of the host's plugins"
        return Info(
            intent=[IntentProgram(name="intentbus", attribution=_ATTRIBUTION, installed=True, description=describe,
                                  version=__version__,
                                  models=[IntentModel(name="intentbus", attribution=_ATTRIBUTION, installed=True,
                                                      description="sentence templates", version=__version__,
                                                      languages=list(self.languages))])],
            handle=[HandleProgram(name="intentbus", attribution=_ATTRIBUTION, installed=True, description=describe,
                                  version=__version__,
                                  models=[HandleModel(name="intentbus", attribution=_ATTRIBUTION, installed=True,
                                                      description="runs the matched intent in its plugin",
                                                      version=__version__, languages=list(self.languages))])])
