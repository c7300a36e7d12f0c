"""Run-once for resent requests (intentbus.plugin): what keeps a plugin connected to
several hosts from running one idempotent request twice.

A client whose host was lost sends an idempotent request again, under the same id, to
another host (docs/protocol.md §4.10). The plugin, connected to both, then gets the
same request from two hosts under two host ids. The hosts give each delivery that runs
the request (plain, legacy `handle`, new-style perform) the same `run_key` in its header
(§5.2): the first delivery runs the handler, a repeat while it runs joins it, and a
repeat after it ended gets the first run's final answer again. Bounded: at most
`max_entries` keys and `max_bytes` of kept answers, each kept `window` seconds.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any, List, Optional, Tuple

from ..wire import Kind, Message

__all__ = ["RunOnce", "readdressed", "run_key"]

#: Longest run key taken from a header (the hosts send 64 hex digits).
_MAX_KEY = 128


def run_key(header: Any) -> Optional[str]:
    """The delivery header's `run_key`, or None when it has none (or not a usable one)."""
    key = header.get("run_key") if isinstance(header, dict) else None
    return key if isinstance(key, str) and 0 < len(key) <= _MAX_KEY else None


class _Run:
    __slots__ = ("waiters", "final", "ended_at", "size")

    def __init__(self) -> None:
        #: Repeats that joined the run: (backend index, host request id).
        self.waiters: List[Tuple[int, str]] = []
        self.final: Optional[Message] = None
        self.ended_at = 0.0
        self.size = 0


class RunOnce:
    """The runs by key. Thread-safe: the socket thread claims, workers finish."""

    def __init__(self, window: float = 600.0, max_entries: int = 4096, max_bytes: int = 16 << 20):
        self.window = window
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._runs: "OrderedDict[str, _Run]" = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def claim(self, key: str, link: int, request_id: str) -> Tuple[str, Optional[Message]]:
        """What to do with a delivery under `key`: `("run", None)` run it (it is now the
        key's run), `("join", None)` wait for the run in progress (its answer comes from
        `finish`), `("done", final)` answer with the first run's `final` (its request id
        is the first delivery's: re-address it), `("untracked", None)` run it without
        run-once (the table is full of runs in progress)."""
        with self._lock:
            self._prune(time.monotonic())
            run = self._runs.get(key)
            if run is not None:
                if run.final is None:
                    run.waiters.append((link, request_id))
                    return "join", None
                return "done", run.final
            if len(self._runs) >= self.max_entries and not self._evict_one():
                return "untracked", None
            self._runs[key] = _Run()
            return "run", None

    def finish(self, key: str, final: Message) -> List[Tuple[int, str]]:
        """The run under `key` ended with `final`: keeps it (unless it was cancelled, which
        says nothing about whether the work was done, or is too large to keep) and returns
        the repeats that joined it, each to be answered with it."""
        with self._lock:
            run = self._runs.get(key)
            if run is None:
                return []
            waiters, run.waiters = run.waiters, []
            size = len(final.header) + len(final.body)
            if _cancelled(final) or size > self.max_bytes // 4:
                del self._runs[key]
                return waiters
            run.final, run.ended_at, run.size = final, time.monotonic(), size
            self._bytes += size
            while self._bytes > self.max_bytes and self._evict_one():
                pass
            return waiters

    def drop_waiter(self, link: int, request_id: str) -> bool:
        """Removes a repeat that is waiting (its host cancelled it); whether it was one."""
        with self._lock:
            for run in self._runs.values():
                if (link, request_id) in run.waiters:
                    run.waiters.remove((link, request_id))
                    return True
        return False

    def drop_link(self, link: int) -> None:
        """A host is lost: its waiting repeats can't be answered."""
        with self._lock:
            for run in self._runs.values():
                run.waiters = [w for w in run.waiters if w[0] != link]

    def __len__(self) -> int:
        with self._lock:
            return len(self._runs)

    def _prune(self, now: float) -> None:
        stale = [k for k, r in self._runs.items() if r.final is not None and now - r.ended_at > self.window]
        for k in stale:
            self._bytes -= self._runs.pop(k).size

    def _evict_one(self) -> bool:
        """Drops the oldest ended run; False when every run is still in progress."""
        for k, r in self._runs.items():
            if r.final is not None:
                self._bytes -= r.size
                del self._runs[k]
                return True
        return False


def _cancelled(msg: Message) -> bool:
    if msg.kind is not Kind.ERROR:
        return False
    try:
        body = msg.body_json()
    except Exception:
        return False
    return isinstance(body, dict) and body.get("code") == "cancelled"


def readdressed(final: Message, request_id: str) -> Message:
    """`final` as the answer to another delivery (its own host request id)."""
    return Message(final.kind, request_id, final.intent, final.header, final.body)
