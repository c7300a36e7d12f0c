"""The asyncio client, over `zmq.asyncio`: the same requests as `Client`, awaited.

    async with AsyncClient("ipc://.intentbus/frontend.sock") as client:
        reply = await client.send("OrderCoffeeIntent", {"beverage": "latte", "size": "small"})

Any number of tasks may `send` at once on one client: one reader task owns the
receiving side and hands each message to its request's queue. Use a client from one
event loop only.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import Any, Callable, Dict, List, Optional

import zmq
import zmq.asyncio

from ..errors import NoAnswer, Unanswered
from ..results import IntermediateResult
from ..wire import Message
from .blocking import DEFAULT_TIMEOUT
from .core import ClientCore, ConversationCore
from .events import Progress, Prompt, Reply
from .transport import apply_curve, resolve_endpoint

__all__ = ["AsyncClient"]


class AsyncClient:
    """An asyncio client over one DEALER socket. See `Client` for the arguments."""

    def __init__(self, endpoint: Optional[str] = None, *, context: Optional[zmq.asyncio.Context] = None,
                 slack: float = 5.0, client_id: Optional[str] = None, client_key: Optional[str] = None,
                 server_key: Optional[str] = None):
        self.endpoint = resolve_endpoint(endpoint)
        self.slack = slack
        self._core = ClientCore(client_id)
        self._own_context = context is None
        self._context = context or zmq.asyncio.Context()
        self._socket = self._context.socket(zmq.DEALER)
        apply_curve(self._socket, client_key, server_key)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.connect(self.endpoint)
        self._queues: Dict[str, "asyncio.Queue[Message]"] = {}
        self._reader: Optional["asyncio.Task[None]"] = None

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
        """Stops the reader and closes the socket (and the context, if the client made it)."""
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
            self._reader = None
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
        queue: "asyncio.Queue[Message]" = asyncio.Queue()
        self._queues[conv.request_id] = queue
        self._ensure_reader()
        wait = (timeout if timeout is not None else DEFAULT_TIMEOUT) + self.slack
        try:
            await self._send(conv.request)
            while True:
                try:
                    msg = await asyncio.wait_for(queue.get(), wait)
                except asyncio.TimeoutError:
                    raise NoAnswer(self.endpoint, wait, conv.request_id) from None
                event = conv.receive(msg)  # raises the BusError of a final ERROR
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
                    await self._give_up(conv, queue)
                    raise Unanswered(event)
                await self._send(conv.answer_message(value))
        finally:
            self._queues.pop(conv.request_id, None)
            self._core.close(conv.request_id)

    async def ping(self, wait: float = 5.0) -> Any:
        """`ib.ping`."""
        return (await self.send("ib.ping", {}, timeout=wait)).body

    async def _give_up(self, conv: ConversationCore, queue: "asyncio.Queue[Message]") -> None:
        # Cancel, then read the final ERROR so that it does not arrive as a stray message.
        cancel = conv.cancel_message()
        if cancel is None:
            return
        await self._send(cancel)
        try:
            while not (await asyncio.wait_for(queue.get(), 2.0)).kind.is_final:
                pass
        except asyncio.TimeoutError:
            pass

    async def _send(self, msg: Message) -> None:
        await self._socket.send_multipart(msg.encode())

    def _ensure_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            frames = await self._socket.recv_multipart()
            msg, conv = self._core.route(frames)
            queue = self._queues.get(conv.request_id) if conv is not None else None
            if queue is not None:
                queue.put_nowait(msg)


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value
