"""The blocking IntentBus client (docs/protocol.md §4).

Two ways to talk to the host:

* `Client.send(...)` blocks until the final answer; prompts go to an `on_prompt`
  callback, progress updates to `on_progress`.
* `Client.start(...)` returns a `Conversation` to drive step by step: `next()` yields
  `Progress`, `Prompt` and finally the `Reply`; `answer(value)` answers a prompt.

Threading: a `Client` owns one DEALER socket and must be used from one thread at a
time. Several conversations may be open at once on one client; messages are sorted
into each conversation's inbox by request id.
"""

from __future__ import annotations

import collections
import itertools
import secrets
import time
from typing import Any, Callable, Deque, Dict, List, Optional

import zmq

from .client_conversation import Conversation
from .client_events import Answer, Event, Progress, Prompt, Reply
from .client_events import _parse as _parse
from .client_events import refusal as refusal
from .client_events import to_event as to_event
from .client_transport import apply_curve as apply_curve
from .client_transport import read_key as read_key
from .client_transport import request_header as request_header
from .client_transport import resolve_endpoint as resolve_endpoint
from .client_transport import route_incoming as route_incoming
from .errors import BusError, NoAnswer, ProtocolViolation, Unanswered
from .results import IntermediateResult
from .wire import Kind, Message

__all__ = ["Client", "Conversation", "Reply", "IntermediateResult",
           "Prompt", "Progress", "Answer", "Event", "DEFAULT_TIMEOUT"]

#: The client's wait when a request names no timeout: the host answers every request by
#: the plugin's own timeout at the latest (10 s by default), so this only guards
#: against a host that is not there.
DEFAULT_TIMEOUT = 60.0


