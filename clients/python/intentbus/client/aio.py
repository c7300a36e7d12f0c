"""The asyncio client: the same requests as `Client`, awaited, with the same rules for
several hosts (docs/protocol.md §4.10).

    async with AsyncClient("ipc://.intentbus/frontend.sock") as client:
        reply = await client.send("OrderCoffeeIntent", {"beverage": "latte", "size": "small"})

Any number of tasks may `send` at once on one client. Each host's socket is a plain
pyzmq DEALER read from the event loop itself (`add_reader` on its `ZMQ_FD`): each time
it becomes readable every waiting message is read and handed to its request, so there
is no reader task and no future per frame (zmq.asyncio's way cost about half of this
client's CPU per request). Of the REQUESTs sent in one turn of the loop the first goes
out at once and the others together at the start of the next turn (a send after a pause
wakes libzmq's I/O thread, which cost about as much as the rest of a request); one that
a host does not take is offered again until `connect_wait`, then goes to the next host.
The timeouts share one timer (waits.py). Use a client from one event loop only.
"""

from __future__ import annotations

import asyncio
import inspect
import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import zmq

from ..errors import IntentBusError, NoAnswer, ProtocolViolation, Unanswered
from ..frames import NOBLOCK, recv_frames
from ..results import IntermediateResult
from ..wire import Kind, Message
from .blocking import DEFAULT_TIMEOUT
from .base import ClientBase
from .core import ConversationCore
from .events import Progress, Prompt, Reply
from .links import HostLink
from .waits import TIMEOUT_GRAIN, Deadlines, Inbox

__all__ = ["AsyncClient", "TIMEOUT_GRAIN"]

_HEARTBEAT = Message.build(Kind.HEARTBEAT).encode()


