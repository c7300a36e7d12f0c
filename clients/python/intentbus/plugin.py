"""The plugin SDK (docs/protocol.md §5): write an IntentBus plugin in Python.

    from intentbus import Plugin

    plugin = Plugin()

    @plugin.handler("EchoIntent")
    def echo(request, ctx):
        return {"echo": request.params}

    plugin.run()

The host starts the plugin with `INTENTBUS_BACKEND`, `INTENTBUS_PLUGIN_ID`,
`INTENTBUS_TOKEN` and `INTENTBUS_HOST_PID` in its environment; `Plugin()` reads them,
`run()` connects a DEALER socket, performs HELLO → WELCOME, and serves requests.

Threading: the thread that calls `run()` owns the ZeroMQ socket and is the only one
that touches it. Each request runs in its own worker thread, so a handler may block
(on `ctx.prompt(...)`, on I/O) while other requests proceed. Workers hand their
messages back to the socket thread through a queue and a wake-up pipe that the
socket thread polls beside the socket.

Handler styles: a handler object's class decides its style (`HandlerStyle`): plain
(`PlainHandler`, here), legacy (`LegacyHandler`, intentbus.legacy: resolve → confirm →
handle) and new (`NewStyleHandler` for `AppIntent` classes, intentbus.appintents). The
socket loop is the same for all of them.

Describe mode: with `INTENTBUS_DESCRIBE=1` in the environment, `run()` prints the HELLO
declarations (`plugin`, `intents`, `metadata`) as one JSON line on stdout and exits 0
without connecting (`intentbus validate`, docs/protocol.md §9.2).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import logging
import os
import queue
import signal
import sys
import threading
import time
import traceback
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Type

import zmq

from ._awaitable import settle
from .errors import BusError, ErrorCode, WireError
from .wire import PROTOCOL_VERSION, Kind, Message, canonical_json, json_type_name

__all__ = ["Plugin", "Context", "Request", "Result", "Handler", "PlainHandler", "HandlerStyle",
           "RequestCancelled", "PluginStartError", "register_style", "HANDSHAKE_TIMEOUT"]

#: Seconds to wait for WELCOME or REJECT after HELLO (the host gives a plugin 10 s to say HELLO).
HANDSHAKE_TIMEOUT = 10.0


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


class Context:
    """What a handler can do while it works on one request: report progress, ask the
    user (through the host), and notice cancellation. Thread-safe."""

    def __init__(self, request: Request, plugin: "Plugin"):
        self.request = request
        self.plugin = plugin
        self.logger = plugin.logger
        self._cond = threading.Condition()
        self._answer: Optional[Any] = None
        self._has_answer = False
        self._waiting = False
        self._cancelled: Optional[str] = None
        self._on_cancel: List[Callable[[], None]] = []

    # -- progress ----------------------------------------------------------------------

    def progress(self, message: Optional[str] = None, fraction: Optional[float] = None, **extra: Any) -> None:
        """Sends a PROGRESS update (docs/protocol.md §4.5); both fields are optional."""
        body = dict(extra)
        if message is not None:
            body["message"] = message
        if fraction is not None:
            body["fraction"] = float(fraction)
        self.plugin._post(Message.build(Kind.PROGRESS, self.request.id, self.request.intent, None, body))

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
            if self._waiting:
                raise RuntimeError("one prompt at a time per request")
            self._waiting = True
            self._has_answer = False
        try:
            self.plugin._post(Message.build(Kind.PROMPT, self.request.id, self.request.intent, None, prompt))
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


_STYLES: Dict[HandlerStyle, Type[Handler]] = {HandlerStyle.PLAIN: PlainHandler}


def register_style(style: HandlerStyle, cls: Type[Handler]) -> None:
    """Makes `Plugin.handler(intent, style=style)` wrap functions in `cls` (for the
    legacy and new-style layers)."""
    _STYLES[HandlerStyle(style)] = cls


def _die_with_parent(host_pid: Optional[int]) -> None:
    """Asks Linux to send SIGTERM when the host dies (PR_SET_PDEATHSIG), and exits at
    once if the host is already gone, so that plugins never outlive their host."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if host_pid is not None and not _alive(host_pid):
        os._exit(0)


