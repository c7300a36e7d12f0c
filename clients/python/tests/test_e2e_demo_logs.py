"""The demo plugins say what they do: `intentbus logs echo` shows the echo plugin's
line for each request (README tour, docs/operations.md)."""

import subprocess
import time

from conftest import binary, plugin_entry


def test_intentbus_logs_shows_what_the_echo_plugin_did(start_host):
    # The demo manifest runs it with --log-requests (plugins.yaml); the benchmark without.
    host = start_host([plugin_entry("echo", [binary("plugin-echo"), "--log-requests"], ["EchoIntent"])],
                      wait_ready=["echo"])
    assert host.client().send("EchoIntent", {"text": "hi", "n": 2}).body == {"text": "hi", "n": 2}
    lines = ""
    for _ in range(50):
        out = subprocess.run([binary("intentbus"), "logs", "echo", "--endpoint", host.frontend],
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, out.stderr
        lines = out.stdout
        if "echoing 2 parameters: n, text" in out.stdout:
            break
        time.sleep(0.1)
    assert "echoing 2 parameters: n, text" in lines, lines
