"""Handler objects of the plugin SDK (intentbus.plugin): the `Handler` base and the plain
style. The other styles subclass `Handler` in their own modules (legacy.py,
appintents/); styles.py is the table that `Plugin.handler` looks them up in."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from ._awaitable import settle
from .context import Context
from .types import HandlerStyle, Request, Result

__all__ = ["Handler", "PlainHandler"]


class Handler:
    """The base of handler objects: one object handles one intent in one style.

    The socket loop only calls `serve` (in a worker thread) and `declaration`/
    `metadata` (for HELLO), so each style is a subclass: `LegacyHandler` dispatches on
    `request.phase` (resolve/confirm/handle), `NewStyleHandler` binds declared
    parameters and calls `perform`.
    """

    style: HandlerStyle = HandlerStyle.PLAIN

    def declaration(self, intent: str) -> Dict[str, Any]:
        """The HELLO `intents` entry for `intent`."""
        return {"name": intent, "style": self.style.value}

    def metadata(self, intent: str) -> Optional[Dict[str, Any]]:
        """What this handler adds to HELLO `metadata` for `intent` (None: nothing)."""
        return None

    def serve(self, request: Request, ctx: Context) -> Result:
        """Handles one request; runs in a worker thread. Return a `Result`; raise a
        `BusError` to answer with ERROR (its code, message and details)."""
        raise NotImplementedError


class PlainHandler(Handler):
    """A plain handler: any JSON in, any JSON out (`fn(request, ctx)`).

    `fn` returns a `Result`, or any JSON value, which becomes a `success` reply with
    that body (None becomes `{}`).
    """

    style = HandlerStyle.PLAIN

    def __init__(self, fn: Callable[[Request, Context], Any]):
        self.fn = fn

    def serve(self, request: Request, ctx: Context) -> Result:
        out = settle(self.fn(request, ctx), ctx)
        return out if isinstance(out, Result) else Result.success(out)

