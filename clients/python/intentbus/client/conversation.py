"""One request driven step by step (intentbus.client): the `Conversation` that
`Client.start` returns — a `ConversationCore` (core.py) read and written through the
blocking client's socket."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Deque, Iterator, Optional

from ..wire import Message
from .core import ConversationCore
from .events import Event, Reply

if TYPE_CHECKING:
    from .blocking import Client

__all__ = ["Conversation"]


class Conversation(ConversationCore):
    """One request, driven step by step. Made by `Client.start`.

    `next()` returns the next `Progress` or `Prompt`, and finally the `Reply`; an ERROR
    raises the matching `BusError` subclass. After a `Prompt`, call `answer(value)`.
    Iterating yields the same events and stops after the `Reply`.
    """

    def __init__(self, request_id: str, intent: str, request: Message, client: "Client", wait: float):
        super().__init__(request_id, intent, request)
        self.client = client
        self.wait = wait
        #: What the socket read for this request and `next()` has not taken yet.
        self.inbox: Deque[Message] = deque()

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
        try:
            while True:
                event = self.receive(self.client._receive_for(self, self.wait if wait is None else wait))
                if event is not None:
                    break
        finally:
            if self.done:
                self.client._forget(self.request_id)
        return event

    def answer(self, value: Any, *, remember: Optional[str] = None) -> None:
        """Answers the pending prompt: `value` as docs/protocol.md §4.4 says per prompt
        kind; `remember` (`"once"`/`"always"`) goes with a plugin choice. An `Answer`
        may be passed as `value`."""
        self.client._send_to(self, self.answer_message(value, remember))

    def cancel(self) -> None:
        """Asks the host to give up; the final answer is then `Cancelled` (unless the
        request had already ended). Keep calling `next()` to read it."""
        msg = self.cancel_message()
        if msg is not None:
            self.client._send_to(self, msg)

    def __iter__(self) -> Iterator[Event]:
        while True:
            event = self.next()
            yield event
            if isinstance(event, Reply):
                return
