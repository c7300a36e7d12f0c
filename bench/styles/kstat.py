"""Kernel-side costs per request at W in flight (docs/performance.md, "The SDK's answers in
batches"): one host and one bench-plugin (the styles scenario's plugin and definition), one
bench-load; after a warm-up round of 20,000, one measured round of COUNT requests of INTENT.
Prints per process (host, plugin, load) and per thread, per answered request: CPU (user and
system, from /proc/PID/task/*/stat), read- and write-like system calls (/proc/PID/io's syscr,
syscw: on these sockets mostly libzmq's eventfd signals) and voluntary / involuntary context
switches. Unlike callgrind's instruction counts these depend on the machine's load: compare
two builds in interleaved runs.

Needs the release build (intentbus, bench-plugin, bench-load, intentbus-bench) and pyzmq
(`make python-venv`). Bounded: the round stops at COUNT answers or 60 s.
Usage: .venv/bin/python bench/styles/kstat.py BIN INTENT [COUNT] [WINDOW]
  (BIN: .build/release; INTENT: EchoIntent, BenchPerformIntent or BenchLegacyIntent;
   default 200000 requests, 200 in flight)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import zmq


def snapshot(pid):
    """The process's counters now: syscalls, CPU ticks, context switches, per-thread CPU."""
    io = dict(line.split(": ") for line in open(f"/proc/{pid}/io").read().splitlines())
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    switches = [0, 0]
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        head, tail = open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)
        f = tail.split()
        threads[f"{tid}:{head.split('(', 1)[1]}"] = int(f[11]) + int(f[12])
        for line in open(f"/proc/{pid}/task/{tid}/status"):
            if line.startswith("voluntary_ctxt"):
                switches[0] += int(line.split()[1])
            elif line.startswith("nonvoluntary_ctxt"):
                switches[1] += int(line.split()[1])
    return {"r": int(io["syscr"]), "w": int(io["syscw"]), "ut": int(fields[11]), "st": int(fields[12]),
            "vcs": switches[0], "ncs": switches[1], "threads": threads}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bin_dir, intent = os.path.abspath(sys.argv[1]), sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 200_000
    window = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    if not (1 <= count <= 10_000_000 and 1 <= window <= 4096):
        sys.exit("COUNT must be 1…10,000,000 and WINDOW 1…4,096")
    work = tempfile.mkdtemp(prefix="ibkstat-")
    definition = subprocess.run([f"{bin_dir}/intentbus-bench", "--print-legacy-definition"],
                                capture_output=True, text=True, check=True).stdout
    with open(f"{work}/definitions.yaml", "w") as f:
        f.write(definition)
    with open(f"{work}/plugins.yaml", "w") as f:
        f.write(f"""host:
  state_dir: {work}/state
plugins:
  - id: bench
    exec: {bin_dir}/bench-plugin
    IntentsSupported: [EchoIntent, BenchLegacyIntent, BenchPerformIntent]
    definitions: [{work}/definitions.yaml]
    timeout: 30s
    max_in_flight: 4096
    env: {{BENCH_STYLES: "1", BENCH_INTENTS: "EchoIntent", BENCH_SOCKET_THREAD: "0"}}
""")
    host = subprocess.Popen([f"{bin_dir}/intentbus", "host", "--config", f"{work}/plugins.yaml", "--log-level", "warning"],
                            stdout=open(f"{work}/host.log", "w"), stderr=subprocess.STDOUT)
    ctx = zmq.Context()
    control = ctx.socket(zmq.ROUTER)
    control.setsockopt(zmq.RCVTIMEO, 90_000)
    control.bind(f"ipc://{work}/control.sock")
    load = None
    try:
        socket = f"{work}/state/frontend.sock"
        for _ in range(300):
            if os.path.exists(socket):
                break
            time.sleep(0.1)
        time.sleep(1.5)  # the plugin's HELLO
        load = subprocess.Popen([f"{bin_dir}/bench-load", f"ipc://{work}/control.sock", "kstat"])
        ident = control.recv_multipart()[0]
        children = open(f"/proc/{host.pid}/task/{host.pid}/children").read().split()
        if not children:
            sys.exit(f"the host started no plugin: {open(f'{work}/host.log').read()}")
        pids = {"host": host.pid, "plugin": int(children[0]), "load": load.pid}

        def round_of(n):
            control.send_multipart([ident, json.dumps({
                "op": "round", "endpoint": f"ipc://{socket}", "intent": intent, "size": 100, "key": "text",
                "window": window, "connections": 1, "count": n, "seconds": 60,
                "echo": intent == "EchoIntent"}).encode()])
            return json.loads(control.recv_multipart()[1])

        round_of(20_000)
        before = {k: snapshot(p) for k, p in pids.items()}
        started = time.time()
        result = round_of(count)
        elapsed = time.time() - started
        after = {k: snapshot(p) for k, p in pids.items()}
        answered = result.get("ok", 0)
        if not answered:
            sys.exit(f"no successful answers: {result}")
        hz = os.sysconf("SC_CLK_TCK")
        print(f"{intent}, {window} in flight: {answered} answered, {answered / elapsed:,.0f} req/s, "
              f"{result.get('other', 0)} other answers, {result.get('missing', 0)} missing; load {os.getloadavg()[0]:.2f}")
        for name in pids:
            a, b = before[name], after[name]
            d = {f: (b[f] - a[f]) / answered for f in ("r", "w", "vcs", "ncs")}
            print(f"{name:7s} per request: syscr {d['r']:.3f} syscw {d['w']:.3f} switches {d['vcs']:.3f} voluntary, "
                  f"{d['ncs']:.3f} involuntary; user {(b['ut'] - a['ut']) / hz / answered * 1e6:.2f} µs, "
                  f"system {(b['st'] - a['st']) / hz / answered * 1e6:.2f} µs")
            for thread, ticks in sorted(b["threads"].items(), key=lambda t: a["threads"].get(t[0], 0) - t[1]):
                spent = ticks - a["threads"].get(thread, 0)
                if spent:
                    print(f"        {thread:28s} {spent / hz / answered * 1e6:.2f} µs")
    finally:
        if load is not None:
            try:
                control.send_multipart([ident, b'{"op":"exit"}'])
                load.wait(5)
            except Exception:
                load.kill()
                load.wait()
        host.terminate()
        host.wait(15)
        ctx.destroy(linger=0)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
