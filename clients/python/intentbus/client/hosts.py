"""Which hosts a client knows and which one a request goes to (docs/protocol.md §4.10),
without I/O: the drivers (blocking.py) tell it what they heard and when a host failed.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Union

__all__ = ["HostBook", "resolve_endpoints", "READ_ONLY_HOST_INTENTS"]

#: Host intents that change nothing: always safe to send again to another host.
READ_ONLY_HOST_INTENTS = frozenset({
    "ib.ping", "ib.status", "ib.metrics", "ib.plugins", "ib.explain", "ib.logs", "ib.choices.list",
    "ib.shortcuts.list", "ib.donations.list", "ib.suggestions"})


def resolve_endpoints(endpoint: Union[None, str, Sequence[str]]) -> List[str]:
    """The hosts' frontends: a list, or one string of endpoints separated by commas, else
    INTENTBUS_ENDPOINT (which may hold several: `A,B`). Order kept, repeats dropped."""
    if endpoint is None or endpoint == "" or (not isinstance(endpoint, str) and not endpoint):
        endpoint = os.environ.get("INTENTBUS_ENDPOINT", "")
    items = endpoint.split(",") if isinstance(endpoint, str) else list(endpoint)
    out: List[str] = []
    for item in items:
        item = item.strip()
        if item and item not in out:
            out.append(item)
    if not out:
        raise ValueError("no endpoint: pass one (e.g. ipc://.intentbus/frontend.sock) or set INTENTBUS_ENDPOINT")
    return out


class HostBook:
    """The hosts, when each last failed and was last heard from.

    `selection` is `"least-recently-failed"` (a host that never failed first, in the
    order given, so a client stays with one host until it fails) or `"round-robin"`
    (each host in turn, passing over one that failed within `penalty` seconds).
    """

    def __init__(self, endpoints: Sequence[str], *, selection: str = "least-recently-failed",
                 heartbeat: float = 1.0, liveness: int = 3, penalty: float = 5.0):
        if selection not in ("least-recently-failed", "round-robin"):
            raise ValueError('selection is "least-recently-failed" or "round-robin"')
        if not 0.01 <= heartbeat <= 3600 or not 1 <= liveness <= 100:
            raise ValueError("heartbeat is 0.01…3600 s and liveness 1…100 intervals")
        self.endpoints = list(endpoints)
        self.selection = selection
        self.heartbeat = heartbeat
        self.liveness = liveness
        self.penalty = penalty
        self.failed_at: Dict[str, Optional[float]] = {e: None for e in self.endpoints}
        self.last_heard: Dict[str, float] = {}
        self.last_beat: Dict[str, float] = {}
        self._turn = 0

    @contextmanager
    def aside(self) -> Iterator[None]:
        """Hosts chosen inside don't move the round robin on: for the client's own
        requests (`ib.plugins` to learn the idempotent intents), which are not the caller's."""
        turn = self._turn
        try:
            yield
        finally:
            self._turn = turn

    def choose(self, exclude: Iterable[str] = (), now: float = 0.0) -> Optional[str]:
        """The host for a new request (or a resent one), None when every host is excluded."""
        if len(self.endpoints) == 1:  # the usual client: no choice to make
            only = self.endpoints[0]
            return None if only in exclude else only
        left = [e for e in self.endpoints if e not in set(exclude)]
        if not left:
            return None
        if self.selection == "round-robin":
            for _ in range(len(self.endpoints)):
                e = self.endpoints[self._turn % len(self.endpoints)]
                self._turn += 1
                failed = self.failed_at[e]
                if e in left and (failed is None or now - failed >= self.penalty):
                    return e
        # Never failed first (in the order given), then the one that failed longest ago.
        return min(left, key=lambda e: (self.failed_at[e] is not None, self.failed_at[e] or 0.0,
                                        self.endpoints.index(e)))

    def heard(self, endpoint: str, now: float) -> None:
        """Anything from `endpoint` is a sign of life."""
        self.last_heard[endpoint] = now

    def watching(self, endpoint: str, now: float) -> None:
        """A request was sent to `endpoint`: its silence counts from now at the latest."""
        self.last_heard[endpoint] = max(self.last_heard.get(endpoint, now), now)

    def failed(self, endpoint: str, now: float) -> None:
        """`endpoint` was lost or could not be reached."""
        self.failed_at[endpoint] = now
        self.last_heard.pop(endpoint, None)
        self.last_beat.pop(endpoint, None)

    def silent(self, endpoint: str, now: float) -> bool:
        """Whether `endpoint` has said nothing for heartbeat × liveness."""
        heard = self.last_heard.get(endpoint)
        return heard is not None and now - heard > self.heartbeat * self.liveness

    def beat_due(self, endpoint: str, now: float) -> bool:
        """Whether to send `endpoint` a HEARTBEAT now (and note that it was sent)."""
        if now - self.last_beat.get(endpoint, 0.0) < self.heartbeat:
            return False
        self.last_beat[endpoint] = now
        return True
