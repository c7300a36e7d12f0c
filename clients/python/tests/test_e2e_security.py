"""CURVE and ZAP on tcp://127.0.0.1 (docs/security.md), with the real host and a real
Python plugin that the host spawns over a CURVE backend: who may connect, what each
client may do, and the modes of the host's files."""

import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
import time

import pytest
import zmq

from conftest import REPO, binary, plugin_entry, py_plugin
from intentbus import Client, Forbidden, NoAnswer


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keypair():
    public, secret = zmq.curve_keypair()
    return public.decode(), secret.decode()


class CurveHost:
    """A host on tcp://127.0.0.1 with CURVE, started by the test and stopped by pid."""

    def __init__(self, clients, plugins, umask=None, host_extra=(), env_extra=None):
        self.dir = tempfile.mkdtemp(prefix="ibsec-", dir="/tmp")
        self.frontend = f"tcp://127.0.0.1:{free_port()}"
        backend = f"tcp://127.0.0.1:{free_port()}"
        lines = ["host:", "  state_dir: state", f"  frontend: {self.frontend}", f"  backend: {backend}", "  clients:"]
        for c in clients:
            lines += [f"    - name: {c['name']}", f"      public_key: \"{c['public']}\""]
            lines += [f"      {k}: {v}" for k, v in c.get("extra", {}).items()]
        lines += [f"  {line}" for line in host_extra]
        with open(os.path.join(self.dir, "plugins.yaml"), "w") as f:
            f.write("\n".join(lines) + "\nplugins:\n" + "\n".join(plugins) + "\n")
        self.log_path = os.path.join(self.dir, "host.log")
        env = dict(os.environ, PYTHONPATH=str(REPO / "clients" / "python"), **(env_extra or {}))
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [binary("intentbus"), "host", "--config", os.path.join(self.dir, "plugins.yaml"), "--log-level", "debug"],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=str(REPO), env=env,
            preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)
        self.state = os.path.join(self.dir, "state")
        self._clients = []
        deadline = time.monotonic() + 20
        while not os.path.exists(os.path.join(self.state, "host.pub")):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the host did not start:\n{self.log}")
            time.sleep(0.05)
        time.sleep(0.2)
        with open(os.path.join(self.state, "host.pub")) as f:
            self.server_key = f.read().strip()

    @property
    def log(self):
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def client(self, secret=None, server_key=None, slack=1.0):
        """A client, closed by `stop()` (an unclosed client's context would be ended by the
        garbage collector at some later moment, which can block)."""
        if secret is None:
            c = Client(self.frontend, slack=slack)
        else:
            key_file = os.path.join(self.dir, f"c-{time.monotonic_ns()}.key")
            with open(key_file, "w") as f:
                f.write(secret + "\n")
            c = Client(self.frontend, slack=slack, client_key=key_file, server_key=server_key or self.server_key)
        self._clients.append(c)
        return c

    def stop(self):
        for c in self._clients:
            c.close()
        self._clients = []
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


@pytest.fixture
def curve_host():
    hosts = []

    def start(*args, **kw):
        h = CurveHost(*args, **kw)
        hosts.append(h)
        return h
    yield start
    for h in hosts:
        h.stop()


def wait_reply(client, intent, params=None, seconds=20):
    deadline = time.monotonic() + seconds
    while True:
        try:
            return client.send(intent, params or {}, timeout=2)
        except NoAnswer:
            if time.monotonic() > deadline:
                raise


def test_only_listed_keys_connect_and_each_gets_its_rights(curve_host):
    alice_pub, alice_sec = keypair()
    bob_pub, bob_sec = keypair()
    _, carol_sec = keypair()
    host = curve_host([{"name": "alice", "public": alice_pub, "extra": {"intents": "[PyIntent, ib.ping]"}},
                       {"name": "bob", "public": bob_pub, "extra": {"intents": "[\"Other*\"]"}}],
                      [py_plugin("py")])
    alice = host.client(alice_sec)
    reply = wait_reply(alice, "PyIntent", {"x": 1})  # also proves the spawned plugin joined over CURVE
    assert reply.status == "success"
    assert reply.body["client"] == "alice", "the client identity is the key's name"
    # Listed but without the right.
    with pytest.raises(Forbidden) as e:
        host.client(bob_sec).send("PyIntent", {}, timeout=3)
    assert "client bob may not call PyIntent" in e.value.message
    # No key, a wrong server key, an unlisted key: never connected, never answered.
    for c in [host.client(), host.client(alice_sec, server_key=keypair()[0]), host.client(carol_sec)]:
        with pytest.raises(NoAnswer):
            c.send("PyIntent", {}, timeout=0.5)
        c.close()
    assert "is not listed in host.clients" in host.log
    # A client cannot pose as another for remembered choices.
    with pytest.raises(Forbidden):
        alice.send("PyIntent", {}, timeout=3, client_id="bob")


