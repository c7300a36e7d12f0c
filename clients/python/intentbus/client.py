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
import dataclasses
import itertools
import os
import secrets
import time
from dataclasses import dataclass
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional, Tuple, Union

import zmq

from .errors import BusError, NoAnswer, ProtocolViolation, Unanswered, WireError
from .results import IntermediateResult, SnippetAction, snippet_actions
from .wire import Kind, Message

__all__ = ["Client", "Conversation", "Reply", "IntermediateResult",
           "Prompt", "Progress", "Answer", "Event", "DEFAULT_TIMEOUT"]

#: The client's wait when a request names no timeout: the host answers every request by
#: the plugin's own timeout at the latest (10 s by default), so this only guards
#: against a host that is not there.
DEFAULT_TIMEOUT = 60.0


@dataclass(frozen=True)
class Reply:
    """A final REPLY (docs/protocol.md §4.2)."""

    status: str
    plugin: Optional[str]
    header: Dict[str, Any]
    body: Any
    request_id: str = ""
    intent: str = ""
    #: The RESULTs of the intents that opened this one, oldest first (docs/results.md).
    earlier: Tuple[IntermediateResult, ...] = ()

    @property
    def succeeded(self) -> bool:
        """Whether the header's status is `success`."""
        return self.status == "success"

    @property
    def actions(self) -> List[SnippetAction]:
        """The actions its snippet view offers (`client.send(a.intent, a.parameters)`)."""
        return snippet_actions(self.body)


@dataclass(frozen=True)
class Prompt:
    """A question from the host (a PROMPT body, docs/protocol.md §4.4)."""

    kind: str
    parameter: Optional[str]
    dialog: str
    type: Optional[str]
    options: List[Dict[str, Any]]
    remember: List[str]
    raw: Dict[str, Any]
    request_id: str = ""
    intent: str = ""

    @classmethod
    def from_body(cls, body: Any, request_id: str = "", intent: str = "") -> "Prompt":
        """Reads a PROMPT body; missing fields get neutral values."""
        b = body if isinstance(body, dict) else {}
        raw_options, raw_remember = b.get("options"), b.get("remember")
        options: List[Any] = raw_options if isinstance(raw_options, list) else []
        remember: List[Any] = raw_remember if isinstance(raw_remember, list) else []
        kind, parameter, dialog, type_ = b.get("kind"), b.get("parameter"), b.get("dialog"), b.get("type")
        return cls(kind=kind if isinstance(kind, str) else "value",
                   parameter=parameter if isinstance(parameter, str) else None,
                   dialog=dialog if isinstance(dialog, str) else "",
                   type=type_ if isinstance(type_, str) else None,
                   options=[o for o in options if isinstance(o, dict)], remember=list(remember), raw=b,
                   request_id=request_id, intent=intent)

    @property
    def option_ids(self) -> List[Any]:
        """The `id` of every option, in order."""
        return [o.get("id") for o in self.options]


@dataclass(frozen=True)
class Progress:
    """A progress update (a PROGRESS body, docs/protocol.md §4.5)."""

    message: Optional[str]
    fraction: Optional[float]
    raw: Dict[str, Any]
    request_id: str = ""
    intent: str = ""


@dataclass(frozen=True)
class Answer:
    """An answer with extras: return it from `on_prompt` (or pass it to
    `Conversation.answer`) to send `remember` with a plugin choice."""

    value: Any
    remember: Optional[str] = None

    @property
    def body(self) -> Dict[str, Any]:
        """The ANSWER body."""
        out: Dict[str, Any] = {"value": self.value}
        if self.remember is not None:
            out["remember"] = self.remember
        return out


Event = Union[Progress, Prompt, IntermediateResult, Reply]


def request_header(timeout: Optional[float], plugin: Optional[str], choice: Optional[str], remember: bool,
                    client_id: Optional[str], credential: Optional[str]) -> Optional[Dict[str, Any]]:
    h: Dict[str, Any] = {}
    if timeout is not None:
        # The CLI's range and the manifest's maximum (docs/reliability.md, "Limits").
        if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0.001 <= timeout <= 86_400:
            raise ValueError(f"timeout must be seconds within 0.001…86400, got {timeout!r}")
        h["timeout_ms"] = max(1, int(round(timeout * 1000)))
    if plugin is not None:
        h["plugin"] = plugin
    if choice is not None:
        if choice not in ("ask", "fail", "default"):
            raise ValueError('choice is "ask", "fail" or "default"')
        h["choice"] = choice
    if remember:
        if plugin is None:
            raise ValueError("remember=True goes with plugin=...")
        h["remember"] = True
    if client_id is not None:
        h["client"] = client_id
    if credential is not None:
        h["credential"] = credential
    return h or None


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


def refusal(msg: Message, request_id: str, intent: str) -> BusError:
    """The error a REFUSED message carries (never final: the request it names goes on)."""
    try:
        body = msg.body_json()
    except WireError:
        body = {}
    return BusError.from_body(body, request_id=request_id, intent=intent)


