"""Another local user can't plant the host's state (docs/security.md, threat model): a
state directory, or a file in it, owned by another user is refused at start; the host
never follows a symlink to its key or chmods through one; the CLI sends the credential
only to a socket of its own user's (or root's). The other user is `nobody`, via
`runuser` (the tests run as root)."""

import os
import shutil
import socket
import stat
import subprocess
import tempfile
import time

import pytest

from conftest import REPO, binary, py_plugin

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("runuser") is None,
                                reason="needs root and runuser to act as another user")


@pytest.fixture
def shared_tmp():
    """A directory every user can enter, as /tmp is (pytest's own are 0700)."""
    path = tempfile.mkdtemp(prefix="ibowner-", dir="/tmp")
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def as_nobody(*argv):
    subprocess.run(["runuser", "-u", "nobody", "--", *argv], check=True, timeout=20)


def start(directory, host_lines=(), write=True):
    """Starts the host on a one-plugin manifest (written unless `write` is false); returns
    (exit code or None if it was still running after 8 s, stderr)."""
    manifest = os.path.join(directory, "plugins.yaml")
    with open(manifest, "a" if not write else "w") as f:
        f.write("" if not write else "host:\n  state_dir: state\n" + "".join(f"  {ln}\n" for ln in host_lines)
                + "plugins:\n" + py_plugin("py") + "\n")
    host = subprocess.Popen([binary("intentbus"), "host", "--config", manifest], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=str(REPO), stdin=subprocess.DEVNULL)
    try:
        _, err = host.communicate(timeout=8)
        return host.returncode, err
    except subprocess.TimeoutExpired:
        host.terminate()
        _, err = host.communicate(timeout=15)
        return None, err


def test_a_state_directory_another_user_made_is_refused(shared_tmp):
    os.chmod(shared_tmp, 0o1777)  # as /tmp: anyone may make a directory there first
    as_nobody("mkdir", "-m", "700", os.path.join(shared_tmp, "state"))
    code, err = start(shared_tmp)
    assert code not in (None, 0), err
    assert "is owned by uid 65534 (nobody), not by the host's user" in err, err
    assert not os.path.exists(os.path.join(shared_tmp, "state", "frontend.sock"))


def test_a_file_another_user_planted_in_the_state_directory_is_refused(shared_tmp):
    state = os.path.join(shared_tmp, "state")
    os.mkdir(state, 0o770)
    os.chmod(state, 0o773)  # group- and other-writable for a moment, as a careless setup
    as_nobody("sh", "-c", f"echo planted > {state}/host.key")
    os.chmod(state, 0o770)
    code, err = start(shared_tmp)
    assert code not in (None, 0), err
    assert f"{state}/host.key is owned by uid 65534 (nobody)" in err, err


def test_no_chmod_through_another_users_symlink_and_no_key_from_a_symlink(shared_tmp):
    victim = os.path.join(shared_tmp, "victim")
    with open(victim, "w") as f:
        f.write("root's own file\n")
    os.chmod(victim, 0o644)
    state = os.path.join(shared_tmp, "state")
    os.mkdir(state, 0o700)
    os.chmod(state, 0o773)
    as_nobody("ln", "-s", victim, os.path.join(state, "choices.sqlite3-wal"))
    os.chmod(state, 0o770)
    code, err = start(shared_tmp)
    assert code not in (None, 0), err
    assert "choices.sqlite3-wal is owned by uid 65534 (nobody)" in err, err
    assert stat.S_IMODE(os.stat(victim).st_mode) == 0o644, "the host chmodded a file through a symlink"
    # A host.key that is a symlink (even the host user's own) is never read.
    os.unlink(os.path.join(state, "choices.sqlite3-wal"))
    os.symlink(victim, os.path.join(state, "host.key"))
    code, err = start(shared_tmp, ["frontend: tcp://127.0.0.1:0"])
    assert code not in (None, 0), err
    assert "host.key is not a plain file" in err, err


