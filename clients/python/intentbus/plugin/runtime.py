"""The socket side of a `Plugin` (intentbus.plugin): the loop on the socket thread, the
dispatch of host messages, and the worker threads that run handlers.

The thread that calls `Plugin.run()` owns the ZeroMQ socket and is the only one that
touches it; workers hand their messages back through a queue and a wake-up pipe that
the socket thread polls beside the socket.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import traceback
from typing import TYPE_CHECKING, Any, Dict, List, Optional, cast

import zmq

from ..errors import BusError, ErrorCode, WireError
from ..frames import NOBLOCK, recv_frames, send_frames
from .context import Context
from .handlers import Handler
from .process import _alive
from .types import Request, RequestCancelled
from .workers import Workers
from ..wire import Kind, Message, json_type_name

if TYPE_CHECKING:
    from .api import Plugin

__all__ = ["PluginRuntime"]


class PluginRuntime:
    """The socket loop and request workers that `Plugin` inherits; `Plugin.__init__`
    sets the attributes declared here."""

    backend: str
    plugin_id: str
    host_pid: Optional[int]
    handlers: Dict[str, Handler]
    logger: logging.Logger
    _outbox: "queue.SimpleQueue[Optional[Message]]"
    _wake_r: int
    _wake_w: int
    _live: Dict[str, Context]
    _live_lock: threading.Lock
    _stop_requested: Optional[str]
    _workers: Workers

    def _host_gone(self) -> bool:
        """Whether the host has died: our parent changed (the kernel reparented us), or
        the host's pid is gone or a zombie."""
        if os.getppid() != getattr(self, "_parent_at_start", os.getppid()):
            return True
        return self.host_pid is not None and not _alive(self.host_pid)

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
                        frames = recv_frames(sock, NOBLOCK)
                    except zmq.Again:
                        break
                    code = self._dispatch(frames, sock)
                    if code is not None:
                        return code
            if self._stop_requested is not None:
                self._flush(sock)
                self.logger.info(f"disconnecting ({self._stop_requested})")
                send_frames(sock, Message.build(Kind.DISCONNECT, "", "", None, None).encode())
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
            send_frames(sock, msg.encode())
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
            send_frames(sock, Message.build(Kind.HEARTBEAT, "", "", None, None).encode())
        else:
            self.logger.warning(f"unexpected {msg.kind.value} from the host; ignored")
        return None

    def _start_request(self, msg: Message, sock: "zmq.Socket[bytes]") -> None:
        handler = self.handlers.get(msg.intent)
        if handler is None:
            err = BusError(ErrorCode.PLUGIN_ERROR, f"plugin {self.plugin_id} has no handler for {msg.intent}")
            send_frames(sock, Message.build(Kind.ERROR, msg.request_id, msg.intent, None, err.body).encode())
            return
        # The host's plain path forwards bodies unread: the parameters are checked here,
        # before any handler sees them (docs/protocol.md §5.2), as the Swift SDK does.
        try:
            header = msg.header_json()
            if not isinstance(header, dict):
                raise WireError(ErrorCode.BAD_FRAME, "the header is not a JSON object")
        except WireError as e:
            err = BusError(ErrorCode.INVALID_PARAMETERS, f"the request header is not a JSON object: {e.message}")
            send_frames(sock, Message.build(Kind.ERROR, msg.request_id, msg.intent, None, err.body).encode())
            return
        try:
            params = msg.body_json()
            if not isinstance(params, dict):
                raise WireError(ErrorCode.BAD_FRAME, f"got {json_type_name(params)}")
        except WireError as e:
            err = BusError(ErrorCode.INVALID_PARAMETERS, f"the parameters body must be a JSON object: {e.message}")
            send_frames(sock, Message.build(Kind.ERROR, msg.request_id, msg.intent, None, err.body).encode())
            return
        request = Request(msg.request_id, msg.intent, header, params)
        ctx = Context(request, cast("Plugin", self))
        with self._live_lock:
            self._live[request.id] = ctx
        self._workers.submit(self._work, handler, request, ctx)

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
