"""The blocking IntentBus client (docs/protocol.md §4; several hosts: §4.10).

Two ways to talk to the host:

* `Client.send(...)` blocks until the final answer; prompts go to an `on_prompt`
  callback, progress updates to `on_progress`.
* `Client.start(...)` returns a `Conversation` to drive step by step: `next()` yields
  `Progress`, `Prompt` and finally the `Reply`; `answer(value)` answers a prompt.

Threading: a `Client` owns one DEALER socket per host and must be used from one thread
at a time. Several conversations may be open at once on one client; messages are sorted
into each conversation's inbox by request id.

Several hosts (`Client("ipc://a,ipc://b")`, a list, or `INTENTBUS_ENDPOINT=A,B`): a
request goes to one host (the one that failed least recently, or each in turn) and stays
there. While requests are open the client sends their hosts a HEARTBEAT every
`heartbeat` seconds; a host whose connection drops, or that says nothing for three
intervals, is lost: an idempotent request not yet in a conversation is sent again, under
the same id, to another host; every other request it held ends with `HostLost`.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import zmq

from ..errors import BusError, IntentBusError, NoAnswer, ProtocolViolation, Unanswered
from ..frames import NOBLOCK, recv_frames
from ..results import IntermediateResult
from ..wire import Kind, Message
from .conversation import Conversation
from .events import Progress, Prompt, Reply
from .base import ClientBase
from .links import HostLink

__all__ = ["Client", "DEFAULT_TIMEOUT"]

_HEARTBEAT = Message.build(Kind.HEARTBEAT).encode()

#: The client's wait when a request names no timeout: the host answers every request by
#: the plugin's own timeout at the latest (10 s by default), so this only guards
#: against a host that is not there.
DEFAULT_TIMEOUT = 60.0


class Client(ClientBase):
    """A blocking client over one DEALER socket per host.

    `endpoint` is one endpoint, several separated by commas, or a list; it defaults to
    the `INTENTBUS_ENDPOINT` environment variable. `slack` is the extra time, beyond a
    request's own timeout, to wait for the host before raising `NoAnswer`.
    `selection` (`"least-recently-failed"` or `"round-robin"`), `heartbeat` (seconds)
    and `connect_wait` (how long a host may take to accept a request before the next
    is tried; default 1 s with several hosts, `slack` with one) are the failover
    settings of docs/protocol.md §4.10.
    """

    def __init__(self, endpoint: Union[None, str, Sequence[str]] = None, *,
                 context: Optional["zmq.Context[zmq.Socket[bytes]]"] = None,
                 slack: float = 5.0, client_id: Optional[str] = None, client_key: Optional[str] = None,
                 server_key: Optional[str] = None, selection: str = "least-recently-failed",
                 heartbeat: float = 1.0, connect_wait: Optional[float] = None):
        super().__init__(endpoint, context=context, slack=slack, client_id=client_id, client_key=client_key,
                         server_key=server_key, selection=selection, heartbeat=heartbeat, connect_wait=connect_wait)

    # -- lifecycle -------------------------------------------------------------------

    def close(self) -> None:
        """Closes the sockets (and the context, if the client made it)."""
        for link in self._links.values():
            link.close()
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
              request_id: Optional[str] = None, idempotent: Optional[bool] = None,
              locale: Optional[str] = None, context: Optional[Dict[str, Any]] = None) -> Conversation:
        """Sends a REQUEST and returns its `Conversation` without waiting.

        `timeout` (seconds) overrides the plugin's timeout; `plugin` routes to that
        plugin; `choice` is `ask`, `fail` or `default` (docs/protocol.md §4.1);
        `remember` with `plugin` stores it as the "always" choice; `client_id` is a
        stable client identity (default: the client's own); `credential` unlocks
        restricted intents; `locale` is the user's language (`de-DE`); `context` what the
        client knows about where it was asked (`{"area": "Kitchen"}`: phrases may require
        it, the plugin sees it); `idempotent` lets the request be sent again to another host
        when its own is lost before any conversation (default: only the read-only host
        intents, `ib.ping`, `ib.status`, …).
        """
        if self._core.needs_manifest(intent, idempotent):
            self._learn_idempotent()
        wait = (timeout if timeout is not None else DEFAULT_TIMEOUT) + self.slack
        conv = self._core.start(intent, params, timeout=timeout, plugin=plugin, choice=choice, remember=remember,
                                client_id=client_id, credential=credential, request_id=request_id,
                                idempotent=idempotent, locale=locale, context=context,
                                make=lambda rid, name, request: Conversation(rid, name, request, self, wait))
        try:
            self._deliver(conv)
        except BaseException:
            self._forget(conv.request_id)
            raise
        return conv

    def send(self, intent: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None,
             plugin: Optional[str] = None, choice: Optional[str] = None, remember: bool = False,
             client_id: Optional[str] = None, credential: Optional[str] = None,
             idempotent: Optional[bool] = None,
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
                          client_id=client_id, credential=credential, idempotent=idempotent, locale=locale,
                          context=context)
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

    def _learn_idempotent(self) -> None:
        """Asks a host which intents the manifest marks `idempotent` (`ib.plugins`, 2 s):
        a complete request of its own, before the one that needs it. A host that does
        not answer leaves the question open for the next request."""
        try:
            with self._book.aside():
                self._core.learn_idempotent(self.control("ib.plugins", wait=2.0))
        except IntentBusError:
            pass

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

    def _deliver(self, conv: Conversation) -> None:
        """Sends `conv`'s REQUEST to a host that takes it (rule 3: not delivered is not
        sent, so the next host may have it); NoAnswer when none does."""
        while True:
            now = time.monotonic()
            endpoint = self._book.choose(exclude=conv.tried, now=now)
            if endpoint is None:
                raise NoAnswer(conv.host or self.endpoint, self.connect_wait, conv.request_id)
            conv.host = endpoint
            conv.tried.append(endpoint)
            if self._offer(self._links[endpoint], conv.request):
                self._book.watching(endpoint, time.monotonic())
                return
            self._book.failed(endpoint, time.monotonic())

    def _offer(self, link: HostLink, msg: Message) -> bool:
        """Sends `msg` on `link` if its host takes it within the connect wait."""
        frames = msg.encode()
        deadline = time.monotonic() + self.connect_wait
        while True:
            try:
                link.send(frames, NOBLOCK)
                return True
            except zmq.Again:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                link.socket.poll(min(int(remaining * 1000) + 1, 100), zmq.POLLOUT)

    def _send_to(self, conv: Conversation, msg: Message) -> None:
        """An ANSWER or CANCEL goes to the host that holds the request (rule 2)."""
        link = self._links.get(conv.host or self.endpoint)
        if link is None or not self._offer(link, msg):
            raise NoAnswer(conv.host or self.endpoint, self.connect_wait, msg.request_id)

    def _forget(self, request_id: str) -> None:
        self._core.close(request_id)

    def _receive_for(self, conv: Conversation, wait: float) -> Message:
        """The next message for `conv`, reading the socket and sorting what is for other
        open conversations into their inboxes."""
        if self._core.open.get(conv.request_id) is not conv:
            raise ProtocolViolation(f"request {conv.request_id} is not open on this client")
        deadline = time.monotonic() + wait
        while not conv.inbox:
            now = time.monotonic()
            remaining = deadline - now
            if remaining <= 0:
                raise NoAnswer(conv.host or self.endpoint, wait, conv.request_id)
            self._watch_hosts(now)
            if conv.inbox:
                break  # a lost host's final answer
            poller = zmq.Poller()
            for link in self._links.values():
                poller.register(link.socket, zmq.POLLIN)
                poller.register(link.monitor, zmq.POLLIN)
            ready = dict(poller.poll(min(int(min(remaining, self._book.heartbeat) * 1000) + 1, 2**31 - 1)))
            for endpoint, link in list(self._links.items()):
                if link.monitor in ready and link.dropped():
                    self._lose(endpoint, "its connection dropped")
                elif link.socket in ready:
                    self._read_available(endpoint, link)
        return conv.inbox.popleft()

    def _watch_hosts(self, now: float) -> None:
        """HEARTBEATs to the hosts that hold open requests; a silent one is lost."""
        for endpoint in {c.host for c in self._core.open.values() if c.host is not None}:
            if self._book.silent(endpoint, now):
                self._lose(endpoint, f"silent for {self._book.heartbeat * self._book.liveness:g} s")
            elif self._book.beat_due(endpoint, now):
                try:
                    self._links[endpoint].send(_HEARTBEAT, NOBLOCK)
                except zmq.Again:
                    pass  # not connected: its silence will tell

    def _lose(self, endpoint: str, why: str) -> None:
        """`endpoint` is lost: a new connection (nothing queued for the old one goes
        out), and each request it held is sent elsewhere or ends with `host_lost`."""
        self._book.failed(endpoint, time.monotonic())
        self._links.pop(endpoint).close()
        self._links[endpoint] = self._new_link(endpoint)
        for conv in self._core.on_host(endpoint):
            if not isinstance(conv, Conversation):
                continue
            if self._core.may_resend(conv):
                try:
                    self._deliver(conv)
                    continue
                except NoAnswer:
                    pass
            conv.inbox.append(self._core.host_lost_message(conv, endpoint, why))
            conv.host = None  # nothing more is expected from there

    def _read_available(self, endpoint: str, link: HostLink) -> None:
        while True:
            try:
                frames = recv_frames(link.socket, NOBLOCK)
            except zmq.Again:
                return
            self._book.heard(endpoint, time.monotonic())
            msg, conv = self._core.route(link.packing_incoming(frames))
            if isinstance(conv, Conversation):
                if conv.host == endpoint:
                    conv.inbox.append(msg)
                else:  # from a host the request has left (lost, then sent elsewhere)
                    self._core.stray_messages.append(msg)
