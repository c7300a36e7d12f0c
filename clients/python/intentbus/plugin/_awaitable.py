"""Async handlers: a handler (or a new-style `perform`) that is `async def` runs as an
asyncio task in an event loop of its own, on the request's worker thread, and that task
is cancelled when the host cancels the request (docs/python.md, "Cancellation").

A sync handler has the same information without asyncio: `ctx.cancelled`, which it can
poll, `ctx.check_cancelled()`, `ctx.sleep()`, and `ctx.on_cancel(callback)`.
"""

from __future__ import annotations

import asyncio
import inspect
from typing import TYPE_CHECKING, Any, Awaitable, Coroutine

from .types import RequestCancelled, Result

if TYPE_CHECKING:
    from .context import Context


_PLAIN = (dict, list, str, int, float, bool, Result)


def settle(value: Any, ctx: "Context") -> Any:
    """`value` itself, or, when it is awaitable (what an `async def` handler returns),
    the result of running it to completion, cancelled along with the request."""
    if value is None or type(value) in _PLAIN or not inspect.isawaitable(value):
        return value  # (what a plain handler returns: no ABC check for it)
    return run_cancellable(value, ctx)


def run_cancellable(awaitable: Awaitable[Any], ctx: "Context") -> Any:
    """Runs `awaitable` as a task in a new event loop on this thread until it ends. When
    the request is cancelled the task is cancelled (`asyncio.CancelledError` inside it,
    at its next `await`); if it lets that propagate, `RequestCancelled` is raised here
    and the SDK answers `cancelled`."""
    loop = asyncio.new_event_loop()
    try:
        async def wrapper() -> Any:
            return await awaitable

        coroutine: Coroutine[Any, Any, Any] = wrapper()
        task = loop.create_task(coroutine)

        def cancel_task() -> None:
            # Called from the socket thread: the loop is only touched through this call.
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:
                pass  # the loop has already closed: the task is over

        ctx.on_cancel(cancel_task)
        try:
            return loop.run_until_complete(task)
        except asyncio.CancelledError:
            raise RequestCancelled(ctx.cancel_reason or "cancelled") from None
    finally:
        try:
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()