def test_the_cli_sends_no_credential_to_another_users_socket(shared_tmp):
    os.chmod(shared_tmp, 0o777)
    path = os.path.join(shared_tmp, "frontend.sock")
    # nobody listens on a socket of its own, to catch what is sent to it.
    catcher = subprocess.Popen(["runuser", "-u", "nobody", "--", "python3", "-c",
                                "import socket,sys,time; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]);"
                                " s.listen(4); time.sleep(30)", path])
    try:
        deadline = time.monotonic() + 10
        while not os.path.exists(path) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert os.stat(path).st_uid == 65534
        out = subprocess.run([binary("intentbus"), "send", "PyIntent", "--endpoint", f"ipc://{path}", "--timeout", "2"],
                             capture_output=True, text=True, timeout=30,
                             env=dict(os.environ, INTENTBUS_CREDENTIAL="the-shared-secret"))
        assert out.returncode != 0
        assert "refusing to send the credential: the socket" in out.stderr, out.stderr
        # Without a credential there is nothing to catch: the CLI goes on (and finds no host).
        bare = subprocess.run([binary("intentbus"), "send", "PyIntent", "--endpoint", f"ipc://{path}", "--timeout", "2"],
                              capture_output=True, text=True, timeout=30,
                              env={k: v for k, v in os.environ.items() if k != "INTENTBUS_CREDENTIAL"})
        assert "refusing to send the credential" not in bare.stderr
    finally:
        catcher.kill()
        catcher.wait(timeout=10)


def test_a_writable_or_foreign_manifest_or_drop_in_is_never_loaded(shared_tmp):
    """plugins.d/ writable by others, a drop-in another user owns, a group-writable
    manifest: refused at start with the path, and a drop-in planted while the host runs is
    never hot-loaded (the reload is refused and the running plugins stay)."""
    manifest = os.path.join(shared_tmp, "plugins.yaml")
    with open(manifest, "w") as f:
        f.write("host:\n  state_dir: state\nplugins:\n" + py_plugin("py") + "\n")
    os.chmod(manifest, 0o664)
    code, err = start(shared_tmp, write=False)
    assert code not in (None, 0) and f"{manifest} is writable by its group" in err, err
    os.chmod(manifest, 0o644)
    dropins = os.path.join(shared_tmp, "plugins.d")
    os.mkdir(dropins)
    os.chmod(dropins, 0o777)
    code, err = start(shared_tmp, write=False)
    assert code not in (None, 0) and f"{dropins} is writable by every user" in err, err
    # A running host with a private plugins.d: nobody's drop-in, planted through a moment
    # of carelessness, is refused at the reload it triggers.
    os.chmod(dropins, 0o755)
    log_path = os.path.join(shared_tmp, "host.log")
    log = open(log_path, "wb")
    host = subprocess.Popen([binary("intentbus"), "host", "--config", manifest], stdout=log, stderr=subprocess.STDOUT,
                            cwd=str(REPO), stdin=subprocess.DEVNULL)
    marker = os.path.join(shared_tmp, "ran-as-host")
    try:
        deadline = time.monotonic() + 20
        while "plugin py is ready" not in open(log_path).read() and time.monotonic() < deadline:
            time.sleep(0.1)
        os.chmod(dropins, 0o777)
        as_nobody("sh", "-c", f"printf 'id: evil\\nexec: /bin/touch {marker}\\nIntentsSupported: [EvilIntent]\\n'"
                              f" > {dropins}/evil.yaml")
        os.chmod(dropins, 0o755)
        deadline = time.monotonic() + 5
        while "evil.yaml is owned by uid 65534" not in open(log_path).read() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        text = open(log_path).read()
        assert "evil.yaml is owned by uid 65534 (nobody)" in text, text
        assert not os.path.exists(marker), "the planted drop-in ran"
    finally:
        host.terminate()
        host.wait(timeout=15)
        log.close()


def test_the_metrics_files_temporary_never_follows_a_planted_symlink(shared_tmp):
    victim = os.path.join(shared_tmp, "victim")
    with open(victim, "w") as f:
        f.write("root's own file\n")
    manifest = os.path.join(shared_tmp, "plugins.yaml")
    with open(manifest, "w") as f:
        f.write("host:\n  state_dir: state\n  metrics_file: metrics.prom\n  metrics_interval: 1s\nplugins:\n"
                + py_plugin("py") + "\n")
    host = subprocess.Popen([binary("intentbus"), "host", "--config", manifest], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=str(REPO), stdin=subprocess.DEVNULL)
    try:
        # Whoever can write the directory plants the temporary's name before the first write.
        os.symlink(victim, os.path.join(shared_tmp, f".metrics.prom.{host.pid}.tmp"))
        metrics = os.path.join(shared_tmp, "metrics.prom")
        deadline = time.monotonic() + 20
        while not (os.path.exists(metrics) and not os.path.islink(metrics)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert os.path.exists(metrics), "the host wrote no metrics file"
        assert open(victim).read() == "root's own file\n", "the host wrote through the planted symlink"
        assert "intentbus_" in open(metrics).read()
    finally:
        host.terminate()
        host.wait(timeout=15)
