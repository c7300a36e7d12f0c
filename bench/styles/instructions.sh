#!/usr/bin/env bash
# Instructions per request of each request style (docs/performance.md, "`perform()` and
# legacy phases"), in the host and in the plugin: one host and one bench-plugin (the
# legacy-cost scenario's plugin, SDK default), each under callgrind, serve FEW then
# FEW + COUNT requests of one intent, one at a time; the difference of the totals divided
# by COUNT is what one request costs each process (every thread), without start-up.
# Instruction counts do not depend on the machine's load, unlike the bench's latencies.
# Needs valgrind, the release build and a python with pyzmq (PYTHON, default
# .venv/bin/python from `make python-venv`).
# BIN: the build to measure (default .build/release); KEEP=1 keeps the profiles;
# LEGACY_PHASED=1: the legacy handler announces no phases (three round trips, not one).
# HEADER='{"client":"kitchen"}': the REQUEST header load.py sends (default none), as a CLI or SDK client does.
# PLUGIN_CALLGRIND=0: the plugin runs without valgrind (on a loaded machine a plugin under
# valgrind may not say HELLO within the host's 10 s); its count is then not measured.
# THREADS=1: the host's instructions per request also by thread (--separate-threads=yes),
# each thread named by the function that costs it most (router, libzmq I/O, the
# Shortcuts writer).
# Usage: bench/styles/instructions.sh [COUNT] [INTENT…]
#   (default 2000; EchoIntent BenchPerformIntent BenchLegacyIntent)
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-2000}
shift || true
intents=("$@")
[ ${#intents[@]} -gt 0 ] || intents=(EchoIntent BenchPerformIntent BenchLegacyIntent)
python=${PYTHON:-.venv/bin/python}
bin=${BIN:-$PWD/.build/release}
work=$(mktemp -d /tmp/ibstyles-XXXXXX)
if [ -n "${KEEP:-}" ]; then echo "profiles in $work"; else trap 'rm -rf "$work"' EXIT; fi
# Valgrind 3.19 can't read the release build's DWARF: measure copies without it.
bin=$(bench/stripped-bin.sh "$bin" "$work/bin" intentbus bench-plugin intentbus-bench)
# The same definition the benchmark's styles scenario uses (one String parameter, one code).
"$bin/intentbus-bench" --print-legacy-definition > "$work/definitions.yaml"

total() {  # total() INTENT REQUESTS → "host plugin" instructions
    local intent=$1 n=$2 dir="$work/$1-$2" plugin_prefix=""
    [ "${PLUGIN_CALLGRIND:-1}" = 0 ] || plugin_prefix="valgrind --tool=callgrind --callgrind-out-file=$dir/plugin.cg"
    mkdir -p "$dir"
    cat > "$dir/plugins.yaml" <<YAML
host:
  state_dir: $dir/state
plugins:
  - id: bench
    exec: $plugin_prefix $bin/bench-plugin
    IntentsSupported: [EchoIntent, PlainEchoIntent, BenchLegacyIntent, BenchPerformIntent]
    definitions: [$work/definitions.yaml]
    timeout: 60s
    heartbeat: 10s
    env: {BENCH_STYLES: "1", BENCH_INTENTS: "EchoIntent", BENCH_LEGACY_PHASED: "${LEGACY_PHASED:-0}"}
YAML
    valgrind --tool=callgrind ${HOST_CALLGRIND_OPTIONS:-} ${THREADS:+--separate-threads=yes} --callgrind-out-file="$dir/host.cg" "$bin/intentbus" host --config "$dir/plugins.yaml" \
        --log-level warning > "$dir/host.log" 2>&1 &
    local host=$!
    local socket="$dir/state/frontend.sock"
    for _ in $(seq 300); do [ -S "$socket" ] && break; sleep 0.1; done
    timeout 600 "$python" bench/styles/load.py "ipc://$socket" "$intent" "$n" > /dev/null \
        || { kill "$host"; wait "$host" || true; cat "$dir/host.log" >&2; exit 1; }
    kill "$host"           # SIGTERM: the host stops its plugin; callgrind writes both files
    wait "$host" || true
    for _ in $(seq 100); do [ -z "$plugin_prefix" ] || [ -s "$dir/plugin.cg" ] && break; sleep 0.1; done
    sleep 1
    local h p
    h=$(awk 'FNR == 1 { got = 0 } !got && /^(totals|summary):/ { s += $2; got = 1 } END { print s }' "$dir"/host.cg*)
    p=0
    [ -z "$plugin_prefix" ] || p=$(callgrind_annotate "$dir/plugin.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    echo "$h $p"
}

for intent in "${intents[@]}"; do
    read -r h1 p1 <<< "$(total "$intent" 100)"
    read -r h2 p2 <<< "$(total "$intent" $((count + 100)))"
    # total's own exit happens in a subshell: a failed run shows as a missing count.
    [ -n "${h1:-}" ] && [ -n "${h2:-}" ] && [ -n "${p2:-}" ] || { echo "$intent: a run failed; logs in $work" >&2; exit 1; }
    echo "$intent: host $(( (h2 - h1) / count )), plugin $(( (p2 - p1) / count )) instructions per request"
    [ -z "${THREADS:-}" ] || python3 - "$work/$intent-100" "$work/$intent-$((count + 100))" "$count" <<'PY'
import glob, subprocess, sys
few, many, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
def totals(d):
    per = {}
    for f in glob.glob(f"{d}/host.cg-*"):
        for line in open(f, errors="replace"):
            if line.startswith(("totals:", "summary:")):
                per[f.rsplit("-", 1)[1]] = (int(line.split()[1]), f); break
    return per
a, b = totals(few), totals(many)
def role(t, path):
    # The thread's own instructions by library: SQLite's are the writer's, libzmq's the
    # I/O thread's; thread 01 is the main thread, where the router runs.
    out = subprocess.run(["callgrind_annotate", path], capture_output=True, text=True).stdout.splitlines()
    by = {"sqlite": 0, "zmq": 0, "all": 0}
    for line in out:
        parts = line.split()
        if len(parts) < 3 or not parts[1].startswith("(") or "PROGRAM" in line:
            continue
        cost = int(parts[0].replace(",", ""))
        by["all"] += cost
        by["sqlite"] += cost if "libsqlite3" in line else 0
        by["zmq"] += cost if "libzmq" in line else 0
    if t == "01": return "router (main thread)"
    if by["sqlite"] > 0.2 * by["all"]: return "Shortcuts writer (SQLite)"
    if by["zmq"] > 0.5 * by["all"]: return "libzmq I/O"
    return "other"
for t in sorted(b, key=lambda t: -(b[t][0] - a.get(t, (0,))[0]))[:4]:
    print(f"  thread {t}, {role(t, b[t][1])}: {(b[t][0] - a.get(t, (0,))[0]) / n:,.0f} per request")
PY
done
