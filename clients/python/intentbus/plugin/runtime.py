"""The socket side of a `Plugin` (intentbus.plugin): the socket loop, the dispatch of
host messages, and where handlers run.

One thread at a time owns the ZeroMQ sockets and runs the loop (handover.py). A handler
runs on that thread (no thread switch per request) unless `inline_handlers` is off or
the request did not come through the loop; a handler that holds the thread makes the
loop move to another. Threads other than the loop's hand their messages back through
a queue and a wake-up pipe that the loop polls beside the sockets.
"""

from __future__ import annotations

import contextvars
import logging
import os
import queue
import threading
import time
import traceback
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, cast

import zmq

from ..errors import BusError, ErrorCode, WireError
from ..frames import NOBLOCK, recv_frames, send_frames
from .backends import BackendLink
from .context import Context
from .handlers import Handler
from .handover import LoopHandover
from .process import _alive
from .run_once import RunOnce, readdressed, run_key
from .types import Request, RequestCancelled
from .workers import Workers
from ..wire import Kind, Message, canonical_json, json_type_name

if TYPE_CHECKING:
    from .api import Plugin

__all__ = ["PluginRuntime"]

_HEARTBEAT = Message.build(Kind.HEARTBEAT).encode()
_DISCONNECT = Message.build(Kind.DISCONNECT).encode()
#: How long a host that got our HELLO may take to answer before it gets another.
_HELLO_WAIT = 10.0
#: Seconds between looks at whether the host is still alive (besides PR_SET_PDEATHSIG).
_HOST_CHECK = 0.25
#: The answer to the first request of those waiting goes out at once, then the answers of
#: the next ones this many at a time (all of them once nothing more is waiting).
_SEND_BATCH = 32


