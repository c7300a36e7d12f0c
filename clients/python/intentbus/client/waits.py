"""What the asyncio client (aio.py) keeps per request while it waits: the messages that
arrived (`Inbox`), and one timer for every request's timeout (`Deadlines`) instead of
one asyncio timer per request, which cost a timer handle made, pushed on the loop's heap
and cancelled for every request (docs/performance.md, "third pass")."""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from typing import Deque, Dict, Optional

from ..wire import Message

__all__ = ["Inbox", "Deadlines", "TIMEOUT_GRAIN"]

#: Seconds: timeouts that fall due within this of the last look at them are looked at
#: together, so a request's timeout fires at most this late (docs/python.md).
TIMEOUT_GRAIN = 0.01
#: asyncio runs a timer this much before its time (its clock's resolution).
_EARLY = time.get_clock_info("monotonic").resolution


class Inbox:
    """What arrived for one request, the future its `send` waits on, and until when."""

    __slots__ = ("messages", "waiter", "deadline", "wait", "failure", "delivery")

    def __init__(self, wait: float) -> None:
        self.messages: Deque[Message] = deque()
        self.waiter: Optional["asyncio.Future[None]"] = None
        #: When the wait for the next message ends (loop time; inf while not sent yet).
        self.deadline = math.inf
        #: Seconds of silence after which the request gets NoAnswer.
        self.wait = wait
        #: Why the REQUEST could not be delivered (NoAnswer), raised by the waiting `send`.
        self.failure: Optional[BaseException] = None
        #: The task that still offers the REQUEST to the hosts, when the first try failed.
        self.delivery: Optional["asyncio.Task[None]"] = None

    def put(self, msg: Message) -> None:
        self.messages.append(msg)
        self._wake()

    def fail(self, error: BaseException) -> None:
        self.failure = error
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)


class Deadlines:
    """The timeouts of a client's waiting requests, on one asyncio timer set for the
    earliest deadline. A request's wait ends at its deadline, or, when deadlines fall due
    within `TIMEOUT_GRAIN` of the last look, at most that much later (one look for all)."""

    def __init__(self, inboxes: Dict[str, Inbox]):
        self.inboxes = inboxes
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self._handle: Optional[asyncio.TimerHandle] = None
        #: When the timer fires (inf: not set), and when it last did.
        self._at = math.inf
        self._swept_at = -math.inf

    def start(self, inbox: Inbox, now: float) -> None:
        """The wait for `inbox`'s next message starts now (loop time)."""
        inbox.deadline = deadline = now + inbox.wait
        if deadline < self._at:
            self._arm(deadline)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle, self._at = None, math.inf

    def _arm(self, when: float) -> None:
        if self.loop is None:
            return
        when = max(when, self._swept_at + TIMEOUT_GRAIN)
        if self._handle is not None:
            self._handle.cancel()
        self._at = when
        self._handle = self.loop.call_at(when, self._sweep)

    def _sweep(self) -> None:
        """Wakes every request whose wait is over (its `_next` raises NoAnswer) and sets
        the timer for the earliest deadline left."""
        self._handle, self._at = None, math.inf
        if self.loop is None:
            return
        now = self._swept_at = self.loop.time()
        earliest = math.inf
        for inbox in list(self.inboxes.values()):
            waiter = inbox.waiter
            if waiter is None or waiter.done():
                continue
            if inbox.deadline < now + _EARLY:
                waiter.set_result(None)
            elif inbox.deadline < earliest:
                earliest = inbox.deadline
        if earliest < math.inf:
            self._arm(earliest)
