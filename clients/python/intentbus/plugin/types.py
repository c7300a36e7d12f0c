"""The plugin SDK's value types (intentbus.plugin): handler styles, the request a
handler sees, the result it returns, and the exceptions of the plugin side."""

from __future__ import annotations

from enum import Enum
from typing import Any, Dict, Optional

__all__ = ["HandlerStyle", "PluginStartError", "RequestCancelled", "Request", "Result"]


class HandlerStyle(str, Enum):
    """How a plugin handles an intent (HELLO `style`, docs/protocol.md §5.1)."""

    PLAIN = "plain"
    LEGACY = "legacy"
    NEW = "new"

    def __str__(self) -> str:
        return self.value


class PluginStartError(Exception):
    """The plugin cannot start talking to its host (missing environment, rejected HELLO)."""


class RequestCancelled(Exception):
    """Raised out of `Context.prompt` (and `Context.check_cancelled`) when the host
    cancelled the request: the client cancelled, it timed out, or the host is stopping."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"request cancelled: {reason}")


class Request:
    """A request as a handler sees it (docs/protocol.md §5.2)."""

    __slots__ = ("id", "intent", "header", "params")

    def __init__(self, id: str, intent: str, header: Dict[str, Any], params: Any):
        #: The host's request id; everything sent about this request carries it.
        self.id = id
        self.intent = intent
        #: The delivery header: `phase`, `client`, `style`, … (unknown keys may appear).
        self.header = header
        #: The parameters (the request body), any JSON; usually an object.
        self.params = params

    @property
    def phase(self) -> Optional[str]:
        """The legacy phase (`resolve`, `confirm`, `handle`), if the host sent one."""
        p = self.header.get("phase")
        return p if isinstance(p, str) else None

    @property
    def client(self) -> Optional[str]:
        """The client identity the client gave, if any."""
        c = self.header.get("client")
        return c if isinstance(c, str) else None

    @property
    def context(self) -> Dict[str, Any]:
        """The request's context (`{"area": "Kitchen"}`, docs/protocol.md §4.1); empty when
        the client gave none."""
        c = self.header.get("context")
        return dict(c) if isinstance(c, dict) else {}

    @property
    def style(self) -> Optional[str]:
        """The handler style the host delivered this request for, if it said."""
        s = self.header.get("style")
        return s if isinstance(s, str) else None

    def __repr__(self) -> str:
        return f"Request({self.id!r}, {self.intent!r}, params={self.params!r})"


class Result:
    """A handler's final answer: REPLY with `status` (`success` or `failure`), a body,
    and extra header fields beside `status` and `plugin`."""

    __slots__ = ("status", "body", "header")

    def __init__(self, status: str = "success", body: Any = None, header: Optional[Dict[str, Any]] = None):
        if status not in ("success", "failure"):
            raise ValueError('status is "success" or "failure"')
        self.status = status
        self.body = {} if body is None else body
        self.header = dict(header or {})

    @classmethod
    def success(cls, body: Any = None, **header: Any) -> "Result":
        """A successful reply."""
        return cls("success", body, header)

    @classmethod
    def failure(cls, body: Any = None, **header: Any) -> "Result":
        """A reply that says the intent failed (the request itself was handled)."""
        return cls("failure", body, header)
