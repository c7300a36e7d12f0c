"""A plugin that floods its stdout (docs/reliability.md, "Plugin output"): `yes` shares
the flooding plugin's output pipe and writes as fast as the host reads. The router reads
each plugin's pipe at most 64 KiB per round and rate-limits what goes to the log, so
clients are still answered, the healthy plugin beside it is not killed as hung, the log
grows by a bounded amount with a count of what was dropped, and SIGTERM is honoured."""

import os
import signal
import sys
import time

from conftest import PYPLUGIN, plugin_entry, py_plugin

SECONDS = 6


def flooding_plugin(id="flood"):
    # The plugin's stdout is the host's pipe; `yes` inherits it and never stops writing.
    script = f"yes 'flood line of a plugin that never stops talking' & exec {sys.executable} {PYPLUGIN}"
    return plugin_entry(id, ["/bin/sh", "-c", script], ["FloodIntent"], env={"TEST_INTENTS": "FloodIntent"})


def test_a_flooding_plugin_starves_nobody(start_host):
    host = start_host([flooding_plugin(), py_plugin("healthy", intents=("HealthyIntent",))],
                      wait_ready=["flood", "healthy"])
    healthy_pid = host.plugin("healthy")["pid"]
    client = host.client()
    size_before = os.path.getsize(host.log_path)
    started = time.monotonic()
    worst = 0.0
    answered = 0
    while time.monotonic() - started < SECONDS:
        t = time.monotonic()
        assert client.ping(wait=2)["protocol"] == 1
        assert client.send("HealthyIntent", {"n": answered}, timeout=5).body["plugin"] == "healthy"
        worst = max(worst, time.monotonic() - t)
        answered += 1
        time.sleep(0.05)
    elapsed = time.monotonic() - started
    grown = os.path.getsize(host.log_path) - size_before
    print(f"beside a flooding plugin: {answered} ping+request pairs in {elapsed:.1f} s, worst {worst * 1000:.0f} ms; "
          f"the log grew {grown / 1024:.0f} KiB")
    assert worst < 1.0
    # The flooding plugin is served too, and the healthy one was never restarted.
    assert client.send("FloodIntent", {}, timeout=5).body["plugin"] == "flood"
    healthy = host.plugin("healthy")
    assert healthy["state"] == "ready" and healthy["pid"] == healthy_pid, healthy
    assert "it is hung" not in host.log
    # 64 KiB/s of lines plus the log's own prefixes, and the 512 KiB burst.
    assert grown < 512 * 1024 + elapsed * 200 * 1024, grown
    host.wait_log("lines of its output were dropped: more than 64 KiB/s", seconds=10)
    # SIGTERM still stops the host promptly (it drains: DISCONNECT, SIGTERM after 1 s, SIGKILL after 3 s).
    t = time.monotonic()
    host.process.send_signal(signal.SIGTERM)
    host.process.wait(timeout=10)
    print(f"stopped {time.monotonic() - t:.2f} s after SIGTERM")
    assert time.monotonic() - t < 6
    assert "host stopped" in host.log