def to_event(msg: Message, request_id: str, intent: str) -> Event:
    """What a message from the host means for the request: a `Progress`, a `Prompt` or
    the `Reply`; a final ERROR is raised as its `BusError` subclass."""
    if msg.kind is Kind.REPLY:
        header = _parse(msg.header_json, "REPLY header")
        if not isinstance(header, dict):
            raise ProtocolViolation("the REPLY header is not a JSON object")
        body = _parse(msg.body_json, "REPLY body")
        return Reply(status=header.get("status", "success"),
                     plugin=header.get("plugin") if isinstance(header.get("plugin"), str) else None,
                     header=header, body=body, request_id=request_id, intent=intent)
    if msg.kind is Kind.ERROR:
        raise BusError.from_body(_parse(msg.body_json, "ERROR body"), request_id=request_id, intent=intent)
    if msg.kind is Kind.PROGRESS:
        body = _parse(msg.body_json, "PROGRESS body")
        b = body if isinstance(body, dict) else {}
        fraction = b.get("fraction")
        return Progress(message=b.get("message") if isinstance(b.get("message"), str) else None,
                        fraction=float(fraction) if isinstance(fraction, (int, float))
                        and not isinstance(fraction, bool) else None,
                        raw=b, request_id=request_id, intent=intent)
    if msg.kind is Kind.PROMPT:
        return Prompt.from_body(_parse(msg.body_json, "PROMPT body"), request_id=request_id, intent=intent)
    if msg.kind is Kind.RESULT:
        header = _parse(msg.header_json, "RESULT header")
        header = header if isinstance(header, dict) else {}
        plugin = header.get("plugin")
        return IntermediateResult(status=str(header.get("status", "success")),
                                  plugin=plugin if isinstance(plugin, str) else None,
                                  header=header, body=_parse(msg.body_json, "RESULT body"),
                                  request_id=request_id, intent=msg.intent or intent)
    raise ProtocolViolation(f"unexpected {msg.kind.value} from the host for request {request_id}")


def _parse(fn: Callable[[], Any], what: str) -> Any:
    try:
        return fn()
    except WireError as e:
        raise ProtocolViolation(f"{what}: {e.message}") from None


def resolve_endpoint(endpoint: Optional[str]) -> str:
    """The host's frontend: the given endpoint, else INTENTBUS_ENDPOINT. Shared by the
    blocking and the asyncio client."""
    endpoint = endpoint or os.environ.get("INTENTBUS_ENDPOINT")
    if not endpoint:
        raise ValueError("no endpoint: pass one (e.g. ipc://.intentbus/frontend.sock) or set INTENTBUS_ENDPOINT")
    return endpoint


def read_key(value: str) -> bytes:
    """A CURVE key given as 40 characters of Z85, or as the path of a key file (the
    first line that is not a comment, as `intentbus keygen` writes them)."""
    text = value.strip()
    if len(text) != 40 or os.path.exists(text):
        with open(text, encoding="utf-8") as f:
            lines = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
        if not lines:
            raise ValueError(f"{value}: no CURVE key in the file")
        text = lines[0]
    if len(text) != 40:
        raise ValueError(f"not a CURVE key (40 characters of Z85): {text[:12]}…")
    return text.encode("ascii")


def apply_curve(sock: "zmq.Socket[Any]", client_key: Optional[str], server_key: Optional[str]) -> None:
    """Makes `sock` a CURVE client when a key is given or set in the environment
    (`INTENTBUS_CLIENT_KEY`: this client's secret key file; `INTENTBUS_SERVER_KEY`: the
    host's public key or its host.pub file). Needed for a tcp frontend (docs/security.md)."""
    client_key = client_key or os.environ.get("INTENTBUS_CLIENT_KEY")
    server_key = server_key or os.environ.get("INTENTBUS_SERVER_KEY")
    if not client_key and not server_key:
        return
    if not (client_key and server_key):
        raise ValueError("CURVE needs both the client's secret key and the host's public key")
    secret = read_key(client_key)
    sock.curve_secretkey = secret
    sock.curve_publickey = zmq.curve_public(secret)
    sock.curve_serverkey = read_key(server_key)


def route_incoming(frames: List[bytes], open_requests: Dict[str, Any]) -> "tuple[Message, Optional[str]]":
    """Decodes a message from the host and names the open request it belongs to (None:
    it belongs to none, a stray). Shared by the blocking and the asyncio client."""
    try:
        msg = Message.decode(frames)
    except WireError as e:
        raise ProtocolViolation(f"the host sent a malformed message: {e}") from None
    if msg.request_id in open_requests:
        return msg, msg.request_id
    if msg.kind is Kind.ERROR and msg.request_id == "" and len(open_requests) == 1:
        # An ERROR with an empty id answers a message the host could not parse; with one
        # request open, it can only be about that one.
        return msg, next(iter(open_requests))
    return msg, None


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
              request_id: Optional[str] = None) -> Conversation:
        """Sends a REQUEST and returns its `Conversation` without waiting.

        `timeout` (seconds) overrides the plugin's timeout; `plugin` routes to that
        plugin; `choice` is `ask`, `fail` or `default` (docs/protocol.md §4.1);
        `remember` with `plugin` stores it as the "always" choice; `client_id` is a
        stable client identity (default: the client's own); `credential` unlocks
        restricted intents.
        """
        header = request_header(timeout, plugin, choice, remember,
                                 client_id if client_id is not None else self.client_id, credential)
        rid = request_id or f"{self._prefix}-{next(self._counter)}"
        if rid in self._inbox:
            raise ValueError(f"request id {rid!r} is already open on this client")
        self._inbox[rid] = collections.deque()
        self._send(Message.build(Kind.REQUEST, rid, intent, header, {} if params is None else params))
        return Conversation(self, rid, intent, (timeout if timeout is not None else DEFAULT_TIMEOUT) + self.slack)

    def send(self, intent: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None,
             plugin: Optional[str] = None, choice: Optional[str] = None, remember: bool = False,
             client_id: Optional[str] = None, credential: Optional[str] = None,
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
                          client_id=client_id, credential=credential)
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
