"""Client commands read only the manifest's `host:`, streaming (issue 24 item 5;
docs/reliability.md, "Manifest loading"): a real `intentbus plugins` reaches a real host
through a 50 MB manifest without holding it. Before, it took 591 MB and 5.4 s."""

import os
import subprocess
import threading

import pytest

from conftest import binary, swift_echo_plugin

MANIFEST_BYTES = 50 * 1024 * 1024
# The command's own RSS is about 20-30 MB (Swift runtime, Foundation, libzmq); the whole
# tree of this manifest was 591 MB.
RSS_BOUND_MB = 100
CPU_BOUND_S = 10


def _big_manifest(path, host_first):
    host = "host:\n  state_dir: state\n"
    entry = "  - id: p{0}\n    exec: [/nonexistent/plugin-{0}]\n    IntentsSupported: [Intent{0}]\n"
    with open(path, "w") as f:
        if host_first:
            f.write(host)
        f.write("plugins:\n")
        written, i = 0, 0
        while written < MANIFEST_BYTES:
            chunk = "".join(entry.format(n) for n in range(i, i + 10_000))
            f.write(chunk)
            written += len(chunk)
            i += 10_000
        if not host_first:
            f.write(host)


def _run_measured(args, out_path):
    """Runs a command to its end: exit code, output, peak RSS (MB) and CPU seconds (wait4)."""
    with open(out_path, "w") as out:
        child = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        # Bounded: a command still running after 120 s is killed (by its pid) and fails.
        watchdog = threading.Timer(120, child.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            watchdog.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path) as f:
        text = f.read()
    return child.returncode, text, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


@pytest.mark.parametrize("host_first", [True, False], ids=["host-first", "host-last"])
def test_a_client_reads_host_from_a_50_mb_manifest_in_bounded_memory_and_time(start_host, host_first):
    host = start_host([swift_echo_plugin("echo")], wait_ready=["echo"])
    # Beside the host's manifest, so that `state_dir: state` names the same directory.
    big = os.path.join(host.dir, "big.yaml")
    _big_manifest(big, host_first)
    assert os.path.getsize(big) >= MANIFEST_BYTES
    code, out, rss_mb, cpu_s = _run_measured([binary("intentbus"), "plugins", "--config", big],
                                             os.path.join(host.dir, "plugins.out"))
    print(f"\nintentbus plugins with a {os.path.getsize(big) / 2**20:.0f} MB manifest "
          f"({'host: first' if host_first else 'host: last'}): peak RSS {rss_mb:.1f} MB, CPU {cpu_s:.2f} s")
    assert code == 0, out
    assert "echo" in out
    assert rss_mb < RSS_BOUND_MB, f"peak RSS {rss_mb:.1f} MB"
    assert cpu_s < CPU_BOUND_S, f"{cpu_s:.2f} s of CPU"
