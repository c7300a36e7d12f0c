"""A real PostgreSQL server of the test's own: scripts/pg-temp.sh, wrapped (docs/scale-out.md).

    with TemporaryPostgres() as pg:
        manifest = f"host:\n  state: {pg.url}\n"   # host.state for every host of the test
        pg.stop(); pg.start()                      # take the database away and back

The server runs on Debian's binaries, initdb'd into a fresh /tmp directory with its unix
socket there and no TCP; `destroy()` (or leaving the `with`) stops it by its data
directory and removes it. When it cannot start, the constructor raises with why.
"""

import os
import random
import subprocess
from pathlib import Path
from typing import Optional

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "pg-temp.sh"


class TemporaryPostgres:
    """One server: `url` is its connection URL (user intentbus, database postgres, no password)."""

    def __init__(self, directory: Optional[str] = None, port: Optional[int] = None):
        self.directory = directory or f"/tmp/ibpg-{random.getrandbits(32)}-{os.getpid()}"
        self.port = port or random.randint(20000, 60000)
        self.url = ""
        self.start()

    def _run(self, *args: str) -> str:
        done = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"scripts/pg-temp.sh {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout.strip()

    def start(self) -> None:
        """Starts the server (again) on the data already there."""
        self.url = self._run("start", self.directory, str(self.port))

    def stop(self) -> None:
        """Stops the server (fast shutdown), keeping the data."""
        self._run("stop", self.directory)

    def destroy(self) -> None:
        """Stops the server and removes its directory."""
        self._run("destroy", self.directory)

    def __enter__(self) -> "TemporaryPostgres":
        return self

    def __exit__(self, *exc: object) -> None:
        self.destroy()
