"""The `Plugin` class of the plugin SDK (docs/protocol.md §5): write an IntentBus plugin in Python.

    from intentbus import Plugin

    plugin = Plugin()

    @plugin.handler("EchoIntent")
    def echo(request, ctx):
        return {"echo": request.params}

    plugin.run()

The host starts the plugin with `INTENTBUS_BACKEND`, `INTENTBUS_PLUGIN_ID`,
`INTENTBUS_TOKEN` and `INTENTBUS_HOST_PID` in its environment; `Plugin()` reads them,
`run()` connects a DEALER socket, performs HELLO → WELCOME, and serves requests.

Threading: one thread at a time owns the ZeroMQ socket and runs the socket loop (the
thread that calls `run()` waits for it). Handlers run on that thread by default, with
no thread switch per request; a handler that blocks (on `ctx.prompt(...)`, on I/O) or
computes for more than 10–20 ms keeps its thread and the loop goes on on a new one
(handover.py), so other requests and heartbeats proceed. With `inline_handlers=False`
each request runs on a worker thread instead (workers.py reuses them). Threads other
than the loop's hand their messages to it through a queue and a wake-up pipe that the
loop polls beside the socket.

Handler styles: a handler object's class decides its style (`HandlerStyle`): plain
(`PlainHandler`, handlers.py), legacy (`LegacyHandler`, legacy.py: resolve → confirm →
handle) and new (`NewStyleHandler` for `AppIntent` classes, appintents/). The socket
loop (runtime.py) is the same for all of them; styles.py maps a style to its class.

Describe mode: with `INTENTBUS_DESCRIBE=1` in the environment, `run()` prints the HELLO
declarations (`plugin`, `intents`, `metadata`) as one JSON line on stdout and exits 0
without connecting (`intentbus validate`, docs/protocol.md §9.2).
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from typing import Any, Callable, Dict, Optional, Tuple

import zmq

from ..errors import WireError
from ..frames import recv_frames, send_frames
from ..wire import PROTOCOL_VERSION, Kind, Message, canonical_json
from .appintents import NewStyleRegistry, install
from .backends import backend_links
from .context import Context
from .handlers import Handler
from .handover import LoopHandover
from .log_format import _logger_for
from .process import _die_with_parent
from .run_once import RunOnce
from .runtime import PluginRuntime, _safe_json
from .styles import STYLES
from .types import HandlerStyle
from .workers import Workers

__all__ = ["Plugin", "HANDSHAKE_TIMEOUT"]

#: Seconds to wait for WELCOME or REJECT after HELLO (the host gives a plugin 10 s to say HELLO).
HANDSHAKE_TIMEOUT = 10.0


class Plugin(PluginRuntime):
    """The plugin side of the bus. Register handlers, then call `run()`.

    Reads `INTENTBUS_BACKEND`, `INTENTBUS_PLUGIN_ID`, `INTENTBUS_TOKEN` and
    `INTENTBUS_HOST_PID` from `environ` (default: the process environment); keyword
    arguments override them. Registration must finish before `run()`.
    """

    def __init__(self, environ: Optional[Dict[str, str]] = None, *, plugin_id: Optional[str] = None,
                 backend: Optional[str] = None, token: Optional[str] = None,
                 metadata: Optional[Dict[str, Any]] = None, inline_handlers: bool = True):
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
        self._outbox: "queue.SimpleQueue[Optional[Tuple[int, Message]]]" = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._live: Dict[Tuple[int, str], Context] = {}
        self._live_lock = threading.Lock()
        self._run_once = RunOnce()
        self._stop_requested: Optional[str] = None
        self._workers = Workers(self.plugin_id or "plugin")
        #: Handlers run on the socket loop's thread, which moves to another thread when one
        #: of them holds it (handover.py); False: every request on a worker thread.
        self.inline_handlers = inline_handlers
        self._handover = LoopHandover(self.plugin_id or "plugin")
        self._reply_headers: Dict[str, bytes] = {}

    # -- registration ------------------------------------------------------------------

    def handler(self, intent: str,
                style: HandlerStyle = HandlerStyle.PLAIN) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: handles `intent` with the decorated function, wrapped in the
        handler class registered for `style` (plain: `fn(request, ctx) -> JSON | Result`)."""
        cls = STYLES.handler_class(style)

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
        install(self, item)
        return item

    def _new_style_registry(self) -> Any:
        if self._new_style is None:
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

    def _hello_frames(self) -> "list[bytes]":
        return Message.build(Kind.HELLO, "", "", None, self.hello_body()).encode()

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
        try:
            links = backend_links(self.backend, os.environ.get("INTENTBUS_SERVER_KEY"),
                                  os.environ.get("INTENTBUS_CURVE_SECRET"))
        except ValueError as e:
            self.logger.error(str(e))
            return 2
        context = zmq.Context()
        try:
            for link in links:
                link.open(context, several=len(links) > 1)
            if len(links) == 1:  # the host that spawned us, or one remote host: it must answer
                code = self._handshake(links[0].socket)  # type: ignore[arg-type]
                if code is not None:
                    return code
                links[0].state = "ready"
            return self._loop(links)
        except zmq.ZMQError as e:
            self.logger.error(f"plugin stopped: {e}")
            return 2
        finally:
            with self._live_lock:
                live = list(self._live.values())
            for ctx in live:
                ctx._cancel("plugin stopping")
            # Nobody is left to read what is queued when the host is gone: don't linger.
            for link in links:
                link.close(0 if self._host_gone() else 2000)
            context.term()

    def _on_sigterm(self, *_: Any) -> None:
        # SIGTERM from PR_SET_PDEATHSIG: the host is gone, so there is nobody to say
        # DISCONNECT to; exit now, as a Swift plugin does (its SIGTERM is not handled).
        # Otherwise the host asks us to stop: do so gracefully.
        if self._host_gone():
            os._exit(3)
        self.stop("SIGTERM")

    def _handshake(self, sock: "zmq.Socket[bytes]") -> Optional[int]:
        send_frames(sock, self._hello_frames())
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
                msg = Message.decode(recv_frames(sock))
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

