"""What a client says and hears, without I/O (docs/protocol.md §4): one `ConversationCore`
per request and a `ClientCore` that opens them and sorts the host's messages into them.

The blocking `Client` (blocking.py) and the asyncio `AsyncClient` (aio.py) only move
bytes: they write the messages these objects return and feed them what the socket
reads. So the rules — which message is final, that a REFUSED is not, what an answer's
body is, which request an id-less ERROR belongs to — are written once, here.
"""

from __future__ import annotations

import itertools
import secrets
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple, TypeVar

from ..errors import BusError, ProtocolViolation, WireError
from ..results import IntermediateResult
from ..wire import Kind, Message, canonical_json
from .events import Answer, Event, Prompt, Reply, refusal, to_event
from .hosts import READ_ONLY_HOST_INTENTS

__all__ = ["ClientCore", "ConversationCore", "request_header"]

C = TypeVar("C", bound="ConversationCore")


def request_header(timeout: Optional[float], plugin: Optional[str], choice: Optional[str], remember: bool,
                   client_id: Optional[str], credential: Optional[str], locale: Optional[str] = None,
                   context: Optional[Dict[str, Any]] = None) -> Optional[Dict[str, Any]]:
    """The REQUEST header (docs/protocol.md §4.1) for these options, None when empty;
    ValueError for a value the host would refuse."""
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
    if locale is not None:
        h["locale"] = locale
    if context:
        # Passed as given: the host checks it (docs/protocol.md §4.1) and says what is wrong.
        h["context"] = dict(context)
    return h or None


class ConversationCore:
    """One request's state on the client: what has been heard, whether it is over, and
    the messages to send next. No socket: `receive` takes what the host sent."""

    def __init__(self, request_id: str, intent: str, request: Message, idempotent: bool = False):
        self.request_id = request_id
        self.intent = intent
        #: The REQUEST as sent (kept so that a driver can send it again unchanged).
        self.request = request
        #: Whether it may run twice: sent again to another host when its host is lost
        #: before any conversation (docs/protocol.md §4.10).
        self.idempotent = idempotent
        #: The host it is on, and every host it was sent to (with several hosts).
        self.host: Optional[str] = None
        self.tried: List[str] = []
        #: A PROMPT or RESULT was seen: the request is in a conversation with its host.
        self.in_conversation = False
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

    def receive(self, msg: Message) -> Optional[Event]:
        """Takes one message of this request. Returns the event it is (a `Progress`,
        `Prompt`, `IntermediateResult`, or the final `Reply`, which lists the RESULTs
        before it in `earlier`), or None for a REFUSED (not final, docs/protocol.md §3:
        kept in `refusals`). A final ERROR raises its `BusError` (kept in `error`)."""
        if self.done:
            raise ProtocolViolation(f"request {self.request_id} had already ended; the host sent {msg.kind.value}")
        if msg.kind is Kind.REFUSED:
            self.refusals.append(refusal(msg, self.request_id, self.intent))
            return None
        try:
            event = to_event(msg, self.request_id, self.intent, tuple(self.results), self.host)
        except BusError as e:
            self.error = e
            raise
        if isinstance(event, Reply):
            self.reply = event
        elif isinstance(event, IntermediateResult):
            self.results.append(event)
            self.in_conversation = True
        elif isinstance(event, Prompt):
            self.pending_prompt = event
            self.in_conversation = True
        return event

    def answer_message(self, value: Any, remember: Optional[str] = None) -> Message:
        """The ANSWER to the pending prompt: `value` as docs/protocol.md §4.4 says per
        prompt kind (an `Answer` may be passed), `remember` (`"once"`/`"always"`) with a
        plugin choice."""
        if isinstance(value, Answer):
            body = value.body if remember is None else Answer(value.value, remember).body
        else:
            body = Answer(value, remember).body
        self.pending_prompt = None
        return Message.build(Kind.ANSWER, self.request_id, self.intent, None, body)

    def cancel_message(self) -> Optional[Message]:
        """The CANCEL that asks the host to give up, None when the request is over."""
        return None if self.done else Message.build(Kind.CANCEL, self.request_id, "", None, None)