def _alive(pid: int) -> bool:
    """Whether `pid` still runs. A killed host stays a zombie until its own parent reaps
    it; `kill(pid, 0)` still succeeds then, so the state in /proc decides."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return stat[stat.rindex(b")") + 2:][:1] not in (b"Z", b"X")
    except (OSError, ValueError):
        return True


class JSONLogFormatter(logging.Formatter):
    """One JSON object a line, as the host's `--log-format json` writes them: `time` (ISO
    8601 UTC with the date), `level`, `label`, `message`, and `request` when the record
    carries one (`logger.info(..., extra={"request": id})`). The host relays these lines
    with the plugin's id and pid added."""

    _LEVELS = {"DEBUG": "debug", "INFO": "info", "WARNING": "warning", "ERROR": "error", "CRITICAL": "error"}

    def __init__(self, label: str):
        super().__init__()
        self.label = label

    def format(self, record: logging.LogRecord) -> str:
        moment = time.gmtime(record.created)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", moment) + f".{int(record.msecs):03d}Z"
        out: Dict[str, Any] = {"time": stamp, "level": self._LEVELS.get(record.levelname, "info"),
                               "label": self.label, "message": record.getMessage()}
        request = getattr(record, "request", None)
        if request is not None:
            out["request"] = str(request)
        if record.exc_info:
            out["message"] += "\n" + self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _logger_for(plugin_id: str) -> logging.Logger:
    logger = logging.getLogger(f"intentbus.plugin.{plugin_id}")
    if not logger.handlers:
        h = logging.StreamHandler(sys.stderr)
        if os.environ.get("INTENTBUS_LOG_FORMAT", "text").lower() == "json":
            h.setFormatter(JSONLogFormatter(plugin_id))
        else:
            h.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s [{plugin_id}] %(message)s", "%H:%M:%S"))
        logger.addHandler(h)
        logger.propagate = False
    level = os.environ.get("INTENTBUS_LOG", "info").upper()
    logger.setLevel(getattr(logging, level, logging.INFO) if level in ("DEBUG", "INFO", "WARNING", "ERROR")
                    else logging.INFO)
    return logger


