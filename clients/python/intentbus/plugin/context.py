"""The per-request `Context` of the plugin SDK (intentbus.plugin): progress, prompts
and cancellation for one request, shared between its worker thread and the socket thread."""

from __future__ import annotations

import threading
import time
import traceback
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional

from .types import Request, RequestCancelled
from ..wire import Kind, Message

if TYPE_CHECKING:
    from .api import Plugin

__all__ = ["Context"]

#: Held while a context makes its Condition.
_MAKING = threading.Lock()


class Context:
    """What a handler can do while it works on one request: report progress, ask the
    user (through the host), and notice cancellation. Thread-safe."""

    def __init__(self, request: Request, plugin: "Plugin", link: int = 0):
        self.request = request
        self.plugin = plugin
        #: Which of the plugin's hosts sent the request (its backend's index): everything
        #: about the request goes back on that connection.
        self.link = link
        self.logger = plugin.logger
        #: Made on first use (`_cond`): a Condition cost a fifth of a plain echo's Python
        #: time, and most requests never prompt, sleep or get cancelled.
        self._cond_made: Optional[threading.Condition] = None
        self._answer: Optional[Any] = None
        self._has_answer = False
        self._waiting = False
        self._cancelled: Optional[str] = None
        self._on_cancel: List[Callable[[], None]] = []
        #: The request's run key when this delivery is the key's run (run_once.py).
        self._run_key: Optional[str] = None
        #: Set when the host that sent it was lost while it ran under a run key: it runs
        #: on for a repeat from another host, but nothing goes to the lost host.
        self._detached = False

    @property
    def _cond(self) -> threading.Condition:
        cond = self._cond_made
        if cond is None:
            with _MAKING:  # the socket thread and the handler's may both ask first
                cond = self._cond_made
                if cond is None:
                    cond = self._cond_made = threading.Condition()
        return cond

    # -- progress ----------------------------------------------------------------------

    def progress(self, message: Optional[str] = None, fraction: Optional[float] = None, **extra: Any) -> None:
        """Sends a PROGRESS update (docs/protocol.md §4.5); both fields are optional."""
        if self._detached:
            return  # the host that asked is gone
        body = dict(extra)
        if message is not None:
            body["message"] = message
        if fraction is not None:
            body["fraction"] = float(fraction)
        self.plugin._post(Message.build(Kind.PROGRESS, self.request.id, self.request.intent, None, body), self.link)

    # -- prompts -----------------------------------------------------------------------

    def prompt(self, prompt: Dict[str, Any], timeout: Optional[float] = None) -> Any:
        """Asks the user: sends a PROMPT (body as in docs/protocol.md §4.4) and blocks
        until the ANSWER arrives; returns its `value`.

        Raises `RequestCancelled` when the request is cancelled meanwhile (the host
        cancels it when nobody answers within its conversation timeout), and
        `TimeoutError` when `timeout` seconds pass first. One prompt at a time per request.
        """
        with self._cond:
            if self._cancelled is not None:
                raise RequestCancelled(self._cancelled)
            if self._detached:
                raise RequestCancelled("its host is gone: a conversation can't go on elsewhere")
            if self._waiting:
                raise RuntimeError("one prompt at a time per request")
            self._waiting = True
            self._has_answer = False
        self.plugin._handover.release()  # it waits for the loop's thread: not on it
        try:
            self.plugin._post(Message.build(Kind.PROMPT, self.request.id, self.request.intent, None, prompt),
                              self.link)
            deadline = None if timeout is None else time.monotonic() + timeout
            with self._cond:
                while not self._has_answer and self._cancelled is None:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        raise TimeoutError(f"no answer within {timeout:g} s")
                    self._cond.wait(remaining)
                if self._cancelled is not None and not self._has_answer:
                    raise RequestCancelled(self._cancelled)
                answer = self._answer
        finally:
            with self._cond:
                self._waiting = False
                self._has_answer = False
        return answer.get("value") if isinstance(answer, dict) else None

    def ask_value(self, parameter: str, dialog: str, type: str = "String") -> Any:
        """Asks for a parameter's value (a `value` prompt) and returns it."""
        return self.prompt({"kind": "value", "parameter": parameter, "dialog": dialog, "type": type})

    def confirm(self, dialog: str, parameter: Optional[str] = None) -> bool:
        """Asks a yes/no question (a `confirmation` prompt); True only for a `true` answer."""
        body: Dict[str, Any] = {"kind": "confirmation", "dialog": dialog}
        if parameter is not None:
            body["parameter"] = parameter
        return self.prompt(body) is True

    def disambiguate(self, parameter: str, options: List[Dict[str, Any]], dialog: str) -> Any:
        """Asks the user to pick one of `options` (`{"id", "title", "subtitle"?}`);
        returns the chosen option's `id`."""
        return self.prompt({"kind": "disambiguation", "parameter": parameter, "dialog": dialog,
                            "options": options})

    # -- cancellation ------------------------------------------------------------------

    @property
    def cancelled(self) -> bool:
        """Whether the host cancelled this request."""
        with self._cond:
            return self._cancelled is not None

    @property
    def cancel_reason(self) -> Optional[str]:
        """Why the request was cancelled (`timeout`, `cancelled by the client`, …), or None."""
        with self._cond:
            return self._cancelled

    def check_cancelled(self) -> None:
        """Raises `RequestCancelled` if the request was cancelled: call it between steps of long work."""
        reason = self.cancel_reason
        if reason is not None:
            raise RequestCancelled(reason)

    def sleep(self, seconds: float) -> None:
        """Sleeps, but wakes and raises `RequestCancelled` as soon as the request is cancelled."""
        deadline = time.monotonic() + seconds
        self.plugin._handover.release()  # a cancellation must be read meanwhile
        with self._cond:
            while self._cancelled is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                self._cond.wait(remaining)
            raise RequestCancelled(self._cancelled)

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Calls `callback()` once when the request is cancelled (at once if it already
        is), from the plugin's socket thread: keep it short and thread-safe (set an
        event, kill a subprocess). An `async def` handler needs none of this: its task
        is cancelled for it."""
        with self._cond:
            if self._cancelled is None:
                self._on_cancel.append(callback)
                return
        callback()

    # -- called by the socket thread -----------------------------------------------------

    def _deliver_answer(self, body: Any) -> bool:
        with self._cond:
            if not self._waiting:
                return False
            self._answer = body
            self._has_answer = True
            self._cond.notify_all()
            return True

    def _detach(self, reason: str) -> None:
        """Its host is lost but its run may answer a repeat: it goes on, without a host
        (a prompt waiting for the lost host's answer ends, as cancelled)."""
        with self._cond:
            self._detached = True
            waiting = self._waiting
        if waiting:
            self._cancel(reason)

    def _cancel(self, reason: str) -> None:
        with self._cond:
            if self._cancelled is None:
                self._cancelled = reason
            callbacks, self._on_cancel = self._on_cancel, []
            self._cond.notify_all()
        for callback in callbacks:
            try:
                callback()
            except Exception:
                self.logger.error(f"an on_cancel callback of request {self.request.id} failed:\n"
                                  f"{traceback.format_exc()}", extra={"request": self.request.id})
