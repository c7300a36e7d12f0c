"""The asyncio client: the same requests as `Client`, awaited.

    async with AsyncClient("ipc://.intentbus/frontend.sock") as client:
        reply = await client.send("OrderCoffeeIntent", {"beverage": "latte", "size": "small"})

Any number of tasks may `send` at once on one client. The socket is a plain pyzmq
DEALER read from the event loop itself (`add_reader` on its `ZMQ_FD`): each time it
becomes readable every waiting message is read and handed to its request, so there is
no reader task and no future per frame (zmq.asyncio's way cost about half of this
client's CPU per request). Use a client from one event loop only.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import deque
from typing import Any, Callable, Deque, Dict, List, Optional, cast

import zmq

from ..errors import NoAnswer, ProtocolViolation, Unanswered
from ..frames import NOBLOCK, recv_frames, send_frames
from ..results import IntermediateResult
from ..wire import Message
from .blocking import DEFAULT_TIMEOUT
from .core import ClientCore, ConversationCore
from .events import Progress, Prompt, Reply
from .transport import apply_curve, resolve_endpoint

__all__ = ["AsyncClient"]

_EVENTS = int(zmq.EVENTS)
_POLLIN = int(zmq.POLLIN)


class _Inbox:
    """What arrived for one request, and the future its `send` waits on."""

    __slots__ = ("messages", "waiter")

    def __init__(self) -> None:
        self.messages: Deque[Message] = deque()
        self.waiter: Optional["asyncio.Future[None]"] = None


class AsyncClient:
    """An asyncio client over one DEALER socket. See `Client` for the arguments
    (`context` may be any pyzmq context)."""

    def __init__(self, endpoint: Optional[str] = None, *, context: Optional[zmq.Context[Any]] = None,
                 slack: float = 5.0, client_id: Optional[str] = None, client_key: Optional[str] = None,
                 server_key: Optional[str] = None):
        self.endpoint = resolve_endpoint(endpoint)
        self.slack = slack
        self._core = ClientCore(client_id)
        self._own_context = context is None
        self._context: zmq.Context[Any] = context or zmq.Context()
        self._socket: zmq.Socket[Any] = zmq.Socket(self._context, zmq.DEALER)
        apply_curve(self._socket, client_key, server_key)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.connect(self.endpoint)
        self._fd = cast(int, self._socket.getsockopt(zmq.FD))
        self._inboxes: Dict[str, _Inbox] = {}
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._drain_due = False
        #: Messages from the host that were not IB1 (kept; the requests go on).
        self.malformed: List[ProtocolViolation] = []

    @property
    def client_id(self) -> Optional[str]:
        """The stable client identity sent with every request (None: the connection's own)."""
        return self._core.client_id

    @client_id.setter
    def client_id(self, value: Optional[str]) -> None:
        self._core.client_id = value

    @property
    def stray_messages(self) -> List[Message]:
        """Messages for requests that had already ended (see `Client.stray_messages`)."""
        return self._core.stray_messages

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        """Stops reading and closes the socket (and the context, if the client made it)."""
        if self._loop is not None and not self._socket.closed:
            self._loop.remove_reader(self._fd)
        self._loop = None
        if not self._socket.closed:
            self._socket.close(linger=0)
        if self._own_context:
            self._context.term()

    async def send(self, intent: str, params: Optional[Dict[str, Any]] = None, *, timeout: Optional[float] = None,
                   plugin: Optional[str] = None, choice: Optional[str] = None, remember: bool = False,
                   client_id: Optional[str] = None, credential: Optional[str] = None,
                   on_prompt: Optional[Callable[[Prompt], Any]] = None,
                   on_progress: Optional[Callable[[Progress], Any]] = None,
                   on_result: Optional[Callable[[IntermediateResult], Any]] = None) -> Reply:
        """Like `Client.send`; `on_prompt`, `on_progress` and `on_result` may be plain
        functions or coroutine functions."""
        conv: ConversationCore = self._core.start(intent, params, timeout=timeout, plugin=plugin, choice=choice,
                                                  remember=remember, client_id=client_id, credential=credential)
        inbox = self._inboxes[conv.request_id] = _Inbox()
        wait = (timeout if timeout is not None else DEFAULT_TIMEOUT) + self.slack
        try:
            await self._send(conv.request)
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
                await self._send(conv.answer_message(value))
        finally:
            self._inboxes.pop(conv.request_id, None)
            self._core.close(conv.request_id)

    async def ping(self, wait: float = 5.0) -> Any:
        """`ib.ping`."""
        return (await self.send("ib.ping", {}, timeout=wait)).body

    async def _give_up(self, conv: ConversationCore, inbox: _Inbox) -> None:
        # Cancel, then read the final ERROR so that it does not arrive as a stray message.
        cancel = conv.cancel_message()
        if cancel is None:
            return
        await self._send(cancel)
        try:
            while not (await self._next(conv, inbox, 2.0)).kind.is_final:
                pass
        except NoAnswer:
            pass

    async def _next(self, conv: ConversationCore, inbox: _Inbox, wait: float) -> Message:
        """The next message of `conv`; NoAnswer after `wait` seconds of silence."""
        if not inbox.messages:
            loop = self._running_loop()
            waiter: "asyncio.Future[None]" = loop.create_future()
            inbox.waiter = waiter
            timer = loop.call_later(wait, _wake, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                inbox.waiter = None
            if not inbox.messages:
                raise NoAnswer(self.endpoint, wait, conv.request_id)
        return inbox.messages.popleft()

    async def _send(self, msg: Message) -> None:
        # A DEALER with no connected peer (no host, or a refused CURVE handshake) takes
        # nothing: retry for `slack`, then NoAnswer, as the blocking client does.
        frames = msg.encode()
        loop = self._running_loop()
        deadline = loop.time() + max(0.1, self.slack)
        while True:
            try:
                send_frames(self._socket, frames, NOBLOCK)
                break
            except zmq.Again:
                if loop.time() >= deadline:
                    raise NoAnswer(self.endpoint, self.slack, msg.request_id) from None
                await asyncio.sleep(0.005)
        # ZMQ_FD is edge-triggered and a send can consume its edge: look for input now.
        self._schedule_drain()

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            loop.add_reader(self._fd, self._drain)
        elif self._loop is not loop:
            raise RuntimeError("an AsyncClient is used from one event loop only")
        return loop

    def _schedule_drain(self) -> None:
        if not self._drain_due and self._loop is not None:
            self._drain_due = True
            self._loop.call_soon(self._drain)

    def _drain(self) -> None:
        """Reads every message that is there and hands each to its request."""
        self._drain_due = False
        sock = self._socket
        while not sock.closed and cast(int, sock.getsockopt(_EVENTS)) & _POLLIN:
            try:
                frames = recv_frames(sock, NOBLOCK)
            except zmq.Again:
                return
            try:
                msg, conv = self._core.route(frames)
            except ProtocolViolation as e:
                self.malformed.append(e)
                continue
            inbox = self._inboxes.get(conv.request_id) if conv is not None else None
            if inbox is not None:
                inbox.messages.append(msg)
                if inbox.waiter is not None and not inbox.waiter.done():
                    inbox.waiter.set_result(None)


def _wake(waiter: "asyncio.Future[None]") -> None:
    if not waiter.done():
        waiter.set_result(None)


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value
