#!/usr/bin/env bash
# The Python plugin SDK's cost per request (docs/performance.md, "The Python SDK"): the
# echo plugin written with the Python SDK's ordinary plain handler (py-plain), with an
# AppIntent's perform() (py-new), and the Swift SDK's plain handler (plugin-echo) for
# scale, each behind its own host; COUNT requests of 100 B with 50 in flight after a
# warm-up; the plugin process's CPU (user + system, every thread, from /proc) per
# request. CPU time, not instructions: Python under valgrind starts too slowly for the
# host's 10 s HELLO deadline on a loaded machine. Ratios are within one run.
# Usage: bench/sdk/python-cpu.sh [COUNT]   (default 5000)
#   BIN the build (default .build/release); PYTHON (default .venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-5000}
python=${PYTHON:-.venv/bin/python}
case $python in /*) ;; *) python=$PWD/$python ;; esac
bin=${BIN:-$PWD/.build/release}
work=$(mktemp -d /tmp/ibpycpu-XXXXXX)
trap 'rm -rf "$work"' EXIT
ticks=$(getconf CLK_TCK)

measure() {  # measure KIND → µs of plugin CPU per request
    local kind=$1 exec
    case $kind in
        py-plain) exec="$python $PWD/bench/sdk/pyecho.py --style plain" ;;
        py-new) exec="$python $PWD/bench/sdk/pyecho.py --style new" ;;
        *) exec="$bin/plugin-echo" ;;
    esac
    mkdir -p "$work/$kind"
    cat > "$work/$kind/plugins.yaml" <<YAML
host:
  state_dir: $work/$kind/state
plugins:
  - id: echo
    exec: $exec
    env: {PYTHONPATH: $PWD/clients/python}
    IntentsSupported: [EchoIntent]
    timeout: 60s
    max_in_flight: 4096
YAML
    "$bin/intentbus" host --config "$work/$kind/plugins.yaml" --log-level warning > "$work/$kind/host.log" 2>&1 &
    local host=$! socket="$work/$kind/state/frontend.sock" plugin="" t0 t1
    for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
    timeout 120 "$python" bench/sdk/load.py "ipc://$socket" 200 10 > /dev/null
    # The plugin is the host's only child (the host's own pid file names no plugin).
    plugin=$(cat /proc/$host/task/*/children | tr ' ' '\n' | grep -m1 .)
    t0=$(awk '{ print $14 + $15 }' "/proc/$plugin/stat")
    timeout 300 "$python" bench/sdk/load.py "ipc://$socket" "$count" 50 > /dev/null \
        || { kill "$host"; wait "$host" || true; exit 1; }
    t1=$(awk '{ print $14 + $15 }' "/proc/$plugin/stat")
    kill "$host"
    wait "$host" || true
    awk -v a="$t0" -v b="$t1" -v n="$count" -v hz="$ticks" 'BEGIN { printf "%.1f", (b - a) / hz / n * 1e6 }'
}

declare -A per
for kind in swift-plain py-plain py-new; do
    per[$kind]=$(measure "$kind")
    echo "$kind: ${per[$kind]} µs of plugin CPU per request"
done
awk -v p="${per[py-plain]}" -v s="${per[swift-plain]}" -v n="${per[py-new]}" 'BEGIN {
    printf "Python plain / Swift plain: %.2f×; Python perform() / Python plain: %.2f×\n", p / s, n / p }'
