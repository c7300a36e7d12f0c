"""A remote Python plugin serving two hosts at once (docs/scale-out.md, issue 31): one
connection per host, each answered on its own; a SIGKILLed host doesn't stop it serving
the other, and the restarted host is greeted with a new HELLO and served again."""

import os
import subprocess
import sys

from conftest import REPO, binary
from test_e2e_security import curve_host, keypair, wait_reply  # noqa: F401 (fixture)


def far_entry(far_public):
    return "\n".join(["  - id: far", "    remote: true", f"    public_key: \"{far_public}\"",
                      "    IntentsSupported: [PyIntent]", "    timeout: 5s", "    heartbeat: 1s"])


def backend_of(host):
    return [ln for ln in open(f"{host.dir}/plugins.yaml") if "backend:" in ln][0].split()[-1]


def restart(host):
    """The same host again (same manifest, port and key), after it was killed."""
    host._log = open(host.log_path, "ab")
    host.process = subprocess.Popen([binary("intentbus"), "host", "--config", f"{host.dir}/plugins.yaml",
                                     "--log-level", "debug"], stdout=host._log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, cwd=str(REPO))


def test_a_remote_plugin_serves_two_hosts_and_outlives_one(curve_host):
    alice, far = keypair(), keypair()
    a = curve_host([{"name": "alice", "public": alice[0]}], [far_entry(far[0])])
    b = curve_host([{"name": "alice", "public": alice[0]}], [far_entry(far[0])])
    env = dict(os.environ, PYTHONPATH=str(REPO / "clients" / "python"), INTENTBUS_PLUGIN_ID="far",
               INTENTBUS_BACKEND=f"{backend_of(a)},{backend_of(b)}",
               INTENTBUS_SERVER_KEY=f"{a.server_key},{b.server_key}", INTENTBUS_CURVE_SECRET=far[1])
    plugin_log = open(f"{a.dir}/far.log", "wb")
    plugin = subprocess.Popen([sys.executable, str(REPO / "clients/python/tests/plugins/pyplugin.py")], env=env,
                              stdout=plugin_log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        on_a, on_b = a.client(alice[1], slack=2.0), b.client(alice[1], slack=2.0)
        assert wait_reply(on_a, "PyIntent", {"via": "a"}).body["params"] == {"via": "a"}
        assert wait_reply(on_b, "PyIntent", {"via": "b"}).body["params"] == {"via": "b"}
        # Both hosts at once, requests interleaved: each answer comes back to its own host.
        for i in range(5):
            assert on_a.send("PyIntent", {"i": i}, timeout=5).body["params"] == {"i": i}
            assert on_b.send("PyIntent", {"i": -i}, timeout=5).body["params"] == {"i": -i}

        a.process.kill()
        a.process.wait()
        assert on_b.send("PyIntent", {"after": "kill"}, timeout=5).body["params"] == {"after": "kill"}
        assert plugin.poll() is None, "the plugin stopped with one of its hosts"

        restart(a)
        again = a.client(alice[1], slack=2.0)
        assert wait_reply(again, "PyIntent", {"back": True}, seconds=30).body["params"] == {"back": True}
        assert on_b.send("PyIntent", {"still": True}, timeout=5).body["params"] == {"still": True}
    finally:
        plugin.terminate()
        try:
            plugin.wait(timeout=10)
        except subprocess.TimeoutExpired:
            plugin.kill()
            plugin.wait()
        plugin_log.close()
    log = open(f"{a.dir}/far.log").read()
    assert "lost the host at" in log and log.count("connected to tcp://") >= 3, log


def test_backend_keys_must_pair_up(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO / "clients" / "python"), INTENTBUS_PLUGIN_ID="far",
               INTENTBUS_BACKEND="tcp://127.0.0.1:1,tcp://127.0.0.1:2,tcp://127.0.0.1:3",
               INTENTBUS_SERVER_KEY="a,b", INTENTBUS_CURVE_SECRET="x")
    done = subprocess.run([sys.executable, str(REPO / "clients/python/tests/plugins/pyplugin.py")], env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "names 2 host keys for 3 backends" in done.stderr
