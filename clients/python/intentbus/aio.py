"""The asyncio client, over `zmq.asyncio`: the same requests as `Client`, awaited.

    async with AsyncClient("ipc://.intentbus/frontend.sock") as client:
        reply = await client.send("OrderCoffeeIntent", {"beverage": "latte", "size": "small"})

Any number of tasks may `send` at once on one client: one reader task owns the
receiving side and hands each message to its request's queue. Use a client from one
event loop only.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import itertools
import secrets
from typing import Any, Callable, Dict, List, Optional

import zmq
import zmq.asyncio

from .client import (DEFAULT_TIMEOUT, Answer, Progress, Prompt, Reply, apply_curve, request_header,
                     resolve_endpoint, route_incoming, to_event)
from .errors import NoAnswer, Unanswered
from .results import IntermediateResult
from .wire import Kind, Message

__all__ = ["AsyncClient"]


class AsyncClient:
    """An asyncio client over one DEALER socket. See `Client` for the arguments."""

    def __init__(self, endpoint: Optional[str] = None, *, context: Optional[zmq.asyncio.Context] = None,
                 slack: float = 5.0, client_id: Optional[str] = None, client_key: Optional[str] = None,
                 server_key: Optional[str] = None):
        self.endpoint = resolve_endpoint(endpoint)
        self.slack = slack
        self.client_id = client_id
        self._own_context = context is None
        self._context = context or zmq.asyncio.Context()
        self._socket = self._context.socket(zmq.DEALER)
        apply_curve(self._socket, client_key, server_key)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.connect(self.endpoint)
        self._prefix = secrets.token_hex(4)
        self._counter = itertools.count(1)
        self._queues: Dict[str, "asyncio.Queue[Message]"] = {}
        self._reader: Optional["asyncio.Task[None]"] = None
        #: Messages for requests that had already ended (see `Client.stray_messages`).
        self.stray_messages: List[Message] = []

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
                   locale: Optional[str] = None, context: Optional[Dict[str, Any]] = None,
                   on_prompt: Optional[Callable[[Prompt], Any]] = None,
                   on_progress: Optional[Callable[[Progress], Any]] = None,
                   on_result: Optional[Callable[[IntermediateResult], Any]] = None) -> Reply:
        """Like `Client.send`; `on_prompt`, `on_progress` and `on_result` may be plain
        functions or coroutine functions."""
        header = request_header(timeout, plugin, choice, remember,
                                client_id if client_id is not None else self.client_id, credential, locale, context)
        rid = f"{self._prefix}-{next(self._counter)}"
        queue: "asyncio.Queue[Message]" = asyncio.Queue()
        self._queues[rid] = queue
        self._ensure_reader()
        wait = (timeout if timeout is not None else DEFAULT_TIMEOUT) + self.slack
        earlier: List[IntermediateResult] = []
        try:
            await self._send(Message.build(Kind.REQUEST, rid, intent, header, {} if params is None else params))
            while True:
                try:
                    msg = await asyncio.wait_for(queue.get(), wait)
                except asyncio.TimeoutError:
                    raise NoAnswer(self.endpoint, wait, rid) from None
                if msg.kind is Kind.REFUSED:
                    continue  # not final: a message of ours was not taken; the request goes on
                event = to_event(msg, rid, intent)  # raises the BusError of a final ERROR
                if isinstance(event, Reply):
                    return dataclasses.replace(event, earlier=tuple(earlier)) if earlier else event
                if isinstance(event, Progress):
                    if on_progress is not None:
                        await _maybe_await(on_progress(event))
                    continue
                if isinstance(event, IntermediateResult):
                    earlier.append(event)  # not final: the opened intent's answer follows
                    if on_result is not None:
                        await _maybe_await(on_result(event))
                    continue
                value = await _maybe_await(on_prompt(event)) if on_prompt is not None else None
                if value is None:
                    await self._send(Message.build(Kind.CANCEL, rid, "", None, None))
                    try:
                        while not (await asyncio.wait_for(queue.get(), 2.0)).kind.is_final:
                            pass
                    except asyncio.TimeoutError:
                        pass
                    raise Unanswered(event)
                body = value.body if isinstance(value, Answer) else {"value": value}
                await self._send(Message.build(Kind.ANSWER, rid, intent, None, body))
        finally:
            self._queues.pop(rid, None)

    async def ping(self, wait: float = 5.0) -> Any:
        """`ib.ping`."""
        return (await self.send("ib.ping", {}, timeout=wait)).body

    async def _send(self, msg: Message) -> None:
        await self._socket.send_multipart(msg.encode())

    def _ensure_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            frames = await self._socket.recv_multipart()
            msg, key = route_incoming(frames, self._queues)
            if key is None:
                self.stray_messages.append(msg)
            else:
                self._queues[key].put_nowait(msg)


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value