class AsyncClient(ClientBase):
    """An asyncio client over one DEALER socket per host. See `Client` for the arguments
    (`context` may be any pyzmq context)."""

    def __init__(self, endpoint: Union[None, str, Sequence[str]] = None, *, context: Optional[zmq.Context[Any]] = None,
                 slack: float = 5.0, client_id: Optional[str] = None, client_key: Optional[str] = None,
                 server_key: Optional[str] = None, selection: str = "least-recently-failed",
                 heartbeat: float = 1.0, connect_wait: Optional[float] = None):
        super().__init__(endpoint, context=context, slack=slack, client_id=client_id, client_key=client_key,
                         server_key=server_key, selection=selection, heartbeat=heartbeat, connect_wait=connect_wait)
        self._inboxes: Dict[str, Inbox] = {}
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._tick_handle: Optional[asyncio.TimerHandle] = None
        self._drain_due = False
        self._redeliveries: "set[asyncio.Task[None]]" = set()
        #: REQUESTs to send at the next turn of the loop: (conversation, inbox, host, when queued).
        self._outgoing: List[Tuple[ConversationCore, Inbox, str, float]] = []
        self._flush_due = False
        #: The one timer for every request's timeout.
        self._deadlines = Deadlines(self._inboxes)
        #: Messages from the host that were not IB1 (kept; the requests go on).
        self.malformed: List[ProtocolViolation] = []

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        """Stops reading and closes the sockets (and the context, if the client made it)."""
        for task in list(self._redeliveries):
            task.cancel()
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        self._deadlines.close()
        for link in self._links.values():
            self._unwatch(link)
            link.close()
        self._loop = self._deadlines.loop = None
        if self._own_context:
            self._context.term()

    async def send(self, intent: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None,
                   plugin: Optional[str] = None, choice: Optional[str] = None, remember: bool = False,
                   client_id: Optional[str] = None, credential: Optional[str] = None,
                   idempotent: Optional[bool] = None,
                   locale: Optional[str] = None, context: Optional[Dict[str, Any]] = None,
                   on_prompt: Optional[Callable[[Prompt], Any]] = None,
                   on_progress: Optional[Callable[[Progress], Any]] = None,
                   on_result: Optional[Callable[[IntermediateResult], Any]] = None) -> Reply:
        """Like `Client.send`; `on_prompt`, `on_progress` and `on_result` may be plain
        functions or coroutine functions."""
        if self._core.needs_manifest(intent, idempotent):
            try:  # as Client does: one complete ib.plugins first, 2 s; a failure asks again next time
                with self._book.aside():
                    self._core.learn_idempotent((await self.send("ib.plugins", {}, timeout=2.0)).body)
            except IntentBusError:
                pass
        conv: ConversationCore = self._core.start(intent, params, timeout=timeout, plugin=plugin, choice=choice,
                                                  remember=remember, client_id=client_id, credential=credential,
                                                  idempotent=idempotent, locale=locale, context=context)
        wait = (timeout if timeout is not None else DEFAULT_TIMEOUT) + self.slack
        inbox = self._inboxes[conv.request_id] = Inbox(wait)
        try:
            self._queue_request(conv, inbox)
            while True:
                event = conv.receive(await self._next(conv, inbox, wait))  # a final ERROR raises
                if event is None:
                    continue  # a REFUSED: not final, the request goes on
                if isinstance(event, Reply):
                    return event
                if isinstance(event, Progress):
                    if on_progress is not None:
                        await _maybe_await(on_progress(event))
                    continue
                if isinstance(event, IntermediateResult):
                    if on_result is not None:  # not final: the opened intent's answer follows
                        await _maybe_await(on_result(event))
                    continue
                value = await _maybe_await(on_prompt(event)) if on_prompt is not None else None
                if value is None:
                    await self._give_up(conv, inbox)
                    raise Unanswered(event)
                await self._send_to(conv, conv.answer_message(value))
        finally:
            if inbox.delivery is not None:
                inbox.delivery.cancel()  # given up (or cancelled) while still being offered
            self._inboxes.pop(conv.request_id, None)
            self._core.close(conv.request_id)

    async def ping(self, wait: float = 5.0) -> Any:
        """`ib.ping`."""
        return (await self.send("ib.ping", {}, timeout=wait)).body

    # -- sending ---------------------------------------------------------------------------

    async def _give_up(self, conv: ConversationCore, inbox: Inbox) -> None:
        # Cancel, then read the final ERROR so that it does not arrive as a stray message.
        cancel = conv.cancel_message()
        if cancel is None:
            return
        await self._send_to(conv, cancel)
        try:
            while not (await self._next(conv, inbox, 2.0)).kind.is_final:
                pass
        except NoAnswer:
            pass

    def _queue_request(self, conv: ConversationCore, inbox: Inbox) -> None:
        """Chooses `conv`'s host and sends its REQUEST: the first of a turn of the loop at
        once (one request in flight waits for no turn), the ones after it at the start of
        the next turn, together (`_flush_requests`). NoAnswer when no host is left to try."""
        loop = self._running_loop()
        endpoint = self._book.choose(exclude=conv.tried, now=loop.time())
        if endpoint is None:
            raise NoAnswer(conv.host or self.endpoint, self.connect_wait, conv.request_id)
        conv.host = endpoint
        conv.tried.append(endpoint)
        item = (conv, inbox, endpoint, loop.time())
        if self._flush_due:
            self._outgoing.append(item)
            return
        self._flush_due = True
        loop.call_soon(self._flush_requests)
        self._send_requests([item], loop)

    def _flush_requests(self) -> None:
        self._flush_due = False
        outgoing, self._outgoing = self._outgoing, []
        if outgoing and self._loop is not None:
            self._send_requests(outgoing, self._loop)

    def _send_requests(self, outgoing: List[Tuple[ConversationCore, Inbox, str, float]],
                       loop: asyncio.AbstractEventLoop) -> None:
        """Sends REQUESTs one after the other. One that its host does not take now is
        offered again by a task of its own, as `_deliver` does (its timeout waits)."""
        now = loop.time()
        refused = set()
        for conv, inbox, endpoint, queued in outgoing:
            if self._inboxes.get(conv.request_id) is not inbox or conv.host != endpoint:
                continue  # given up before it went out, or its host was lost meanwhile
            link = self._links.get(endpoint)
            if link is not None and endpoint not in refused:
                try:
                    link.send(conv.request.encode(), NOBLOCK)
                    self._book.watching(endpoint, now)
                    self._deadlines.start(inbox, now)
                    continue
                except zmq.Again:
                    refused.add(endpoint)  # the rest for that host try again too, in order
            inbox.deadline = math.inf  # the timeout counts from the delivery
            task = loop.create_task(self._deliver_late(conv, inbox, endpoint, queued))
            inbox.delivery = task
            self._redeliveries.add(task)
            task.add_done_callback(self._redeliveries.discard)
        # ZMQ_FD is edge-triggered and a send can consume its edge: look for input now.
        self._schedule_drain()

    async def _deliver_late(self, conv: ConversationCore, inbox: Inbox, endpoint: str, queued: float) -> None:
        """A REQUEST its host did not take at once: offered to it until `connect_wait`
        after it was queued, then to the next host (`_deliver`)."""
        loop = self._running_loop()
        try:
            if await self._offer(endpoint, conv.request, queued + self.connect_wait):
                self._book.watching(endpoint, loop.time())
            else:
                self._book.failed(endpoint, loop.time())
                await self._deliver(conv)
        except NoAnswer as e:
            inbox.fail(e)
            return
        finally:
            inbox.delivery = None
        self._deadlines.start(inbox, loop.time())

    async def _deliver(self, conv: ConversationCore) -> None:
        """Sends `conv`'s REQUEST to a host that takes it (not delivered is not sent, so
        the next host may have it); NoAnswer when none does."""
        loop = self._running_loop()
        while True:
            endpoint = self._book.choose(exclude=conv.tried, now=loop.time())
            if endpoint is None:
                raise NoAnswer(conv.host or self.endpoint, self.connect_wait, conv.request_id)
            conv.host = endpoint
            conv.tried.append(endpoint)
            if await self._offer(endpoint, conv.request):
                self._book.watching(endpoint, loop.time())
                return
            self._book.failed(endpoint, loop.time())

    async def _offer(self, endpoint: str, msg: Message, deadline: Optional[float] = None) -> bool:
        """Sends `msg` to `endpoint` if that host takes it within the connect wait (or by
        `deadline`, loop time)."""
        frames = msg.encode()
        loop = self._running_loop()
        if deadline is None:
            deadline = loop.time() + self.connect_wait
        while True:
            try:
                self._links[endpoint].send(frames, NOBLOCK)
                break
            except zmq.Again:
                if loop.time() >= deadline:
                    return False
                await asyncio.sleep(0.005)
        # ZMQ_FD is edge-triggered and a send can consume its edge: look for input now.
        self._schedule_drain()
        return True

    async def _send_to(self, conv: ConversationCore, msg: Message) -> None:
        """An ANSWER or CANCEL goes to the host that holds the request."""
        endpoint = conv.host or self.endpoint
        if not await self._offer(endpoint, msg):
            raise NoAnswer(endpoint, self.connect_wait, msg.request_id)

    # -- receiving ---------------------------------------------------------------------------

    async def _next(self, conv: ConversationCore, inbox: Inbox, wait: Optional[float] = None) -> Message:
        """The next message of `conv`; NoAnswer after `wait` seconds of silence (default:
        the request's own wait, counted from its delivery)."""
        if not inbox.messages and inbox.failure is None:
            # The loop `send` checked (asyncio's get_running_loop costs a getpid() call).
            loop = self._loop or self._running_loop()
            waiter: "asyncio.Future[None]" = loop.create_future()
            inbox.waiter = waiter
            if wait is not None:
                inbox.wait = wait
            if inbox.delivery is None:
                self._deadlines.start(inbox, loop.time())
            try:
                await waiter
            finally:
                inbox.waiter = None
        if inbox.messages:
            return inbox.messages.popleft()
        if inbox.failure is not None:
            raise inbox.failure
        raise NoAnswer(conv.host or self.endpoint, inbox.wait, conv.request_id)

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            self._deadlines.loop = loop
            for link in self._links.values():
                self._watch(link)
            self._tick_handle = loop.call_later(self._book.heartbeat, self._tick)
        elif self._loop is not loop:
            raise RuntimeError("an AsyncClient is used from one event loop only")
        return loop

    def _watch(self, link: HostLink) -> None:
        if self._loop is not None:
            socket_fd, monitor_fd = link.fds
            self._loop.add_reader(socket_fd, self._drain_link, link.endpoint)
            self._loop.add_reader(monitor_fd, self._check_link, link.endpoint)

    def _unwatch(self, link: HostLink) -> None:
        if self._loop is not None and not link.socket.closed:
            for fd in link.fds:
                self._loop.remove_reader(fd)

    def _schedule_drain(self) -> None:
        if not self._drain_due and self._loop is not None:
            self._drain_due = True
            self._loop.call_soon(self._drain_all)

    def _drain_all(self) -> None:
        self._drain_due = False
        for endpoint in list(self._links):
            self._drain_link(endpoint)

    def _drain_link(self, endpoint: str) -> None:
        """Reads every message that is there from `endpoint` and hands each to its request."""
        link = self._links.get(endpoint)
        if link is None:
            return
        sock = link.socket
        if sock.closed:
            return
        heard = False
        while True:
            # Until EAGAIN, which re-arms the edge-triggered ZMQ_FD: no ZMQ_EVENTS read per
            # message (pyzmq makes an enum of each option it reads).
            try:
                frames = recv_frames(sock, NOBLOCK)
            except zmq.Again:
                break
            if not heard and self._loop is not None:
                self._book.heard(endpoint, self._loop.time())
                heard = True
            try:
                msg, conv = self._core.route(link.packing_incoming(frames))
            except ProtocolViolation as e:
                self.malformed.append(e)
                continue
            inbox = self._inboxes.get(conv.request_id) if conv is not None else None
            if inbox is None or conv is None:
                continue
            if conv.host == endpoint:
                inbox.put(msg)
            else:  # from a host the request has left (lost, then sent elsewhere)
                self._core.stray_messages.append(msg)

    # -- watching the hosts ------------------------------------------------------------------

    def _check_link(self, endpoint: str) -> None:
        link = self._links.get(endpoint)
        if link is not None and link.dropped():
            self._lose(endpoint, "its connection dropped")

    def _tick(self) -> None:
        """HEARTBEATs to the hosts that hold open requests; a silent one is lost."""
        if self._loop is None:
            return
        now = self._loop.time()
        for endpoint in {c.host for c in self._core.open.values() if c.host is not None}:
            if self._book.silent(endpoint, now):
                self._lose(endpoint, f"silent for {self._book.heartbeat * self._book.liveness:g} s")
            elif self._book.beat_due(endpoint, now):
                try:
                    self._links[endpoint].send(_HEARTBEAT, NOBLOCK)
                except zmq.Again:
                    pass  # not connected: its silence will tell
        self._schedule_drain()
        self._tick_handle = self._loop.call_later(self._book.heartbeat / 2, self._tick)

    def _lose(self, endpoint: str, why: str) -> None:
        """`endpoint` is lost: a new connection (nothing queued for the old one goes out),
        and each request it held is sent elsewhere or ends with `host_lost`."""
        if self._loop is None:
            return
        self._book.failed(endpoint, self._loop.time())
        old = self._links.pop(endpoint)
        self._unwatch(old)
        old.close()
        self._links[endpoint] = self._new_link(endpoint)
        self._watch(self._links[endpoint])
        for conv in self._core.on_host(endpoint):
            inbox = self._inboxes.get(conv.request_id)
            if inbox is None:
                continue
            conv.host = None  # nothing more is expected from there
            if self._core.may_resend(conv):
                task = self._loop.create_task(self._redeliver(conv, inbox, endpoint, why))
                self._redeliveries.add(task)
                task.add_done_callback(self._redeliveries.discard)
            else:
                inbox.put(self._core.host_lost_message(conv, endpoint, why))

    async def _redeliver(self, conv: ConversationCore, inbox: Inbox, lost: str, why: str) -> None:
        try:
            await self._deliver(conv)
        except NoAnswer:
            inbox.put(self._core.host_lost_message(conv, lost, why))


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value