class Client:
    """A blocking client over one DEALER socket.

    `endpoint` defaults to the `INTENTBUS_ENDPOINT` environment variable. `slack` is the
    extra time, beyond a request's own timeout, to wait for the host before raising
    `NoAnswer`.
    """

    def __init__(self, endpoint: Optional[str] = None, *, context: Optional["zmq.Context[zmq.Socket[bytes]]"] = None,
                 slack: float = 5.0, client_id: Optional[str] = None, client_key: Optional[str] = None,
                 server_key: Optional[str] = None):
        self.endpoint = resolve_endpoint(endpoint)
        self.slack = slack
        self.client_id = client_id
        self._own_context = context is None
        self._context = context or zmq.Context()
        self._socket = self._context.socket(zmq.DEALER)
        apply_curve(self._socket, client_key, server_key)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.connect(self.endpoint)
        self._prefix = secrets.token_hex(4)
        self._counter = itertools.count(1)
        self._inbox: Dict[str, Deque[Message]] = {}
        #: Messages that arrived for requests that had already ended (or were never
        #: sent from here). A host that keeps the one-final-answer rule leaves this empty.
        self.stray_messages: List[Message] = []

    # -- lifecycle -------------------------------------------------------------------

    def close(self) -> None:
        """Closes the socket (and the context, if the client made it)."""
        if not self._socket.closed:
            self._socket.close(linger=0)
        if self._own_context:
            self._context.term()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- requests --------------------------------------------------------------------

    def start(self, intent: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None,
              plugin: Optional[str] = None, choice: Optional[str] = None, remember: bool = False,
              client_id: Optional[str] = None, credential: Optional[str] = None,
              request_id: Optional[str] = None, locale: Optional[str] = None,
              context: Optional[Dict[str, Any]] = None) -> Conversation:
        """Sends a REQUEST and returns its `Conversation` without waiting.

        `timeout` (seconds) overrides the plugin's timeout; `plugin` routes to that
        plugin; `choice` is `ask`, `fail` or `default` (docs/protocol.md §4.1);
        `remember` with `plugin` stores it as the "always" choice; `client_id` is a
        stable client identity (default: the client's own); `credential` unlocks
        restricted intents; `locale` is the user's language (`de-DE`); `context` what the
        client knows about where it was asked (`{"area": "Kitchen"}`: phrases may require
        it, the plugin sees it).
        """
        header = request_header(timeout, plugin, choice, remember,
                                 client_id if client_id is not None else self.client_id, credential, locale, context)
        rid = request_id or f"{self._prefix}-{next(self._counter)}"
        if rid in self._inbox:
            raise ValueError(f"request id {rid!r} is already open on this client")
        self._inbox[rid] = collections.deque()
        self._send(Message.build(Kind.REQUEST, rid, intent, header, {} if params is None else params))
        return Conversation(self, rid, intent, (timeout if timeout is not None else DEFAULT_TIMEOUT) + self.slack)

    def send(self, intent: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None,
             plugin: Optional[str] = None, choice: Optional[str] = None, remember: bool = False,
             client_id: Optional[str] = None, credential: Optional[str] = None,
             locale: Optional[str] = None, context: Optional[Dict[str, Any]] = None,
             on_prompt: Optional[Callable[[Prompt], Any]] = None,
             on_progress: Optional[Callable[[Progress], None]] = None,
             on_result: Optional[Callable[[IntermediateResult], None]] = None) -> Reply:
        """Sends a request and blocks until its final answer.

        `on_result(result)` sees each RESULT (an intent's answer that opened the next
        intent) as it arrives; the final `Reply` lists them in `earlier` too.
        `on_prompt(prompt)` returns the answer's value (see docs/protocol.md §4.4), or an
        `Answer` to add `remember`, or None to give up: the request is then cancelled and
        `Unanswered` is raised. Without `on_prompt`, a prompt raises `Unanswered` too.
        An ERROR raises the matching `BusError` subclass; silence raises `NoAnswer`.
        """
        conv = self.start(intent, params, timeout=timeout, plugin=plugin, choice=choice, remember=remember,
                          client_id=client_id, credential=credential, locale=locale, context=context)
        try:
            while True:
                event = conv.next()
                if isinstance(event, Reply):
                    return event
                if isinstance(event, Progress):
                    if on_progress is not None:
                        on_progress(event)
                    continue
                if isinstance(event, IntermediateResult):
                    if on_result is not None:
                        on_result(event)
                    continue
                value = on_prompt(event) if on_prompt is not None else None
                if value is None:
                    self._give_up(conv)
                    raise Unanswered(event)
                conv.answer(value)
        finally:
            if not conv.done:
                self._forget(conv.request_id)

    def control(self, intent: str, body: Optional[Dict[str, Any]] = None, wait: float = 5.0) -> Any:
        """Sends a host intent (`ib.*`, docs/protocol.md §6) and returns the reply body."""
        return self.send(intent, body or {}, timeout=wait).body

    def entities(self, entity: str, query: str = "suggested", *, ids: Optional[List[Any]] = None,
                 text: Optional[str] = None, plugin: Optional[str] = None, timeout: Optional[float] = None) -> Any:
        """`ib.entities` (docs/protocol.md §9.4): asks the plugin that declares the
        entity type for `suggested` entities, those with `ids`, those `matching` a
        `text`, or `all`. Returns the reply body, `{"entity", "query", "results": [{"id",
        "title", "subtitle"?, "type"}, …]}`."""
        body: Dict[str, Any] = {"entity": entity, "query": query}
        if ids is not None:
            body["ids"] = list(ids)
        if text is not None:
            body["text"] = text
        return self.send("ib.entities", body, plugin=plugin, timeout=timeout).body

    def ping(self, wait: float = 5.0) -> Any:
        """`ib.ping`: `{"protocol": 1, …}` when the host is up."""
        return self.control("ib.ping", wait=wait)

    def plugins(self, wait: float = 5.0) -> Any:
        """`ib.plugins`: every plugin the host knows, with its state."""
        return self.control("ib.plugins", wait=wait)

    # -- internals -------------------------------------------------------------------

    def _give_up(self, conv: Conversation) -> None:
        # Cancel, then read the final ERROR so that it does not arrive as a stray message.
        conv.cancel()
        deadline = time.monotonic() + 2.0
        try:
            while not conv.done and time.monotonic() < deadline:
                conv.next(wait=max(0.01, deadline - time.monotonic()))
        except (BusError, NoAnswer, ProtocolViolation):
            pass

    def _send(self, msg: Message) -> None:
        # A DEALER with no connected peer (no host, or a CURVE handshake the host refused)
        # blocks on send: give up after `slack` instead, as NoAnswer.
        self._socket.setsockopt(zmq.SNDTIMEO, int(max(0.1, self.slack) * 1000))
        try:
            self._socket.send_multipart(msg.encode(), copy=False)
        except zmq.Again:
            raise NoAnswer(self.endpoint, self.slack, msg.request_id) from None

    def _forget(self, request_id: str) -> None:
        self._inbox.pop(request_id, None)

    def _receive_for(self, request_id: str, wait: float) -> Message:
        """The next message for `request_id`, reading the socket and sorting what is for
        other open conversations into their inboxes."""
        inbox = self._inbox.get(request_id)
        if inbox is None:
            raise ProtocolViolation(f"request {request_id} is not open on this client")
        deadline = time.monotonic() + wait
        while not inbox:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise NoAnswer(self.endpoint, wait, request_id)
            if not self._socket.poll(min(int(remaining * 1000) + 1, 2**31 - 1), zmq.POLLIN):
                continue
            self._read_available()
        return inbox.popleft()

    def _read_available(self) -> None:
        while True:
            try:
                frames = self._socket.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                return
            msg, key = route_incoming(frames, self._inbox)
            if key is None:
                self.stray_messages.append(msg)
            else:
                self._inbox[key].append(msg)
