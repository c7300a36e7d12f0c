"""The worker threads that run a plugin's handlers (intentbus.plugin).

A request runs on a worker thread of its own while it runs, so a handler may block (on
`ctx.prompt(...)`, on I/O) while other requests go on. Starting a thread per request
cost about 120 µs of CPU in CPython, most of a plain echo's cost, so workers are kept:
a request goes to an idle worker, or to a new one when every worker is busy (requests
never wait for each other), and a worker idle for `idle_seconds` ends. Each job runs in
a fresh `contextvars` context, as it did on a thread of its own.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from typing import Any, Callable, Tuple

__all__ = ["Workers"]

Job = Tuple[Callable[..., Any], Tuple[Any, ...]]


class Workers:
    """Reused worker threads; `submit` never waits."""

    def __init__(self, name: str, idle_seconds: float = 10.0):
        self.name = name
        self.idle_seconds = idle_seconds
        self._jobs: "queue.SimpleQueue[Job]" = queue.SimpleQueue()
        self._lock = threading.Lock()
        #: Workers waiting for a job that no `submit` has claimed yet.
        self._idle = 0
        #: Workers alive (busy or idle).
        self.count = 0

    def submit(self, fn: Callable[..., Any], *args: Any) -> None:
        """Runs `fn(*args)` on an idle worker, or on a new one when none is idle."""
        with self._lock:
            if self._idle > 0:
                self._idle -= 1  # that worker's next `get` takes this job
                start = False
            else:
                self.count += 1
                start = True
        self._jobs.put((fn, args))
        if start:
            threading.Thread(target=self._run, daemon=True, name=f"{self.name}-worker-{self.count}").start()

    def _run(self) -> None:
        while True:
            try:
                fn, args = self._jobs.get(timeout=self.idle_seconds)
            except queue.Empty:
                with self._lock:
                    if self._idle > 0:  # nobody claimed this worker: it may end
                        self._idle -= 1
                        self.count -= 1
                        return
                continue  # a submit claimed this worker just now: its job is on the way
            contextvars.Context().run(fn, *args)
            with self._lock:
                self._idle += 1
