"""Fixtures for the end-to-end tests: a REAL `intentbus host` process (the Swift binary
from `swift build`) on a manifest in its own temporary directory, with its own ipc
endpoints, stopped by pid and reaped at the end of each test, even when it fails.

Python plugins started by that host import this checkout's `intentbus` package (the
host's environment gets PYTHONPATH pointing at clients/python), so the tests test the
source, whatever is installed.
"""

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from intentbus import Client, NoAnswer

PACKAGE_DIR = Path(__file__).resolve().parents[1]          # clients/python
REPO = Path(__file__).resolve().parents[3]                 # the repository root
BIN = Path(os.environ.get("INTENTBUS_BIN", REPO / ".build" / "debug"))
PYPLUGIN = Path(__file__).resolve().parent / "plugins" / "pyplugin.py"
PYLEGACY = Path(__file__).resolve().parent / "plugins" / "pylegacy.py"
PYNEW = Path(__file__).resolve().parent / "plugins" / "pynew.py"
PYLEGACY_DEFINITIONS = Path(__file__).resolve().parent / "definitions" / "pylegacy.yaml"
COFFEE_DEFINITIONS = REPO / "definitions" / "coffee.yaml"


def binary(name):
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{path} does not exist: build the Swift products first (`swift build`, or `make test`)")
    return str(path)


def _yaml_list(items):
    # JSON strings are valid YAML flow scalars, so no quoting rules to get wrong.
    return "[" + ", ".join(json.dumps(str(i)) for i in items) + "]"


def plugin_entry(id, exec, intents, timeout="10s", env=None, extra=(), inherit=("PYTHONPATH",)):
    """A manifest list item for one plugin. Plugins get a minimal environment, not the
    host's (docs/security.md): `inherit` names what they take from it besides, by default
    the PYTHONPATH that points the Python plugins at the sources under test."""
    lines = [f"  - id: {id}", f"    name: {json.dumps('Plugin ' + id)}", f"    exec: {_yaml_list(exec)}",
             f"    IntentsSupported: {_yaml_list(intents)}", f"    timeout: {timeout}"]
    if inherit:
        lines.append(f"    inherit_env: {_yaml_list(inherit)}")
    env = dict(env or {})
    if env:
        lines.append("    env:")
        lines += [f"      {k}: {json.dumps(str(v))}" for k, v in sorted(env.items())]
    lines += ["    " + e for e in extra]
    return "\n".join(lines)


def py_plugin(id, intents=("PyIntent",), timeout="10s", env=None, inherit=("PYTHONPATH",)):
    """The Python test plugin (tests/plugins/pyplugin.py)."""
    env = dict(env or {})
    env["TEST_INTENTS"] = ",".join(intents)
    return plugin_entry(id, [sys.executable, str(PYPLUGIN)], intents, timeout, env, inherit=inherit)


def coffee_plugin(id="coffee", timeout="10s", env=None):
    """The example OrderCoffeeIntent plugin (legacy style), run as `python -m
    intentbus.examples.coffee`, with its definition file definitions/coffee.yaml."""
    return plugin_entry(id, [sys.executable, "-m", "intentbus.examples.coffee"], ["OrderCoffeeIntent"], timeout,
                        env, extra=[f"definitions: {_yaml_list([COFFEE_DEFINITIONS])}"])


def py_legacy_plugin(id="pylegacy", timeout="10s", env=None):
    """The Python legacy test plugin (tests/plugins/pylegacy.py) with its definitions."""
    return plugin_entry(id, [sys.executable, str(PYLEGACY)], ["PyResolveIntent", "PyCodeIntent", "PyConfirmIntent"],
                        timeout, env, extra=[f"definitions: {_yaml_list([PYLEGACY_DEFINITIONS])}"])


PYNEW_INTENTS = ("StartFocusSessionIntent", "QuestionsIntent", "ListNotesIntent", "LegacyNotesIntent",
                 "SecretNoteIntent")


def py_new_plugin(id="pynew", intents=PYNEW_INTENTS, timeout="10s", env=None):
    """The Python new-style test plugin (tests/plugins/pynew.py)."""
    return plugin_entry(id, [sys.executable, str(PYNEW)], intents, timeout, env)


def swift_test_plugin(id, intents=("TestIntent",), timeout="10s"):
    """The Swift test plugin (Sources/Plugins/TestPlugin)."""
    return plugin_entry(id, [binary("plugin-testplugin")], intents, timeout, {"TEST_INTENTS": ",".join(intents)})


