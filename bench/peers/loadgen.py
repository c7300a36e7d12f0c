"""The one client shape every peer is measured with (docs/performance.md, "Peers").

Each peer gives an asyncio `call(body: bytes) -> bytes`; `run_window` keeps `window`
calls in flight (one task per slot: a slot sends its next request when its answer
arrives), stops sending after `count` requests or `seconds`, whichever comes first, and
waits at most `reply_timeout` for the answers still out. Every request is counted against
its answer: the body carries the request's number, and an answer counts only when it
echoes the request's body exactly.
"""

from __future__ import annotations

import asyncio
import resource
import time
from dataclasses import dataclass, field
from typing import Awaitable, Callable, List

Call = Callable[[bytes], Awaitable[bytes]]

BODY_SIZE = 100


def body(number: int, size: int = BODY_SIZE) -> bytes:
    """A body of exactly `size` bytes that is valid JSON and carries `number`."""
    head = b'{"p":"%016d' % number
    return head + b"x" * (size - len(head) - 2) + b'"}'


def cpu_seconds() -> float:
    """This process's user + system CPU, every thread (pyzmq's and gRPC's included)."""
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


@dataclass
class Round:
    sent: int = 0
    ok: int = 0
    errors: int = 0
    first_error: str = ""
    seconds: float = 0.0
    client_cpu: float = 0.0
    samples: List[int] = field(default_factory=list)  # ns, one per ok answer

    @property
    def missing(self) -> int:
        return max(0, self.sent - self.ok - self.errors)


async def run_window(call: Call, window: int, count: int, seconds: float, reply_timeout: float = 3.0) -> Round:
    result = Round()
    start = time.monotonic_ns()
    stop_sending = start + int(seconds * 1e9)
    cpu0 = cpu_seconds()
    last = start
    numbers = iter(range(1, count + 1))

    async def slot() -> None:
        nonlocal last
        for number in numbers:
            if time.monotonic_ns() >= stop_sending:
                return
            request = body(number)
            result.sent += 1
            sent_at = time.monotonic_ns()
            try:
                answer = await asyncio.wait_for(call(request), reply_timeout)
            except asyncio.TimeoutError:
                return  # counted as missing; this slot stops
            except Exception as e:  # noqa: BLE001 - every failure is counted, with the first kept
                result.errors += 1
                result.first_error = result.first_error or f"{type(e).__name__}: {e}"
                continue
            now = time.monotonic_ns()
            last = now
            if answer == request:
                result.ok += 1
                result.samples.append(now - sent_at)
            else:
                result.errors += 1
                result.first_error = result.first_error or f"answer of {len(answer)} bytes is not the request echoed"

    await asyncio.gather(*(slot() for _ in range(window)))
    result.seconds = (last - start) / 1e9
    result.client_cpu = cpu_seconds() - cpu0
    return result


def percentile(samples: List[int], p: float) -> float:
    """Nearest-rank percentile of unsorted samples (nan when there are none)."""
    if not samples:
        return float("nan")
    s = sorted(samples)
    rank = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return float(s[rank])
