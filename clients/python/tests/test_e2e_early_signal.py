"""SIGTERM in the window between binding the sockets and the router's first round (seconds
on a large manifest) is kept for the router (docs/lifecycle.md, "Stopping"): the host
drains and stops, exit 0, and removes its socket files; it used to die by the signal
and leave them behind."""

import os
import signal
import subprocess
import time

from conftest import binary

PLUGINS = 5_000


def test_sigterm_right_after_the_sockets_are_bound_drains(tmp_path):
    state = tmp_path / "state"
    lines = ["host:", f"  state_dir: {state}", "plugins:"]
    for i in range(PLUGINS):
        lines += [f"  - id: p{i}", f"    exec: [/nonexistent/plugin-{i}]", f"    IntentsSupported: [Intent{i}]",
                  "    activation: on-demand"]
    manifest = tmp_path / "plugins.yaml"
    manifest.write_text("\n".join(lines) + "\n")
    log = open(tmp_path / "host.log", "wb")
    host = subprocess.Popen([binary("intentbus"), "host", "--config", str(manifest)], stdout=log,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        socket = state / "frontend.sock"
        deadline = time.monotonic() + 120
        while not socket.exists():
            assert host.poll() is None and time.monotonic() < deadline, (tmp_path / "host.log").read_text()
            time.sleep(0.001)
        host.send_signal(signal.SIGTERM)
        rc = host.wait(timeout=60)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
        log.close()
    text = (tmp_path / "host.log").read_text()
    assert rc == 0, (rc, text[-2000:])
    assert "host stopped" in text
    assert not socket.exists() and not (state / "backend.sock").exists()