class ClientCore:
    """The requests open on one connection to a host: new ids, the REQUEST message of
    each, and which open request a message from the host belongs to."""

    def __init__(self, client_id: Optional[str] = None):
        self.client_id = client_id
        #: Whether the client knows several hosts: each request that may be resent then
        #: carries a `run_key` (docs/protocol.md §4.10), so that a plugin serving both
        #: hosts runs it once.
        self.several_hosts = False
        #: The intents every claimant's manifest marks `idempotent`, from `ib.plugins`
        #: (None: not learned yet; docs/protocol.md §4.10): what a request that does not
        #: say `idempotent` follows.
        self.manifest_idempotent: Optional[FrozenSet[str]] = None
        self._prefix = secrets.token_hex(4)
        self._counter = itertools.count(1)
        self.open: Dict[str, ConversationCore] = {}
        #: REQUEST headers by the options that made them (`start`).
        self._headers: Dict[Tuple[Any, ...], bytes] = {}
        #: Messages that arrived for requests that had already ended (or were never
        #: sent from here). A host that keeps the one-final-answer rule leaves this empty.
        self.stray_messages: List[Message] = []

    def start(self, intent: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None,
              plugin: Optional[str] = None, choice: Optional[str] = None, remember: bool = False,
              client_id: Optional[str] = None, credential: Optional[str] = None,
              request_id: Optional[str] = None, idempotent: Optional[bool] = None,
              locale: Optional[str] = None, context: Optional[Dict[str, Any]] = None,
              make: Callable[[str, str, Message], C] = ConversationCore) -> C:  # type: ignore[assignment]
        """Opens a request: `make(request_id, intent, request)` (a `ConversationCore` or
        a driver's subclass of it); its `request` is the REQUEST to send. `idempotent`
        (default: only the read-only host intents) lets it be sent again to another
        host when its own is lost."""
        client = client_id if client_id is not None else self.client_id
        keyed = self.several_hosts and idempotent is not False
        # The same options give the same header: its bytes are kept (a few option sets
        # per client), not written again for every request.
        options = None if keyed or context else (type(timeout), timeout, plugin, choice, remember, client,
                                                 credential, locale)
        try:
            header_bytes = self._headers.get(options) if options is not None else None
        except TypeError:  # an option that is no value at all: request_header says what is wrong
            options = header_bytes = None
        if header_bytes is None:
            header = request_header(timeout, plugin, choice, remember, client, credential, locale, context)
            if keyed:
                # Made once; the resend is this same message, so it carries the same key.
                header = dict(header or {}, run_key=secrets.token_hex(16))
            header_bytes = b"" if header is None else canonical_json(header)
            if options is not None and len(self._headers) < 32:
                self._headers[options] = header_bytes
        rid = request_id or f"{self._prefix}-{next(self._counter)}"
        if rid in self.open:
            raise ValueError(f"request id {rid!r} is already open on this client")
        request = Message(Kind.REQUEST, rid, intent, header_bytes, canonical_json({} if params is None else params))
        conv = make(rid, intent, request)
        if idempotent is not None:
            conv.idempotent = idempotent
        elif intent.startswith("ib."):
            conv.idempotent = intent in READ_ONLY_HOST_INTENTS
        else:
            conv.idempotent = intent in (self.manifest_idempotent or ())
        self.open[rid] = conv
        return conv

    def needs_manifest(self, intent: str, idempotent: Optional[bool]) -> bool:
        """Whether the hosts' `idempotent` intents should be learned (`ib.plugins`) before
        this request starts: with several hosts, for a plugin intent the request does not
        say about, when not learned yet (asked once per client; again after a failure)."""
        return self.several_hosts and idempotent is None and not intent.startswith("ib.") \
            and self.manifest_idempotent is None

    def learn_idempotent(self, plugins: Any) -> None:
        """Keeps the intents that every plugin claiming them marks `idempotent`, from an
        `ib.plugins` reply body (each plugin lists `intents` and `idempotent`)."""
        claimed: Dict[str, int] = {}
        marked: Dict[str, int] = {}
        entries = plugins.get("plugins") if isinstance(plugins, dict) else None
        for plugin in entries if isinstance(entries, list) else []:
            if not isinstance(plugin, dict):
                continue
            for field, counts in (("intents", claimed), ("idempotent", marked)):
                names = plugin.get(field)
                for name in names if isinstance(names, list) else []:
                    if isinstance(name, str):
                        counts[name] = counts.get(name, 0) + 1
        self.manifest_idempotent = frozenset(n for n, c in marked.items() if claimed.get(n) == c)

    def close(self, request_id: str) -> None:
        """Forgets a request (its final answer came, or the caller gave up on it)."""
        self.open.pop(request_id, None)

    def route(self, frames: List[bytes]) -> Tuple[Message, Optional[ConversationCore]]:
        """Decodes a message from the host and names the open request it belongs to
        (None: it belongs to none, and is kept in `stray_messages`)."""
        try:
            msg = Message.decode(frames)
        except WireError as e:
            raise ProtocolViolation(f"the host sent a malformed message: {e}") from None
        if msg.kind is Kind.HEARTBEAT and msg.request_id == "":
            return msg, None  # the host's answer to ours: a sign of life, nobody's message
        conv = self.open.get(msg.request_id)
        if conv is None and msg.kind is Kind.ERROR and msg.request_id == "" and len(self.open) == 1:
            # An ERROR with an empty id answers a message the host could not parse; with one
            # request open, it can only be about that one.
            conv = next(iter(self.open.values()))
        if conv is None:
            self.stray_messages.append(msg)
        return msg, conv

    def on_host(self, endpoint: str) -> List[ConversationCore]:
        """The open requests that `endpoint` holds."""
        return [c for c in self.open.values() if c.host == endpoint]

    @staticmethod
    def may_resend(conv: ConversationCore) -> bool:
        """Whether `conv` may go to another host now that its own is lost: idempotent,
        and not in a conversation (no PROMPT, no RESULT seen)."""
        return conv.idempotent and not conv.in_conversation and not conv.done

    @staticmethod
    def host_lost_message(conv: ConversationCore, endpoint: str, why: str) -> Message:
        """The client's own final answer for `conv` when `endpoint` is lost and the request
        can't go elsewhere (an ERROR `host_lost`, delivered like the host's own)."""
        return Message.build(Kind.ERROR, conv.request_id, conv.intent, None, {
            "code": "host_lost", "details": {"host": endpoint},
            "message": f"the host at {endpoint} was lost ({why}) while it held request {conv.request_id}; "
                       f"it may or may not have run there"})
