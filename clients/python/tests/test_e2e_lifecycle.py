"""Python plugins and the host's liveness checks (docs/lifecycle.md): the SDK answers
HEARTBEAT from its socket loop, so a busy handler is not taken for a hung plugin, and a
stopped (SIGSTOP) Python plugin is found hung and restarted."""

import os
import signal
import time

import pytest

from conftest import py_plugin
from intentbus import PluginHung


def with_heartbeat(entry, interval="300ms"):
    return entry + f"\n    heartbeat: {interval}"


def test_a_busy_python_handler_is_not_hung(start_host):
    host = start_host([with_heartbeat(py_plugin("py"))], wait_ready=["py"])
    reply = host.client().send("PyIntent", {"sleep_ms": 1500}, timeout=10)
    assert reply.status == "success"
    assert "hung" not in host.log


def test_a_stopped_python_plugin_is_found_hung_and_restarted(start_host):
    host = start_host([with_heartbeat(py_plugin("py"))], wait_ready=["py"])
    pid = host.plugin("py")["pid"]
    client = host.client()
    conv = client.start("PyIntent", {"sleep_ms": 5000}, timeout=10)
    time.sleep(0.2)
    os.kill(pid, signal.SIGSTOP)  # the host ends it (SIGKILL) once found hung
    started = time.monotonic()
    with pytest.raises(PluginHung):
        while True:
            conv.next()
    assert time.monotonic() - started < 1.5
    host.wait_plugin("py", "ready", not_pid=pid)
    assert client.send("PyIntent", {"after": 1}, timeout=10).status == "success"


def test_plugins_disable_enable_restart_from_the_cli(start_host):
    import subprocess
    from conftest import binary
    from intentbus import PluginUnavailable

    host = start_host([py_plugin("py")], wait_ready=["py"])
    first_pid = host.plugin("py")["pid"]

    def cli(*words):
        return subprocess.run([binary("intentbus"), "plugins", *words, "--endpoint", host.frontend],
                              capture_output=True, text=True, timeout=30)

    out = cli("disable", "py")
    assert out.returncode == 0 and "disabled" in out.stdout, out.stderr
    with pytest.raises(PluginUnavailable):
        host.client().send("PyIntent", {}, timeout=5)
    assert cli("enable", "py").returncode == 0
    host.wait_plugin("py", "ready", not_pid=first_pid)
    second_pid = host.plugin("py")["pid"]
    out = cli("restart", "py")
    assert out.returncode == 0 and "restarting" in out.stdout
    host.wait_plugin("py", "ready", not_pid=second_pid)
    assert host.client().send("PyIntent", {"after": "restart"}, timeout=10).status == "success"
    bad = cli("explode", "py")
    assert bad.returncode == 2
    unknown = cli("restart", "nobody")
    assert unknown.returncode == 3 and "no plugin" in unknown.stderr


def test_a_plugin_found_hung_while_the_host_drains_is_not_restarted(start_host):
    # docs/lifecycle.md, "Stopping the host: drain": a restart then would only be stopped again.
    host = start_host([py_plugin("holder"), with_heartbeat(py_plugin("victim", intents=("VictimIntent",)))],
                      wait_ready=["holder", "victim"], host_extra="  drain_timeout: 8s")
    victim = host.plugin("victim")["pid"]
    conv = host.client().start("PyIntent", {"sleep_ms": 3000}, timeout=10)
    time.sleep(0.2)
    host.process.send_signal(signal.SIGTERM)  # the drain waits for the holder's request
    host.wait_log("shutting down: 1 open requests may finish")
    os.kill(victim, signal.SIGSTOP)
    host.wait_log("plugin victim is not restarted: the host is stopping", seconds=10)
    final = None
    for event in conv:
        final = event
    assert getattr(final, "status", None) == "success", final
    assert host.process.wait(timeout=20) == 0
    assert host.log.count("started plugin victim") == 1, host.log
