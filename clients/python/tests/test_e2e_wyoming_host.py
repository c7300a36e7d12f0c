"""End to end: `host.wyoming` in the manifest (docs/wyoming.md, "Started by the host"). The
real host starts the Wyoming service as its own child, with the `.venv/bin/python` it
finds beside the manifest (here a wrapper pointing at the sources under test), and
supervises it: the PyPI `wyoming` client's describe, recognize and transcript are
answered; a SIGKILLed service (its pid from `ib.status`) is started again and answers
again; a reload that removes or changes the section stops or moves it; the host's stop
leaves no child behind, nor does its SIGKILL (the service watches `--host-pid`); on a
CURVE frontend the service connects with its `client_key`."""

import asyncio
import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest
from wyoming.asr import Transcript
from wyoming.handle import Handled
from wyoming.info import Describe, Info
from wyoming.intent import Intent, Recognize

from conftest import PACKAGE_DIR, binary, py_new_plugin
from intentbus.wyoming_service import main, watch_host
from test_e2e_security import curve_host, free_port, keypair  # noqa: F401 (curve_host is a fixture)
from test_e2e_wyoming import exchange


def wyoming_section(port, extra=""):
    return (f"  wyoming:\n    uri: tcp://127.0.0.1:{port}\n    languages: [en, de]\n"
            f"    context: {{area: Kitchen}}\n    timeout: 10s\n" + extra)


def wrapper_script():
    """A `python` that runs the test's Python on the sources under test."""
    return f"#!/bin/sh\nPYTHONPATH={json.dumps(str(PACKAGE_DIR))} exec {json.dumps(sys.executable)} \"$@\"\n"


def venv_beside_the_manifest(state_dir):
    """`.venv/bin/python` beside the manifest, the default command's first choice: the
    test's Python with the sources under test (the host gives the service no PYTHONPATH)."""
    bin_dir = os.path.join(os.path.dirname(state_dir), ".venv", "bin")
    os.makedirs(bin_dir)
    path = os.path.join(bin_dir, "python")
    with open(path, "w") as f:
        f.write(wrapper_script())
    os.chmod(path, stat.S_IRWXU)


def status(host):
    return host.client().send("ib.status", {}).body