def test_every_refused_handshake_is_logged(curve_host):
    """No CURVE, a wrong server key and a secret key that does not match the public one
    each leave a line (only unlisted keys did, through ZAP; docs/security.md)."""
    alice_pub, alice_sec = keypair()
    _, carol_sec = keypair()
    host = curve_host([{"name": "alice", "public": alice_pub}], [py_plugin("py")])
    ctx = zmq.Context()
    socks = []
    try:
        def dealer(server_key=None, public=None, secret=None):
            s = ctx.socket(zmq.DEALER)
            s.setsockopt(zmq.LINGER, 0)
            if server_key:
                s.curve_serverkey, s.curve_publickey, s.curve_secretkey = server_key.encode(), public.encode(), secret.encode()
            s.connect(host.frontend)
            s.send_multipart([b"IB1", b"REQUEST", b"r", b"ib.ping", b"", b""])
            socks.append(s)
            return s

        # A peer without CURVE is refused as a mechanism mismatch; now and then (seen in CI,
        # not understood yet: docs/security.md) libzmq reports the same refusal with no
        # detail. Either way it leaves its line, which is what is promised.
        no_curve = ("the peer does not use CURVE", "the handshake failed (libzmq gives no detail")
        dealer()
        host_wait = time.monotonic() + 10
        while not any(reason in host.log for reason in no_curve):
            assert time.monotonic() < host_wait, host.log
            time.sleep(0.05)
        dealer(server_key=keypair()[0], public=alice_pub, secret=alice_sec)  # not this host's key
        dealer(server_key=host.server_key, public=alice_pub, secret=carol_sec)  # not alice's secret
        while "its CURVE handshake did not decrypt" not in host.log:
            assert time.monotonic() < host_wait, host.log
            time.sleep(0.05)
        time.sleep(0.5)
        for s in socks:
            assert not s.poll(100), "no refused peer is answered"
        # Summed up like every refusal an outsider can cause, not one line each.
        # Each reason named once; repeats (libzmq reconnects them every 100 ms) are summed up every 10 s.
        def lines(reason):
            return host.log.count(f"handshakes: refused a connection to the frontend: {reason}")
        assert lines("its CURVE handshake did not decrypt") == 1, host.log
        assert sum(lines(reason) for reason in no_curve) in (1, 2), host.log
        assert all(lines(reason) <= 1 for reason in no_curve), host.log
        assert wait_reply(host.client(alice_sec), "PyIntent").status == "success"
    finally:
        for s in socks:
            s.close(linger=0)
        ctx.term()


def test_files_are_private_whatever_the_umask(curve_host):
    alice_pub, alice_sec = keypair()
    host = curve_host([{"name": "alice", "public": alice_pub}], [py_plugin("py")], umask=0)
    wait_reply(host.client(alice_sec), "PyIntent")
    mode = lambda p: stat.S_IMODE(os.stat(os.path.join(host.state, p)).st_mode)
    assert mode(".") == 0o700
    assert mode("host.key") == 0o600
    assert mode("choices.sqlite3") == 0o600
    assert mode("shortcuts.sqlite3") == 0o600, "every client's donations are in it"


