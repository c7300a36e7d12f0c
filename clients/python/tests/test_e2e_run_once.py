"""Run-once for resent requests (docs/protocol.md §4.10, docs/scale-out.md "Run once"):
one remote plugin (the Python SDK's, then the Swift SDK's) connected to two CURVE
backends of two hosts, a client knowing both. The client's
host is SIGKILLed while the plugin runs an idempotent request; the client sends it again
to the other host under the same id and run key; the plugin, still up, joins the run in
progress (or answers from it) instead of running the handler a second time."""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import pytest
import zmq

from conftest import REPO, binary
from intentbus import Client, NoAnswer
from intentbus.wire import Kind, Message
from test_e2e_security import free_port, keypair


class IpcHost:
    """A host with an ipc frontend and a CURVE tcp backend for the remote plugin `far`."""

    def __init__(self, far_public):
        self.dir = tempfile.mkdtemp(prefix="ibrun-", dir="/tmp")
        self.frontend = f"ipc://{self.dir}/front.sock"
        self.backend = f"tcp://127.0.0.1:{free_port()}"
        with open(f"{self.dir}/plugins.yaml", "w") as f:
            f.write("\n".join([
                "host:", "  state_dir: state", f"  frontend: {self.frontend}", f"  backend: {self.backend}",
                "plugins:", "  - id: far", "    remote: true", f"    public_key: \"{far_public}\"",
                "    IntentsSupported: [PyIntent]", "    idempotent: true", "    timeout: 10s",
                "    heartbeat: 1s", ""]))
        self.log_path = f"{self.dir}/host.log"
        self.start()
        deadline = time.monotonic() + 20
        while not os.path.exists(f"{self.dir}/state/host.pub"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the host did not start:\n{open(self.log_path).read()}")
            time.sleep(0.05)
        with open(f"{self.dir}/state/host.pub") as f:
            self.server_key = f.read().strip()

    def start(self):
        self._log = open(self.log_path, "ab")
        self.process = subprocess.Popen([binary("intentbus"), "host", "--config", f"{self.dir}/plugins.yaml",
                                         "--log-level", "debug"], stdout=self._log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, cwd=str(REPO))

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


#: The same plugin behaviour in both SDKs: {"sleep_ms"}, {"tag"} with TEST_RUN_LOG.
PLUGINS = {
    "python": lambda: [sys.executable, str(REPO / "clients/python/tests/plugins/pyplugin.py")],
    "swift": lambda: [binary("plugin-testplugin")],
}


@pytest.fixture(params=sorted(PLUGINS))
def two_hosts_one_plugin(tmp_path, request):
    far = keypair()
    hosts = [IpcHost(far[0]), IpcHost(far[0])]
    env = dict(os.environ, PYTHONPATH=str(REPO / "clients" / "python"), INTENTBUS_PLUGIN_ID="far",
               INTENTBUS_BACKEND=",".join(h.backend for h in hosts),
               INTENTBUS_SERVER_KEY=",".join(h.server_key for h in hosts), INTENTBUS_CURVE_SECRET=far[1],
               TEST_RUN_LOG=str(tmp_path / "runs"), TEST_INTENTS="PyIntent")
    log = open(tmp_path / "far.log", "wb")
    plugin = subprocess.Popen(PLUGINS[request.param](), env=env,
                              stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        for h in hosts:  # the plugin has said HELLO to both
            with Client(h.frontend, slack=2) as c:
                deadline = time.monotonic() + 20
                while True:
                    try:
                        c.send("PyIntent", {}, timeout=2)
                        break
                    except NoAnswer:
                        if time.monotonic() > deadline:
                            raise
        yield hosts, plugin, tmp_path
    finally:
        plugin.terminate()
        try:
            plugin.wait(timeout=10)
        except subprocess.TimeoutExpired:
            plugin.kill()
            plugin.wait()
        log.close()
        for h in hosts:
            h.stop()


def runs_of(tmp, tag):
    """How many times a handler started for requests tagged `tag` (TEST_RUN_LOG)."""
    path = tmp / "runs"
    return sum(1 for line in open(path) if line.split()[1:] == [tag]) if path.exists() else 0


def test_a_repeat_joins_the_run_in_progress(two_hosts_one_plugin):
    """A is SIGKILLed while the handler sleeps: the plugin keeps the run going (its host
    is gone, but a repeat may come), and B's delivery of the resent request joins it."""
    (a, b), plugin, tmp = two_hosts_one_plugin
    with Client([a.frontend, b.frontend], slack=2) as client:
        client.ping()  # connected to A, which it keeps until A fails
        timer = threading.Timer(0.5, a.process.kill)  # SIGKILL, by the host's own pid
        timer.start()
        try:
            # No idempotent=True: the client learns from ib.plugins that the manifest says so.
            reply = client.send("PyIntent", {"sleep_ms": 1500, "tag": "joined"}, timeout=10)
        finally:
            timer.cancel()
        a.process.wait()
        assert reply.status == "success" and reply.host == b.frontend
        assert reply.body["params"]["sleep_ms"] == 1500
    assert runs_of(tmp, "joined") == 1
    assert plugin.poll() is None


def test_a_repeat_after_the_run_gets_its_answer_again(two_hosts_one_plugin):
    """A is stopped (SIGSTOP) before the plugin's answer: the answer waits in A's socket,
    the client loses A by its silence and resends through B, and the plugin answers B
    from the run it already made."""
    (a, b), plugin, tmp = two_hosts_one_plugin
    with Client([a.frontend, b.frontend], slack=2, heartbeat=0.3) as client:
        client.ping()
        timer = threading.Timer(0.2, a.process.send_signal, (signal.SIGSTOP,))
        timer.start()
        try:
            reply = client.send("PyIntent", {"sleep_ms": 600, "tag": "again"}, timeout=10, idempotent=True)
        finally:
            timer.cancel()
            a.process.send_signal(signal.SIGCONT)
        assert reply.status == "success" and reply.host == b.frontend
        assert reply.body["params"]["sleep_ms"] == 600
        # The next request with the same parameters has its own run key: it runs.
        again = client.send("PyIntent", {"sleep_ms": 600, "tag": "again"}, timeout=5, idempotent=True)
        assert again.status == "success"
    assert runs_of(tmp, "again") == 2
    log = open(tmp / "far.log").read()
    assert "ran already" in log or "answered from its run" in log, log


def test_without_a_run_key_two_deliveries_run_twice(two_hosts_one_plugin):
    """The control: a client with one host sends no run key, so the same request id
    through two hosts is two requests (two clients may use one id)."""
    (a, b), _, tmp = two_hosts_one_plugin
    for h in (a, b):
        with Client(h.frontend, slack=2) as c:
            conv = c.start("PyIntent", {"tag": "control"}, timeout=5, request_id="r1")
            while not conv.done:
                conv.next()
    assert runs_of(tmp, "control") == 2


def test_a_killed_host_is_served_again_when_it_is_back(two_hosts_one_plugin):
    """The plugin outlives a SIGKILLed host, serves the other meanwhile, and greets the
    restarted one again (each SDK's several-backend loop)."""
    (a, b), plugin, tmp = two_hosts_one_plugin
    with Client(b.frontend, slack=2) as on_b:
        a.process.kill()
        a.process.wait()
        assert on_b.send("PyIntent", {"after": "kill"}, timeout=5).body["params"] == {"after": "kill"}
        a.start()  # the same manifest, backend port and host key
        with Client(a.frontend, slack=2) as on_a:
            deadline = time.monotonic() + 30
            while True:
                try:
                    reply = on_a.send("PyIntent", {"back": True}, timeout=2)
                    break
                except NoAnswer:
                    assert time.monotonic() < deadline, "the restarted host was not served"
            assert reply.body["params"] == {"back": True}
        assert on_b.send("PyIntent", {"still": True}, timeout=5).body["params"] == {"still": True}
    assert plugin.poll() is None
    log = open(tmp / "far.log").read()
    assert "lost the host at" in log, log


def test_every_host_gives_one_run_key_scoped_by_client(two_hosts_one_plugin):
    """The key a plugin gets is the same through every host for one client's key, and
    differs for another client with the same key (and for no key: none)."""
    (a, b), _, _ = two_hosts_one_plugin

    ctx = zmq.Context()
    try:
        def ask(host, header):
            s = ctx.socket(zmq.DEALER)
            s.setsockopt(zmq.LINGER, 0)
            s.setsockopt(zmq.RCVTIMEO, 10_000)
            s.connect(host.frontend)
            try:
                s.send_multipart(Message.build(Kind.REQUEST, "r1", "PyIntent", header, {"echo_header": True}).encode())
                reply = Message.decode(s.recv_multipart())
                assert reply.kind is Kind.REPLY, reply.body
                return reply.body_json()["header"].get("run_key")
            finally:
                s.close()

        on_a = ask(a, {"run_key": "k-1", "client": "c1"})
        assert on_a is not None and len(on_a) == 64 and all(ch in "0123456789abcdef" for ch in on_a)
        assert ask(b, {"run_key": "k-1", "client": "c1"}) == on_a, "the resend through B carries A's key"
        assert ask(b, {"run_key": "k-1", "client": "c2"}) not in (None, on_a), "another client's same key"
        assert ask(a, {"client": "c1"}) is None
    finally:
        ctx.term()


def test_a_legacy_request_runs_its_handle_phase_once_per_run_key(start_host):
    """The legacy flow puts the run key in the `handle` delivery only: the same request
    twice under one run key (as a resend through another host would come) is resolved
    twice but handled once, the second answered from the first run."""
    from conftest import py_legacy_plugin

    host = start_host([py_legacy_plugin()], wait_ready=["pylegacy"])
    ctx = zmq.Context()
    try:
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.setsockopt(zmq.RCVTIMEO, 10_000)
        s.connect(host.frontend)
        replies = []
        for rid in ("first", "second"):
            s.send_multipart(Message.build(Kind.REQUEST, rid, "PyCodeIntent", {"run_key": "same", "client": "c1"},
                                           {"code": "success", "progress": 1}).encode())
            while True:
                msg = Message.decode(s.recv_multipart())
                if msg.kind.is_final:
                    break
            assert msg.kind is Kind.REPLY and msg.request_id == rid, msg.body
            replies.append(msg.body_json())
        s.close()
    finally:
        ctx.term()
    assert replies[0] == replies[1]
    deadline = time.monotonic() + 5
    while "ran already" not in host.log and time.monotonic() < deadline:
        time.sleep(0.1)
    assert host.log.count("ran already") == 1, host.log