def wait_service(host, *, state="running", not_pid=None, uri=None, seconds=40):
    """The `wyoming` entry of `ib.status` once it is `state` (with another pid than
    `not_pid`, on `uri`)."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        last = status(host).get("wyoming")
        if last and last["state"] == state and last.get("pid") != not_pid and (uri is None or last["uri"] == uri):
            return last
        time.sleep(0.1)
    pytest.fail(f"the wyoming service did not become {state} within {seconds} s (last: {last}):\n{host.log}")


def alive(pid):
    """Whether `pid` runs (a zombie nobody has reaped yet counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_gone(pid, seconds=15):
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            pytest.fail(f"process {pid} is still alive")
        time.sleep(0.05)


@pytest.fixture
def hosted(start_host):
    port = free_port()
    host = start_host([py_new_plugin(env={"PYNEW_SHORTCUTS": "1", "PYNEW_CONTEXT": "1"})], wait_ready=["pynew"],
                      host_extra=wyoming_section(port), prepare_state=venv_beside_the_manifest)
    return host, f"tcp://127.0.0.1:{port}"


def test_the_host_starts_the_service_and_it_answers_describe_recognize_and_transcript(hosted):
    host, uri = hosted
    service = wait_service(host)
    assert service["uri"] == uri and service["restarts"] == 0 and service["pid"] > 0
    assert service["endpoint"] == host.frontend
    assert service["command"][0].endswith("/.venv/bin/python") and service["command"][1:] == [
        "-m", "intentbus.wyoming_service"]
    [info] = exchange(uri, Describe())
    assert Info.from_event(info).handle[0].models[0].languages == ["en", "de"]
    recognized, handled, kitchen = exchange(uri, Recognize("fokus mit Wild Stimmung!"),
                                            Transcript("fokus mit Wild Stimmung!", context={"conversation_id": "h-1"}),
                                            # only with the manifest's context {area: Kitchen}
                                            Transcript("Fokus hier mit Plugin pynew", context={"mood": "calm"}))
    intent = Intent.from_event(recognized)
    assert intent.name == "StartFocusSessionIntent" and [(e.name, e.value) for e in intent.entities] == [
        ("mood", "wild")]
    assert Handled.is_type(handled.type), handled
    assert Handled.from_event(handled).text == "Focus for 25 minutes (wild)."
    assert Handled.from_event(handled).context == {"conversation_id": "h-1"}
    assert Handled.is_type(kitchen.type) and Handled.from_event(kitchen).text == "Focus for 25 minutes (calm)."
    # It ran in the plugin: the donations show it.
    donations = host.client().send("ib.donations.list", {}).body["donations"]
    assert {d["identifier"] for d in donations} == {"focus-wild", "focus-calm"}
    # Its output is in the host's log, tagged.
    host.wait_log(f"service=wyoming pid={service['pid']} | intentbus-wyoming: serving {uri}")
    # `intentbus status` shows it.
    shown = subprocess.run([binary("intentbus"), "status", "--config", host.manifest], capture_output=True,
                           text=True, timeout=30)
    assert shown.returncode == 0, shown.stderr
    assert f"wyoming {uri} running · pid {service['pid']} · up " in shown.stdout and " · 0 restarts\n" in shown.stdout
    metrics = host.client().send("ib.metrics", {}).body["text"]
    assert f'intentbus_wyoming_up{{uri="{uri}"}} 1\n' in metrics
    assert f'intentbus_wyoming_restarts_total{{uri="{uri}"}} 0\n' in metrics


def test_a_killed_service_is_started_again_and_the_host_stop_leaves_no_child(hosted):
    host, uri = hosted
    first = wait_service(host)
    os.kill(first["pid"], signal.SIGKILL)
    second = wait_service(host, not_pid=first["pid"])
    assert second["restarts"] == 1 and second["last_exit"] == "was killed by signal 9 (SIGKILL)"
    assert f'intentbus_wyoming_restarts_total{{uri="{uri}"}} 1\n' in host.client().send("ib.metrics", {}).body["text"]
    assert not alive(first["pid"])  # reaped by the host
    [handled] = exchange(uri, Transcript("fokus mit Wild Stimmung!"))
    assert Handled.from_event(handled).text == "Focus for 25 minutes (wild)."
    assert "starting it again in 0.5 s" in host.log
    host.stop()
    assert host.process.returncode == 0
    assert not alive(second["pid"])
    assert f"the wyoming service (pid {second['pid']}) exited with status 0" in host.log  # SIGTERM: a clean stop


def test_a_service_whose_host_was_sigkilled_leaves_by_itself(hosted):
    host, uri = hosted
    service = wait_service(host)
    assert f"--host-pid {host.process.pid}" in open(f"/proc/{service['pid']}/cmdline").read().replace("\0", " ")
    host.process.kill()  # no stop, no SIGTERM for the child
    host.process.wait()
    wait_gone(service["pid"], seconds=15)


def test_a_reload_stops_the_removed_service_and_starts_a_changed_one(hosted):
    host, uri = hosted
    first = wait_service(host)
    with open(host.manifest) as f:
        text = f.read()
    with open(host.manifest, "w") as f:
        f.write(text.replace(wyoming_section(int(uri.rsplit(":", 1)[1])), ""))
    os.kill(host.process.pid, signal.SIGHUP)
    wait_gone(first["pid"])
    deadline = time.monotonic() + 10
    while "wyoming" in status(host):
        assert time.monotonic() < deadline, status(host)
        time.sleep(0.05)
    assert "stopping the wyoming service" in host.log and "host.wyoming was removed" in host.log
    port = free_port()
    with open(host.manifest, "w") as f:
        moved_section = wyoming_section(port, "    questions: end\n")
        f.write(text.replace(wyoming_section(int(uri.rsplit(":", 1)[1])), moved_section))
    os.kill(host.process.pid, signal.SIGHUP)
    moved = wait_service(host, uri=f"tcp://127.0.0.1:{port}")
    assert moved["restarts"] == 0
    [info] = exchange(moved["uri"], Describe())
    assert Info.is_type(info.type)


def test_on_a_curve_frontend_the_service_connects_with_its_client_key(curve_host, tmp_path):  # noqa: F811
    admin_public, admin_secret = keypair()
    service_public, service_secret = keypair()
    key = tmp_path / "wyoming.key"
    key.write_text(service_secret + "\n")
    key.chmod(0o600)
    python = tmp_path / "python"
    python.write_text(wrapper_script())
    python.chmod(0o700)
    port = free_port()
    host = curve_host([{"name": "admin", "public": admin_public}, {"name": "voice", "public": service_public}],
                      [py_new_plugin(env={"PYNEW_SHORTCUTS": "1"})],
                      host_extra=["wyoming:", f"  uri: tcp://127.0.0.1:{port}",
                                  f"  command: [{json.dumps(str(python))}, -m, intentbus.wyoming_service]",
                                  f"  client_key: {json.dumps(str(key))}"])
    admin = host.client(admin_secret)
    deadline = time.monotonic() + 40
    while True:
        report = admin.send("ib.status", {}).body
        plugins = {p["id"]: p["state"] for p in report["plugins"]}
        if report.get("wyoming", {}).get("state") == "running" and plugins.get("pynew") == "ready":
            break
        assert time.monotonic() < deadline, f"{report}\n{host.log}"
        time.sleep(0.1)
    assert report["wyoming"]["endpoint"] == host.frontend
    # Its requests pass the ZAP handler as the client "voice": the intent runs.
    [handled] = exchange(f"tcp://127.0.0.1:{port}", Transcript("fokus mit Wild Stimmung!"))
    assert Handled.is_type(handled.type), (handled, host.log)
    assert Handled.from_event(handled).text == "Focus for 25 minutes (wild)."


def test_host_pid_is_checked_and_watched():
    for bad in ("1", "0", "-5"):
        with pytest.raises(SystemExit) as refused:
            main(["--host-pid", bad])
        assert refused.value.code == 2
    gone = subprocess.Popen(["true"])
    gone.wait()  # reaped: its pid names no process now

    async def watch(pid):
        stop = asyncio.Event()
        await asyncio.wait_for(watch_host(pid, stop, every=0.01), 5 if pid == gone.pid else 0.2)
        return stop.is_set()
    assert asyncio.run(watch(gone.pid)) is True
    with pytest.raises(asyncio.TimeoutError):  # this process exists: it keeps watching
        asyncio.run(watch(os.getpid()))