def test_a_world_writable_state_dir_is_refused(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    os.chmod(state, 0o777)
    manifest = tmp_path / "plugins.yaml"
    manifest.write_text("host:\n  state_dir: state\nplugins:\n" + py_plugin("py") + "\n")
    out = subprocess.run([binary("intentbus"), "host", "--config", str(manifest)], capture_output=True, text=True,
                         timeout=20, cwd=str(REPO))
    assert out.returncode != 0
    assert "world-writable" in out.stderr


def test_a_remote_plugin_connects_with_its_own_key_and_a_wrong_key_is_refused(curve_host, tmp_path):
    alice_pub, alice_sec = keypair()
    plugin_pub, plugin_sec = keypair()
    remote = "\n".join(["  - id: far", "    remote: true", f"    public_key: \"{plugin_pub}\"",
                        "    IntentsSupported: [FarIntent]", "    timeout: 3s"])
    host = curve_host([{"name": "alice", "public": alice_pub}], [remote])
    assert host.client(alice_sec)  # the host is up
    backend = [ln for ln in open(os.path.join(host.dir, "plugins.yaml")) if "backend:" in ln][0].split()[-1]

    def start_plugin(secret):
        env = dict(os.environ, PYTHONPATH=str(REPO / "clients" / "python"), INTENTBUS_BACKEND=backend,
                   INTENTBUS_PLUGIN_ID="far", INTENTBUS_SERVER_KEY=host.server_key, INTENTBUS_CURVE_SECRET=secret,
                   TEST_INTENTS="FarIntent")
        env.pop("INTENTBUS_HOST_PID", None)
        env.pop("INTENTBUS_TOKEN", None)
        return subprocess.Popen([sys.executable, str(REPO / "clients/python/tests/plugins/pyplugin.py")], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    # The wrong key: refused during the CURVE handshake, so the request waits and times out.
    impostor = start_plugin(keypair()[1])
    try:
        alice = host.client(alice_sec, slack=2.0)
        with pytest.raises(Exception) as e:
            alice.send("FarIntent", {}, timeout=1.5)
        assert "did not become ready" in str(e.value) or "timeout" in str(e.value)
        assert "plugin key" in host.log and "is not known to this host" in host.log
    finally:
        impostor.terminate()
        impostor.wait(timeout=10)
    # Its own key: it says HELLO over CURVE (no token) and serves.
    plugin = start_plugin(plugin_sec)
    try:
        reply = wait_reply(alice, "FarIntent", {"hello": "far"})
        assert reply.status == "success" and reply.body["params"] == {"hello": "far"}
    finally:
        plugin.terminate()
        plugin.wait(timeout=10)


def test_keygen_and_the_cli_over_curve(curve_host, tmp_path):
    out = subprocess.run([binary("intentbus"), "keygen", "kiosk", "--dir", str(tmp_path)], capture_output=True,
                         text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    assert stat.S_IMODE(os.stat(tmp_path / "kiosk.key").st_mode) == 0o600
    public = (tmp_path / "kiosk.pub").read_text().strip()
    assert len(public) == 40 and public in out.stdout
    again = subprocess.run([binary("intentbus"), "keygen", "kiosk", "--dir", str(tmp_path)], capture_output=True,
                           text=True, timeout=20)
    assert again.returncode == 6 and "kiosk.key" in again.stderr, "an existing secret key is never overwritten"
    host = curve_host([{"name": "kiosk", "public": public}], [py_plugin("py")])
    send = [binary("intentbus"), "send", "PyIntent", "x=1", "--endpoint", host.frontend, "--key",
            str(tmp_path / "kiosk.key"), "--server-key", os.path.join(host.state, "host.pub"), "--json"]
    deadline = time.monotonic() + 20
    while True:
        out = subprocess.run(send, capture_output=True, text=True, timeout=30)
        if out.returncode == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert out.returncode == 0, out.stderr
    assert '"client": "kiosk"' in out.stdout or '"client":"kiosk"' in out.stdout
    # Without the key the CLI says the host is unreachable (the handshake never completes).
    bare = subprocess.run(send[:6], capture_output=True, text=True, timeout=30)
    assert bare.returncode == 5
    # The phrase commands take the same keys (they were keyless before).
    keys = ["--endpoint", host.frontend, "--key", str(tmp_path / "kiosk.key"),
            "--server-key", os.path.join(host.state, "host.pub")]
    for words in (["shortcuts", "list", "--json"], ["suggestions", "--json"], ["donations", "list", "--json"]):
        out = subprocess.run([binary("intentbus")] + words + keys, capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, (words, out.stderr)
        json.loads(out.stdout)
    out = subprocess.run([binary("intentbus"), "say", "nothing like this", "--match"] + keys,
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 3 and "no phrase matches" in out.stderr, out.stderr
    out = subprocess.run([binary("intentbus"), "say", "nothing like this", "--match"] + keys[:2],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 5, out.stderr


def test_watchdog_and_metrics_file_work_behind_a_curve_frontend(curve_host):
    """The host's own helpers ask the router through an inproc endpoint, so a CURVE tcp
    frontend (which would refuse a keyless connection) does not stop them."""
    public, _ = keypair()
    notify_dir = tempfile.mkdtemp(prefix="ibnotify-", dir="/tmp")
    notify_path = os.path.join(notify_dir, "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        listener.bind(notify_path)
        listener.settimeout(0.2)
        host = curve_host([{"name": "viewer", "public": public}], [py_plugin("alpha")],
                          host_extra=["metrics_file: metrics.prom", "metrics_interval: 1s"],
                          env_extra={"NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": "400000"})
        metrics = os.path.join(host.dir, "metrics.prom")
        got = []
        deadline = time.monotonic() + 20
        while (got.count("WATCHDOG=1") < 3 or not os.path.exists(metrics)) and time.monotonic() < deadline:
            try:
                got.append(listener.recv(4096).decode())
            except socket.timeout:
                pass
        assert got and got[0].startswith("READY=1"), got
        assert got.count("WATCHDOG=1") >= 3, f"{got}\n{host.log}"
        with open(metrics) as f:
            text = f.read()
        assert "intentbus_plugin_requests_served_total{plugin=\"alpha\"}" in text, text
        assert "did not answer ib.ping" not in host.log and "not updated" not in host.log, host.log
    finally:
        listener.close()
        os.unlink(notify_path) if os.path.exists(notify_path) else None
        os.rmdir(notify_dir)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run a client as another user")
def test_socket_group_lets_its_members_in_and_nobody_else():
    """host.socket_group: the ipc frontend is 0660 in the group and the state directory
    0710, so a member (here `nobody` with the group `daemon` added) connects and anyone
    else (plain `nobody`) is refused by the file system."""
    import grp
    import pwd
    import pathlib
    import shutil
    # A directory every user can pass through (pytest's own tmp dirs are 0700), as /run is.
    tmp_path = pathlib.Path(tempfile.mkdtemp(prefix="ibgroup-", dir="/tmp"))
    os.chmod(tmp_path, 0o755)
    group = grp.getgrnam("daemon")
    nobody = pwd.getpwnam("nobody")
    manifest = tmp_path / "plugins.yaml"
    manifest.write_text("host:\n  state_dir: state\n  socket_group: daemon\nplugins:\n" + py_plugin("py") + "\n")
    log = open(tmp_path / "host.log", "wb")
    host = subprocess.Popen([binary("intentbus"), "host", "--config", str(manifest)], stdout=log, stderr=subprocess.STDOUT,
                            cwd=str(REPO), env=dict(os.environ, PYTHONPATH=str(REPO / "clients" / "python")))
    try:
        frontend = tmp_path / "state" / "frontend.sock"
        deadline = time.monotonic() + 20
        while not frontend.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        st = os.stat(frontend)
        assert (stat.S_IMODE(st.st_mode), st.st_gid) == (0o660, group.gr_gid)
        st = os.stat(tmp_path / "state")
        assert (stat.S_IMODE(st.st_mode), st.st_gid) == (0o710, group.gr_gid)
        assert stat.S_IMODE(os.stat(tmp_path / "state" / "choices.sqlite3").st_mode) == 0o600

        def send(extra_groups):
            return subprocess.run([binary("intentbus"), "send", "PyIntent", "--endpoint", f"ipc://{frontend}",
                                   "--timeout", "5"], capture_output=True, text=True, timeout=30,
                                  user=nobody.pw_uid, group=nobody.pw_gid, extra_groups=extra_groups,
                                  env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"})
        member = send([group.gr_gid])
        assert member.returncode == 0, member.stderr
        outsider = send([])
        assert outsider.returncode == 5, (outsider.stdout, outsider.stderr)
    finally:
        host.terminate()
        host.wait(timeout=15)
        log.close()
        shutil.rmtree(tmp_path, ignore_errors=True)


def test_socket_group_is_checked_at_load(tmp_path):
    manifest = tmp_path / "plugins.yaml"
    manifest.write_text("host:\n  state_dir: state\n  socket_group: no-such-group-here\nplugins:\n" + py_plugin("py") + "\n")
    out = subprocess.run([binary("intentbus"), "host", "--config", str(manifest)], capture_output=True, text=True,
                         timeout=20, cwd=str(REPO))
    assert out.returncode == 6, out
    assert "plugins.yaml:3:17: error: host.socket_group: no group named 'no-such-group-here' on this system" in out.stderr
    manifest.write_text("host:\n  frontend: tcp://127.0.0.1:7001\n  socket_group: daemon\nplugins:\n"
                        + py_plugin("py") + "\n")
    out = subprocess.run([binary("intentbus"), "host", "--config", str(manifest)], capture_output=True, text=True,
                         timeout=20, cwd=str(REPO))
    assert out.returncode == 6, out
    assert "host.socket_group: applies to an ipc frontend only" in out.stderr