class Plugin:
    """The plugin side of the bus. Register handlers, then call `run()`.

    Reads `INTENTBUS_BACKEND`, `INTENTBUS_PLUGIN_ID`, `INTENTBUS_TOKEN` and
    `INTENTBUS_HOST_PID` from `environ` (default: the process environment); keyword
    arguments override them. Registration must finish before `run()`.
    """

    def __init__(self, environ: Optional[Dict[str, str]] = None, *, plugin_id: Optional[str] = None,
                 backend: Optional[str] = None, token: Optional[str] = None,
                 metadata: Optional[Dict[str, Any]] = None):
        env = os.environ if environ is None else environ
        self.backend = backend or env.get("INTENTBUS_BACKEND", "")
        self.plugin_id = plugin_id or env.get("INTENTBUS_PLUGIN_ID", "")
        self.token = token if token is not None else env.get("INTENTBUS_TOKEN", "")
        #: Describe mode (INTENTBUS_DESCRIBE=1): print the declarations instead of connecting.
        self.describe_mode = env.get("INTENTBUS_DESCRIBE") == "1"
        if self.describe_mode and not self.plugin_id:
            self.plugin_id = "describe"
        host_pid = env.get("INTENTBUS_HOST_PID", "")
        self.host_pid: Optional[int] = int(host_pid) if host_pid.isdigit() else None
        #: Extra HELLO `metadata` (new-style declarations); handlers may add to it.
        self.metadata: Dict[str, Any] = dict(metadata or {})
        self.handlers: Dict[str, Handler] = {}
        self._new_style: Optional[Any] = None
        self.logger = _logger_for(self.plugin_id or "plugin")
        self._outbox: "queue.SimpleQueue[Optional[Message]]" = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._live: Dict[str, Context] = {}
        self._live_lock = threading.Lock()
        self._stop_requested: Optional[str] = None

    # -- registration ------------------------------------------------------------------

    def handler(self, intent: str,
                style: HandlerStyle = HandlerStyle.PLAIN) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: handles `intent` with the decorated function, wrapped in the
        handler class registered for `style` (plain: `fn(request, ctx) -> JSON | Result`)."""
        if HandlerStyle(style) is HandlerStyle.LEGACY:
            from . import legacy  # noqa: F401  (registers the legacy style)
        cls = _STYLES.get(HandlerStyle(style))
        if cls is None:
            raise NotImplementedError(f"functions can't be {HandlerStyle(style).value}-style handlers: declare an "
                                      f"AppIntent class and plugin.register() it (docs/python.md)")

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self.add(intent, cls(fn))  # type: ignore[call-arg]  # each registered style takes the function
            return fn
        return register

    def add(self, intent: str, handler: Handler) -> None:
        """Handles `intent` with a handler object (any `Handler` subclass)."""
        if not intent or intent.startswith("ib."):
            raise ValueError(f"invalid intent name {intent!r}")
        self.handlers[intent] = handler

    def register(self, item: Any) -> Any:
        """Registers a new-style intent (an `AppIntent` subclass: its handler, its
        migrated legacy name, its entity and enum types), an `EntityType` that no
        parameter uses, or an `AppShortcut` (shortcuts.py). Returns `item`, so it works
        as a class decorator."""
        from .appintents import install
        install(self, item)
        return item

    def _new_style_registry(self) -> Any:
        if self._new_style is None:
            from .appintents import NewStyleRegistry
            self._new_style = NewStyleRegistry()
        return self._new_style

    def _add_host_intent(self, intent: str, handler: Handler) -> None:
        # ib.* names are the host's; a plugin serves one only when the host forwards it (ib.entities).
        self.handlers[intent] = handler

    def hello_body(self) -> Dict[str, Any]:
        """The HELLO body (docs/protocol.md §5.1); new-style declarations go into
        `metadata.new_style` (§9.1)."""
        metadata = dict(self.metadata)
        for intent, h in sorted(self.handlers.items()):
            extra = h.metadata(intent)
            if extra:
                metadata.setdefault("intents", {})[intent] = extra
        if self._new_style is not None:
            metadata["new_style"] = self._new_style.metadata()
        return {"protocol": PROTOCOL_VERSION, "plugin": self.plugin_id, "token": self.token, "pid": os.getpid(),
                "intents": [h.declaration(i) for i, h in sorted(self.handlers.items())], "metadata": metadata}

    # -- running -----------------------------------------------------------------------

    def describe(self) -> Dict[str, Any]:
        """The declarations describe mode prints: `{"plugin", "intents", "metadata"}`."""
        hello = self.hello_body()
        return {"plugin": hello["plugin"], "intents": hello["intents"], "metadata": hello["metadata"]}

    def run(self) -> None:
        """Connects, says HELLO and serves until the host disconnects, then exits the
        process: 0 on DISCONNECT or SIGTERM, 2 when the handshake fails, 3 when the
        host process is gone. In describe mode it prints the declarations and exits 0."""
        code = self.serve()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)  # worker threads may still block in handlers; don't wait for them

    def stop(self, reason: str = "stopping") -> None:
        """Asks the socket loop to send DISCONNECT and return. Any thread; signal-safe."""
        self._stop_requested = reason
        self._wake()

    def serve(self) -> int:
        """Like `run()`, but returns the exit code instead of exiting."""
        if self.describe_mode:
            sys.stdout.write(canonical_json(self.describe()).decode("utf-8") + "\n")
            return 0
        if not self.backend or not self.plugin_id:
            self.logger.error("INTENTBUS_BACKEND and INTENTBUS_PLUGIN_ID are not set: plugins are started by "
                              "`intentbus host`, which sets them (see docs/python.md)")
            return 2
        self._parent_at_start = os.getppid()
        _die_with_parent(self.host_pid)
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self._on_sigterm)
        context = zmq.Context()
        sock = context.socket(zmq.DEALER)
        server_key = os.environ.get("INTENTBUS_SERVER_KEY")
        plugin_secret = os.environ.get("INTENTBUS_CURVE_SECRET")
        if server_key and plugin_secret:  # a CURVE backend (tcp): docs/security.md
            sock.curve_secretkey = plugin_secret.encode("ascii")
            sock.curve_publickey = zmq.curve_public(plugin_secret.encode("ascii"))
            sock.curve_serverkey = server_key.encode("ascii")
        sock.setsockopt(zmq.LINGER, 2000)
        sock.setsockopt(zmq.SNDHWM, 100_000)
        sock.setsockopt(zmq.RCVHWM, 100_000)
        try:
            sock.connect(self.backend)
            code = self._handshake(sock)
            if code is None:
                code = self._loop(sock)
            return code
        except zmq.ZMQError as e:
            self.logger.error(f"plugin stopped: {e}")
            return 2
        finally:
            with self._live_lock:
                live = list(self._live.values())
            for ctx in live:
                ctx._cancel("plugin stopping")
            # Nobody is left to read what is queued when the host is gone: don't linger.
            sock.close(linger=0 if self._host_gone() else 2000)
            context.term()

    def _host_gone(self) -> bool:
        """Whether the host has died: our parent changed (the kernel reparented us), or
        the host's pid is gone or a zombie."""
        if os.getppid() != getattr(self, "_parent_at_start", os.getppid()):
            return True
        return self.host_pid is not None and not _alive(self.host_pid)

    def _on_sigterm(self, *_: Any) -> None:
        # SIGTERM from PR_SET_PDEATHSIG: the host is gone, so there is nobody to say
        # DISCONNECT to; exit now, as a Swift plugin does (its SIGTERM is not handled).
        # Otherwise the host asks us to stop: do so gracefully.
        if self._host_gone():
            os._exit(3)
        self.stop("SIGTERM")

    def _handshake(self, sock: "zmq.Socket[bytes]") -> Optional[int]:
        sock.send_multipart(Message.build(Kind.HELLO, "", "", None, self.hello_body()).encode())
        deadline = time.monotonic() + HANDSHAKE_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.logger.error(f"no answer to HELLO from {self.backend} within {HANDSHAKE_TIMEOUT:g} s")
                return 2
            if self._stop_requested is not None:
                return 0
            if not sock.poll(int(min(remaining, 1.0) * 1000) + 1, zmq.POLLIN):
                continue
            try:
                msg = Message.decode(sock.recv_multipart())
            except WireError as e:
                self.logger.error(f"malformed answer to HELLO: {e}")
                return 2
            if msg.kind is Kind.WELCOME:
                self.logger.debug(f"connected to {self.backend}")
                return None
            if msg.kind is Kind.REJECT:
                body = _safe_json(msg)
                reason = body.get("reason") if isinstance(body, dict) else None
                code = body.get("code") if isinstance(body, dict) else None
                self.logger.error(f"host rejected the handshake ({code}): {reason}")
                return 2
            self.logger.warning(f"expected WELCOME, got {msg.kind.value}; ignored")

    def _loop(self, sock: "zmq.Socket[bytes]") -> int:
        poller = zmq.Poller()
        poller.register(sock, zmq.POLLIN)
        poller.register(self._wake_r, zmq.POLLIN)
        while True:
            events = dict(poller.poll(1000))
            if self._wake_r in events:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
            self._flush(sock)
            if sock in events:
                while True:
                    try:
                        frames = sock.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    code = self._dispatch(frames, sock)
                    if code is not None:
                        return code
            if self._stop_requested is not None:
                self._flush(sock)
                self.logger.info(f"disconnecting ({self._stop_requested})")
                sock.send_multipart(Message.build(Kind.DISCONNECT, "", "", None, None).encode())
                return 0
            if self._host_gone():
                self.logger.error(f"the host (pid {self.host_pid}) is gone; stopping")
                return 3

    def _flush(self, sock: "zmq.Socket[bytes]") -> None:
        while True:
            try:
                msg = self._outbox.get_nowait()
            except queue.Empty:
                return
            if msg is None:
                continue
            sock.send_multipart(msg.encode())
            if msg.kind.is_final:
                with self._live_lock:
                    self._live.pop(msg.request_id, None)

    def _dispatch(self, frames: List[bytes], sock: "zmq.Socket[bytes]") -> Optional[int]:
        try:
            msg = Message.decode(frames)
        except WireError as e:
            self.logger.error(f"malformed message from the host: {e}")
            return None
        if msg.kind is Kind.REQUEST:
            self._start_request(msg, sock)
        elif msg.kind is Kind.ANSWER:
            with self._live_lock:
                ctx = self._live.get(msg.request_id)
            body = _safe_json(msg)
            if ctx is None or not ctx._deliver_answer(body):
                self.logger.warning(f"ANSWER for request {msg.request_id}, which is not waiting for one; ignored")
        elif msg.kind is Kind.CANCEL:
            with self._live_lock:
                ctx = self._live.get(msg.request_id)
            body = _safe_json(msg)
            reason = body.get("reason") if isinstance(body, dict) and isinstance(body.get("reason"), str) \
                else "cancelled"
            if ctx is not None:
                self.logger.info(f"request {msg.request_id} cancelled: {reason}")
                ctx._cancel(str(reason))
        elif msg.kind is Kind.DISCONNECT:
            self.logger.info("the host said DISCONNECT; stopping")
            return 0
        elif msg.kind is Kind.HEARTBEAT:
            # Answered on the socket thread, never by handler code: a plugin whose handlers
            # are all busy is still alive (docs/lifecycle.md).
            sock.send_multipart(Message.build(Kind.HEARTBEAT, "", "", None, None).encode())
        else:
            self.logger.warning(f"unexpected {msg.kind.value} from the host; ignored")
        return None

    def _start_request(self, msg: Message, sock: "zmq.Socket[bytes]") -> None:
        handler = self.handlers.get(msg.intent)
        if handler is None:
            err = BusError(ErrorCode.PLUGIN_ERROR, f"plugin {self.plugin_id} has no handler for {msg.intent}")
            sock.send_multipart(Message.build(Kind.ERROR, msg.request_id, msg.intent, None, err.body).encode())
            return
        # The host's plain path forwards bodies unread: the parameters are checked here,
        # before any handler sees them (docs/protocol.md §5.2), as the Swift SDK does.
        try:
            header = msg.header_json()
            if not isinstance(header, dict):
                raise WireError(ErrorCode.BAD_FRAME, "the header is not a JSON object")
        except WireError as e:
            err = BusError(ErrorCode.INVALID_PARAMETERS, f"the request header is not a JSON object: {e.message}")
            sock.send_multipart(Message.build(Kind.ERROR, msg.request_id, msg.intent, None, err.body).encode())
            return
        try:
            params = msg.body_json()
            if not isinstance(params, dict):
                raise WireError(ErrorCode.BAD_FRAME, f"got {json_type_name(params)}")
        except WireError as e:
            err = BusError(ErrorCode.INVALID_PARAMETERS, f"the parameters body must be a JSON object: {e.message}")
            sock.send_multipart(Message.build(Kind.ERROR, msg.request_id, msg.intent, None, err.body).encode())
            return
        request = Request(msg.request_id, msg.intent, header, params)
        ctx = Context(request, self)
        with self._live_lock:
            self._live[request.id] = ctx
        threading.Thread(target=self._work, args=(handler, request, ctx), daemon=True,
                         name=f"{self.plugin_id}-{request.id}").start()

    def _work(self, handler: Handler, request: Request, ctx: Context) -> None:
        try:
            result = handler.serve(request, ctx)
            header = dict(result.header)
            header["status"] = result.status
            header["plugin"] = self.plugin_id
            out = Message.build(Kind.REPLY, request.id, request.intent, header, result.body)
        except RequestCancelled as e:
            self.logger.debug(f"request {request.id} ended: {e}", extra={"request": request.id})
            out = Message.build(Kind.ERROR, request.id, request.intent, None,
                                BusError(ErrorCode.CANCELLED, str(e)).body)
        except BusError as e:
            out = Message.build(Kind.ERROR, request.id, request.intent, None, e.body)
        except Exception as e:  # a handler bug must still answer the request
            self.logger.error(f"handler for {request.intent} failed on request {request.id}:\n"
                              f"{traceback.format_exc()}", extra={"request": request.id})
            out = Message.build(Kind.ERROR, request.id, request.intent, None,
                                BusError(ErrorCode.PLUGIN_ERROR, f"{type(e).__name__}: {e}").body)
        self._post(out)

    def _post(self, msg: Message) -> None:
        """Hands a message to the socket thread. Any thread."""
        self._outbox.put(msg)
        self._wake()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except (BlockingIOError, OSError):
            pass  # the pipe is full: the socket thread is already due to wake


def _safe_json(msg: Message) -> Any:
    try:
        return msg.body_json()
    except WireError:
        return {}
