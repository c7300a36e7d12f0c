"""One request driven step by step (intentbus.client): the `Conversation` that
`Client.start` returns."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Iterator, List, Optional

from .client_events import Answer, Event, Prompt, Reply, refusal, to_event
from .errors import BusError
from .results import IntermediateResult
from .wire import Kind, Message

if TYPE_CHECKING:
    from .client import Client

__all__ = ["Conversation"]


class Conversation:
    """One request, driven step by step. Made by `Client.start`.

    `next()` returns the next `Progress` or `Prompt`, and finally the `Reply`; an ERROR
    raises the matching `BusError` subclass. After a `Prompt`, call `answer(value)`.
    Iterating yields the same events and stops after the `Reply`.
    """

    def __init__(self, client: "Client", request_id: str, intent: str, wait: float):
        self.client = client
        self.request_id = request_id
        self.intent = intent
        self.wait = wait
        self.reply: Optional[Reply] = None
        self.error: Optional[BusError] = None
        self.pending_prompt: Optional[Prompt] = None
        #: Messages of this conversation the host refused (REFUSED, never final), e.g.
        #: an answer sent after the question had expired. The request itself went on.
        self.refusals: List[BusError] = []
        #: RESULTs so far: intents whose results opened the next one (docs/results.md).
        self.results: List[IntermediateResult] = []

    @property
    def done(self) -> bool:
        """Whether the final answer (REPLY or ERROR) has arrived."""
        return self.reply is not None or self.error is not None

    def next(self, wait: Optional[float] = None) -> Event:
        """Waits for the next message of this conversation.

        Raises the `BusError` of a final ERROR, `NoAnswer` when nothing arrives within
        `wait` seconds (default: the request's timeout plus the client's slack), and
        `ProtocolViolation` for anything that is not IB1.
        """
        if self.reply is not None:
            return self.reply
        if self.error is not None:
            raise self.error
        msg = self.client._receive_for(self.request_id, self.wait if wait is None else wait)
        while msg.kind is Kind.REFUSED:
            # Not final (docs/protocol.md §3): a message of ours was not taken, e.g. an
            # answer that came too late; the request goes on. Kept in `refusals`.
            self.refusals.append(refusal(msg, self.request_id, self.intent))
            msg = self.client._receive_for(self.request_id, self.wait if wait is None else wait)
        try:
            event = to_event(msg, self.request_id, self.intent)
        except BusError as e:
            self.error = e
            self.client._forget(self.request_id)
            raise
        if isinstance(event, Reply):
            if self.results:
                event = dataclasses.replace(event, earlier=tuple(self.results))
            self.reply = event
            self.client._forget(self.request_id)
        elif isinstance(event, IntermediateResult):
            self.results.append(event)
        elif isinstance(event, Prompt):
            self.pending_prompt = event
        return event

    def answer(self, value: Any, *, remember: Optional[str] = None) -> None:
        """Answers the pending prompt: `value` as docs/protocol.md §4.4 says per prompt
        kind; `remember` (`"once"`/`"always"`) goes with a plugin choice. An `Answer`
        may be passed as `value`."""
        if isinstance(value, Answer):
            body = value.body if remember is None else Answer(value.value, remember).body
        else:
            body = Answer(value, remember).body
        self.pending_prompt = None
        self.client._send(Message.build(Kind.ANSWER, self.request_id, self.intent, None, body))

    def cancel(self) -> None:
        """Asks the host to give up; the final answer is then `Cancelled` (unless the
        request had already ended). Keep calling `next()` to read it."""
        if not self.done:
            self.client._send(Message.build(Kind.CANCEL, self.request_id, "", None, None))

    def __iter__(self) -> Iterator[Event]:
        while True:
            event = self.next()
            yield event
            if isinstance(event, Reply):
                return