class PluginRuntime:
    """The socket loop and request workers that `Plugin` inherits; `Plugin.__init__`
    sets the attributes declared here."""

    backend: str
    plugin_id: str
    host_pid: Optional[int]
    handlers: Dict[str, Handler]
    logger: logging.Logger
    _outbox: "queue.SimpleQueue[Optional[Tuple[int, Message]]]"
    _wake_r: int
    _wake_w: int
    #: Requests being handled, by (backend index, the host's request id): two hosts may
    #: use the same id.
    _live: Dict[Tuple[int, str], Context]
    _live_lock: threading.Lock
    _stop_requested: Optional[str]
    #: Runs by run key: a request resent through another host runs once (run_once.py).
    _run_once: RunOnce
    _workers: Workers
    #: Which thread runs the socket loop (handover.py).
    _handover: LoopHandover
    #: Handlers run on the loop's thread (False: always on worker threads).
    inline_handlers: bool
    #: REPLY headers by status (`_reply_header`).
    _reply_headers: Dict[str, bytes]

    def _host_gone(self) -> bool:
        """Whether the host has died: our parent changed (the kernel reparented us), or
        the host's pid is gone or a zombie."""
        if os.getppid() != getattr(self, "_parent_at_start", os.getppid()):
            return True
        return self.host_pid is not None and not _alive(self.host_pid)

    def _loop(self, links: List[BackendLink]) -> int:
        """Serves until the host disconnects (one backend) or the plugin is stopped.
        With several backends each host's loss is its own: the others go on, and the
        lost one is greeted with a new HELLO when it is back. The loop runs on a thread
        of its own, moved to another when a handler holds it (handover.py)."""
        return self._handover.run(lambda: self._serve_links(links))

    def _serve_links(self, links: List[BackendLink]) -> Optional[int]:
        """The loop on the thread that owns it: the exit code, or None once a handler
        job took this thread and the loop went on on another one."""
        several = len(links) > 1
        poller = zmq.Poller()
        poller.register(self._wake_r, zmq.POLLIN)
        for link in links:
            poller.register(link.socket, zmq.POLLIN)
            if link.monitor is not None:
                poller.register(link.monitor, zmq.POLLIN)
        owns = self._handover.owns
        next_check = 0.0
        # A loop that moved here from a thread whose handler kept it: the answers of the
        # requests read before that handler are still in the outbox. They go out now, not
        # at the next wake-up.
        self._flush(links)
        while True:
            events = dict(poller.poll(1000 if not several else 250))
            if self._wake_r in events:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
            self._flush(links)
            for link in links:
                if link.monitor is not None and link.monitor in events and link.dropped():
                    self._link_lost(link, "its connection dropped")
                if link.socket in events:
                    sock = cast("zmq.Socket[bytes]", link.socket)
                    taken = 0
                    while True:  # every message waiting, one poll for all of them
                        try:
                            frames = recv_frames(sock, NOBLOCK)
                        except zmq.Again:
                            break
                        code = self._dispatch(frames, link, several)
                        if code is not None:
                            self._flush(links)
                            return code
                        if not owns():
                            return None  # a handler kept this thread; the loop is elsewhere (and flushes)
                        # The first answer at once (one request in flight waits for nothing),
                        # then those of what was waiting together: each send after a pause
                        # wakes libzmq's I/O thread, about a fifth of the plugin's CPU per
                        # request when each answer went out on its own (docs/performance.md).
                        if taken % _SEND_BATCH == 0:
                            self._flush(links)
                        taken += 1
                    self._flush(links)
            if several:
                self._greet(links)
            if self._stop_requested is not None:
                self._flush(links)
                self.logger.info(f"disconnecting ({self._stop_requested})")
                for link in links:
                    if link.state == "ready":
                        send_frames(cast("zmq.Socket[bytes]", link.socket), _DISCONNECT)
                return 0
            now = time.monotonic()
            if now >= next_check:  # /proc is read: not at every wake-up
                next_check = now + _HOST_CHECK
                if self._host_gone():
                    self.logger.error(f"the host (pid {self.host_pid}) is gone; stopping")
                    return 3

    def _greet(self, links: List[BackendLink]) -> None:
        """HELLO to every host that is not ready: once it is connected (the socket takes
        the message), again when WELCOME does not come within the handshake time."""
        now = time.monotonic()
        for link in links:
            waited_out = link.state == "hello" and now - link.hello_at > _HELLO_WAIT
            if (link.state == "idle" and now >= link.retry_at) or waited_out:
                try:
                    send_frames(cast("zmq.Socket[bytes]", link.socket), self._hello_frames(), NOBLOCK)
                except zmq.Again:  # not connected yet
                    link.state, link.retry_at = "idle", now + 0.5
                    continue
                link.state, link.hello_at = "hello", now

    def _link_lost(self, link: BackendLink, why: str) -> None:
        """A host is gone: what it asked for can't be answered to it any more."""
        if link.state == "ready":
            self.logger.warning(f"lost the host at {link.endpoint} ({why}); greeting it again when it is back")
        link.state, link.retry_at = "idle", time.monotonic() + 0.2
        with self._live_lock:
            gone = [(key, ctx) for key, ctx in self._live.items() if key[0] == link.index]
            for key, _ in gone:
                del self._live[key]
        self._run_once.drop_link(link.index)
        for _, ctx in gone:
            if ctx._run_key is not None:
                # The client may send it again through another host: the run goes on,
                # so that the repeat joins it instead of running it a second time.
                ctx._detach(f"the host at {link.endpoint} is gone")
            else:
                ctx._cancel(f"the host at {link.endpoint} is gone")

    def _hello_frames(self) -> List[bytes]:
        raise NotImplementedError  # Plugin's

    def _flush(self, links: List[BackendLink]) -> None:
        outbox = self._outbox
        while not outbox.empty():  # only this thread takes from it
            item = outbox.get_nowait()
            if item is None:
                continue
            index, msg = item
            link = links[index]
            if msg.kind.is_final:
                with self._live_lock:
                    self._live.pop((index, msg.request_id), None)
            if link.state != "ready":
                continue  # the host that asked is gone; a new one does not know the request
            send_frames(cast("zmq.Socket[bytes]", link.socket), msg.encode())

    def _dispatch(self, frames: List[bytes], link: BackendLink, several: bool) -> Optional[int]:
        try:
            msg = Message.decode(frames)
        except WireError as e:
            self.logger.error(f"malformed message from the host at {link.endpoint}: {e}")
            return None
        sock = cast("zmq.Socket[bytes]", link.socket)
        if link.state == "hello":
            if msg.kind is Kind.WELCOME:
                link.state = "ready"
                self.logger.info(f"connected to {link.endpoint}")
            elif msg.kind is Kind.REJECT:
                body = _safe_json(msg)
                reason = body.get("reason") if isinstance(body, dict) else None
                self.logger.error(f"the host at {link.endpoint} rejected the handshake: {reason}; trying again in 30 s")
                link.state, link.retry_at = "idle", time.monotonic() + 30
            return None
        if link.state != "ready":
            return None  # a lost host's last words, before it is greeted again
        if msg.kind is Kind.REQUEST:
            self._start_request(msg, link.index, sock)
        elif msg.kind is Kind.ANSWER:
            with self._live_lock:
                ctx = self._live.get((link.index, msg.request_id))
            body = _safe_json(msg)
            if ctx is None or not ctx._deliver_answer(body):
                self.logger.warning(f"ANSWER for request {msg.request_id}, which is not waiting for one; ignored")
        elif msg.kind is Kind.CANCEL:
            with self._live_lock:
                ctx = self._live.get((link.index, msg.request_id))
            body = _safe_json(msg)
            reason = body.get("reason") if isinstance(body, dict) and isinstance(body.get("reason"), str) \
                else "cancelled"
            if ctx is not None:
                self.logger.info(f"request {msg.request_id} cancelled: {reason}")
                ctx._cancel(str(reason))
            elif self._run_once.drop_waiter(link.index, msg.request_id):
                # A repeat waiting for another delivery's run: it alone ends.
                send_frames(sock, Message.build(Kind.ERROR, msg.request_id, msg.intent, None,
                                                BusError(ErrorCode.CANCELLED, str(reason)).body).encode())
        elif msg.kind is Kind.DISCONNECT:
            if not several:
                self.logger.info("the host said DISCONNECT; stopping")
                return 0
            self._link_lost(link, "it said DISCONNECT")
        elif msg.kind is Kind.HEARTBEAT:
            # Answered on the socket thread, never by handler code: a plugin whose handlers
            # are all busy is still alive (docs/lifecycle.md).
            send_frames(sock, _HEARTBEAT)
        else:
            self.logger.warning(f"unexpected {msg.kind.value} from the host; ignored")
        return None

    def _start_request(self, msg: Message, link: int, sock: "zmq.Socket[bytes]") -> None:
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
        key = run_key(header)
        verdict = "untracked"
        if key is not None:
            verdict, final = self._run_once.claim(key, link, msg.request_id)
            if final is not None:
                self.logger.info(f"request {msg.request_id} ran already (run key {key[:12]}…): its answer again")
                send_frames(sock, readdressed(final, msg.request_id).encode())
                return
            if verdict == "join":
                self.logger.info(f"request {msg.request_id} is running already (run key {key[:12]}…): joined")
                return
        request = Request(msg.request_id, msg.intent, header, params)
        ctx = Context(request, cast("Plugin", self), link)
        if verdict == "run":
            ctx._run_key = key
        with self._live_lock:
            self._live[(link, request.id)] = ctx
        if self.inline_handlers and self._handover.owns():
            self._run_inline(handler, request, ctx)
        else:
            self._workers.submit(self._work, handler, request, ctx)

    def _run_inline(self, handler: Handler, request: Request, ctx: Context) -> None:
        """Runs a handler job on the loop's thread (handover.py): its answer goes into the
        outbox, which the loop sends right after; if the loop moved to another thread
        meanwhile, that thread is woken to send it."""
        self._handover.job_started()
        try:
            contextvars.Context().run(self._work, handler, request, ctx, False)
        finally:
            if not self._handover.job_ended():
                self._wake()

    def _work(self, handler: Handler, request: Request, ctx: Context, wake: bool = True) -> None:
        """Runs one request's handler and posts its final answer (`wake`: wake the
        loop's thread for it; not when this is that thread)."""
        try:
            result = handler.serve(request, ctx)
            if result.header:
                header = dict(result.header)
                header["status"] = result.status
                header["plugin"] = self.plugin_id
                out = Message.build(Kind.REPLY, request.id, request.intent, header, result.body)
            else:  # the usual reply header, written once
                out = Message(Kind.REPLY, request.id, request.intent, self._reply_header(result.status),
                              canonical_json(result.body))
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
        if ctx._run_key is not None:
            for waiter_link, waiter_id in self._run_once.finish(ctx._run_key, out):
                self._post(readdressed(out, waiter_id), waiter_link, wake)
        if not ctx._detached:
            self._post(out, ctx.link, wake)

    def _reply_header(self, status: str) -> bytes:
        """The REPLY header `{"plugin", "status"}` for `status`, made once per status."""
        header = self._reply_headers.get(status)
        if header is None:
            header = self._reply_headers[status] = canonical_json({"status": status, "plugin": self.plugin_id})
        return header

    def _post(self, msg: Message, link: int = 0, wake: bool = True) -> None:
        """Hands a message for the host behind backend `link` to the socket thread. Any
        thread (`wake=False` only on the loop's own thread, which flushes it next)."""
        self._outbox.put((link, msg))
        if wake:
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
