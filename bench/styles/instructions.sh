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
    local intent=$1 n=$2 dir="$work/$1-$2"
    mkdir -p "$dir"
    cat > "$dir/plugins.yaml" <<YAML
host:
  state_dir: $dir/state
plugins:
  - id: bench
    exec: valgrind --tool=callgrind --callgrind-out-file=$dir/plugin.cg $bin/bench-plugin
    IntentsSupported: [EchoIntent, BenchLegacyIntent, BenchPerformIntent]
    definitions: [$work/definitions.yaml]
    timeout: 60s
    heartbeat: 10s
    env: {BENCH_STYLES: "1", BENCH_INTENTS: "EchoIntent", BENCH_LEGACY_PHASED: "${LEGACY_PHASED:-0}"}
YAML
    valgrind --tool=callgrind ${HOST_CALLGRIND_OPTIONS:-} --callgrind-out-file="$dir/host.cg" "$bin/intentbus" host --config "$dir/plugins.yaml" \
        --log-level warning > "$dir/host.log" 2>&1 &
    local host=$!
    local socket="$dir/state/frontend.sock"
    for _ in $(seq 300); do [ -S "$socket" ] && break; sleep 0.1; done
    timeout 600 "$python" bench/styles/load.py "ipc://$socket" "$intent" "$n" > /dev/null \
        || { kill "$host"; wait "$host" || true; cat "$dir/host.log" >&2; exit 1; }
    kill "$host"           # SIGTERM: the host stops its plugin; callgrind writes both files
    wait "$host" || true
    for _ in $(seq 100); do [ -s "$dir/plugin.cg" ] && break; sleep 0.1; done
    sleep 1
    local h p
    h=$(callgrind_annotate "$dir/host.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    p=$(callgrind_annotate "$dir/plugin.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    echo "$h $p"
}

for intent in "${intents[@]}"; do
    read -r h1 p1 <<< "$(total "$intent" 100)"
    read -r h2 p2 <<< "$(total "$intent" $((count + 100)))"
    echo "$intent: host $(( (h2 - h1) / count )), plugin $(( (p2 - p1) / count )) instructions per request"
done
