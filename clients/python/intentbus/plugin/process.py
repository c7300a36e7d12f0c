"""The plugin process and its host (intentbus.plugin): plugins never outlive the host
that started them."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from typing import Optional


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
