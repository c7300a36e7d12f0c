"""Which thread runs a plugin's socket loop (intentbus.plugin), and the watcher that moves
the loop off a thread whose handler holds it.

Handlers run on the socket loop's own thread by default: a request handed to a worker
thread and its answer handed back cost two thread switches, a queue each way and a
wake-up pipe, which in CPython was most of a plain echo's CPU and, with the GIL passed
between threads at every ZeroMQ call, most of its latency (docs/performance.md, "The
Python SDK"). A handler may still block or compute: when one job has held the loop's
thread for a full tick of the watcher (10–20 ms), or at once when the handler is about
to block on the host (`ctx.prompt`, `ctx.sleep`), the loop goes on on a new thread and
the handler keeps the old one to itself; its answer goes out through the outbox, as a
worker's does. So heartbeats are still answered and other requests still served, as
the Swift SDK's `LoopHandover` does.

Only the thread that owns the loop touches the sockets. Ownership moves only while the
owner is inside a handler job (under `_lock`), and a thread that lost it leaves the
loop as soon as that job ends.
"""

from __future__ import annotations

import threading
from typing import Callable, Optional

__all__ = ["LoopHandover"]


class LoopHandover:
    """Runs `loop()` on a thread of its own, and on another when a handler job holds that
    one. `loop()` returns the plugin's exit code, or None when its thread lost the loop
    (`owns()` turned false after a job)."""

    def __init__(self, name: str, tick: float = 0.01):
        self.name = name
        #: How often the watcher looks; a job seen running at two looks in a row moves the loop.
        self.tick = tick
        self._lock = threading.Lock()
        self._owner: Optional[int] = None
        self._job_seq = 0
        self._job_running = False
        #: Set while jobs run (the watcher sleeps otherwise: no wake-ups of an idle plugin).
        self._busy = threading.Event()
        self._done = threading.Event()
        self._code = 0
        self._error: Optional[BaseException] = None
        self._loop: Optional[Callable[[], Optional[int]]] = None
        #: Loop threads started so far (the first one included).
        self.threads = 0

    def run(self, loop: Callable[[], Optional[int]]) -> int:
        """Runs `loop` until it returns a code on whichever thread owns it; returns that
        code (re-raises what the loop raised). The calling thread only waits."""
        self._loop = loop
        self._done.clear()
        with self._lock:
            self._start_locked()
        watcher = threading.Thread(target=self._watch, daemon=True, name=f"{self.name}-watcher")
        watcher.start()
        try:
            while not self._done.wait(1.0):  # with a timeout: signals reach the main thread
                pass
        finally:
            with self._lock:
                self._owner = None
            self._busy.set()  # lets the watcher see that it is over
        if self._error is not None:
            raise self._error
        return self._code

    def owns(self) -> bool:
        """Whether the calling thread runs the loop (the sockets are its)."""
        return self._owner == threading.get_ident()

    def job_started(self) -> None:
        """The loop's thread starts a handler job."""
        with self._lock:
            self._job_seq += 1
            self._job_running = True
            if not self._busy.is_set():
                self._busy.set()

    def job_ended(self) -> bool:
        """The loop's thread ended a handler job: whether it still owns the loop."""
        with self._lock:
            if self._owner != threading.get_ident():
                return False
            self._job_running = False
            return True

    def release(self) -> None:
        """Called by a handler about to block (on a prompt's answer, a sleep): when it
        runs on the loop's thread, the loop moves to another thread now."""
        with self._lock:
            if self._job_running and self._owner == threading.get_ident():
                self._start_locked()

    # -- the loop's threads ----------------------------------------------------------------

    def _start_locked(self) -> None:
        self._job_running = False
        self._owner = None  # until the new thread says it runs
        self.threads += 1
        threading.Thread(target=self._thread_main, daemon=True, name=f"{self.name}-loop-{self.threads}").start()

    def _thread_main(self) -> None:
        with self._lock:
            if self._done.is_set() or self._owner is not None:
                return
            self._owner = threading.get_ident()
        assert self._loop is not None
        try:
            code = self._loop()
        except BaseException as e:  # the caller of run() re-raises it
            self._error, code = e, 2
        if code is not None:
            self._code = code
            self._done.set()

    def _watch(self) -> None:
        running = -1  # the job seen running at the last look
        last = -1  # the last job seen at all
        quiet = 0
        while not self._done.is_set():
            self._busy.wait()
            if self._done.wait(self.tick):
                return
            with self._lock:
                if self._job_running:
                    if self._job_seq == running:
                        self._start_locked()  # the same job for a whole tick: the loop goes on elsewhere
                        running = -1
                        continue
                    running = self._job_seq
                else:
                    running = -1
                quiet = quiet + 1 if self._job_seq == last else 0
                last = self._job_seq
                if quiet >= 50:  # half a second without a new job: sleep until the next one
                    self._busy.clear()
                    quiet = 0