def swift_echo_plugin(id="echo"):
    """The Swift echo plugin (raw handler: moves the body back unchanged)."""
    return plugin_entry(id, [binary("plugin-echo")], ["EchoIntent"])


class Host:
    """A running `intentbus host`. Use `client()` for clients; they are closed by `stop()`."""

    def __init__(self, plugins, host_extra="", open_files=None, prepare_state=None):
        self.dir = tempfile.mkdtemp(prefix="ibpy-", dir="/tmp")  # short: ipc paths are limited to 107 bytes
        self.manifest = os.path.join(self.dir, "plugins.yaml")
        with open(self.manifest, "w") as f:
            f.write("host:\n  state_dir: state\n" + host_extra + "\nplugins:\n" + "\n".join(plugins) + "\n")
        self.frontend = f"ipc://{self.dir}/state/frontend.sock"
        self.log_path = os.path.join(self.dir, "host.log")
        self._clients = []
        if prepare_state is not None:  # e.g. a choice store to start from
            os.makedirs(os.path.join(self.dir, "state"), mode=0o700)
            prepare_state(os.path.join(self.dir, "state"))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_DIR)] + [p for p in [env.get("PYTHONPATH")] if p])
        env["INTENTBUS_LOG"] = "debug"
        self._log = open(self.log_path, "wb")

        def limit_open_files():
            # Soft and hard: the host raises its soft limit to the hard one when it starts.
            if open_files is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

        self.process = subprocess.Popen([binary("intentbus"), "host", "--config", self.manifest, "--log-level", "debug"],
                                        stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                        cwd=str(REPO), env=env, preexec_fn=limit_open_files)

    @property
    def log(self):
        """Everything the host and its plugins logged so far."""
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def client(self, **kw):
        c = Client(self.frontend, **kw)
        self._clients.append(c)
        return c

    def wait_serving(self, seconds=30):
        deadline = time.monotonic() + seconds
        probe = self.client(slack=0)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the host exited early ({self.process.returncode}):\n{self.log}")
            if os.path.exists(f"{self.dir}/state/frontend.sock"):
                try:
                    probe.ping(wait=0.3)
                    return
                except NoAnswer:
                    pass
            time.sleep(0.05)
        pytest.fail(f"the host did not serve within {seconds} s:\n{self.log}")

    def plugin(self, id):
        """The host's `ib.plugins` entry for `id`."""
        for p in self.client().plugins()["plugins"]:
            if p["id"] == id:
                return p
        return None

    def wait_plugin(self, id, state="ready", not_pid=None, seconds=30):
        deadline = time.monotonic() + seconds
        last = None
        while time.monotonic() < deadline:
            last = self.plugin(id)
            if last and last["state"] == state and (not_pid is None or last.get("pid") != not_pid):
                return last
            time.sleep(0.05)
        pytest.fail(f"plugin {id} did not reach {state} within {seconds} s (last: {last}):\n{self.log}")

    def wait_log(self, text, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if text in self.log:
                return
            time.sleep(0.05)
        pytest.fail(f"{text!r} did not appear in the host's log within {seconds} s:\n{self.log}")

    def stop(self):
        """Stops the host by its pid (SIGTERM, then SIGKILL), reaps it, removes its files. Idempotent."""
        for c in self._clients:
            c.close()
        self._clients = []
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)


@pytest.fixture
def start_host(request):
    """`start_host([plugin entries…], wait_ready=[ids…])` → a serving `Host`; stopped
    and reaped when the test ends. Its log is printed when the test failed."""
    hosts = []

    def start(plugins, wait_ready=(), host_extra="", open_files=None, prepare_state=None):
        """`open_files`: the host's RLIMIT_NOFILE, soft and hard; `prepare_state(dir)`
        runs before the host starts, with its state directory made."""
        host = Host(plugins, host_extra, open_files, prepare_state)
        hosts.append(host)
        host.wait_serving()
        for id in wait_ready:
            host.wait_plugin(id)
        return host

    def finish():
        for host in hosts:
            host.stop()
            rep = getattr(request.node, "rep_call", None)
            if rep is not None and rep.failed:
                print(f"---- host log ({host.manifest}) ----\n{host.log}")
            host.remove()

    request.addfinalizer(finish)
    return start
