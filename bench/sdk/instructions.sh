#!/usr/bin/env bash
# The plugin SDK's own cost in instructions per request (docs/performance.md, "The plugin
# SDK"): the echo plugin with the SDK's ordinary plain handler (plain), with its raw
# handler (sdk: plugin-echo --raw) and the no-decode plugin (raw: bench-worker --no-decode
# --plugin) each run under callgrind behind a release host, once for a few requests and
# once for COUNT more; the difference, divided by COUNT, is what one request costs the
# plugin process (every thread, libzmq's I/O thread included), without start-up.
# Deterministic, unlike CPU time on a shared machine. Needs valgrind and the release build,
# and a python with pyzmq (PYTHON, default .venv/bin/python from `make python-venv`).
# Usage: bench/sdk/instructions.sh [COUNT]   (default 20000; a few minutes)
#   KINDS="plain sdk raw" (default) picks the far ends; BIN the build (default
#   .build/release); KEEP=1 keeps the profiles; SIZE the body in bytes (default 100;
#   use a smaller COUNT for 1 MB); PROFILE=host measures the host instead, in front of
#   the same far end run without valgrind; ALONE=1 measures the plugin with
#   bench/sdk/alone.py in the host's place (the host's 10 s HELLO deadline is too short
#   for valgrind on a loaded machine; libzmq's side of the socket is the same).
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-20000}
python=${PYTHON:-.venv/bin/python}
bin=${BIN:-$PWD/.build/release}
work=$(mktemp -d /tmp/ibsdk-XXXXXX)
if [ -n "${KEEP:-}" ]; then echo "profiles in $work"; else trap 'rm -rf "$work"' EXIT; fi
# Valgrind 3.19 can't read the release build's DWARF: measure copies without it.
names="plugin-echo"
[ -n "${ALONE:-}" ] || names+=" intentbus"
[[ " ${KINDS:-raw} " == *" raw "* ]] && names+=" bench-worker"
bin=$(bench/stripped-bin.sh "$bin" "$work/bin" $names)

total() {  # total() KIND REQUESTS → instructions of the plugin process
    local kind=$1 n=$2 exec
    case $kind in
        plain) exec="$bin/plugin-echo" ;;
        sdk) exec="$bin/plugin-echo --raw" ;;
        *) exec="$bin/bench-worker --no-decode --plugin" ;;
    esac
    mkdir -p "$work/$kind-$n"
    if [ -n "${ALONE:-}" ]; then  # no host: alone.py plays it (no 10 s HELLO deadline)
        timeout 900 "$python" bench/sdk/alone.py "$work/$kind-$n" "$n" 50 "${SIZE:-100}" \
            valgrind --tool=callgrind --callgrind-out-file="$work/$kind-$n/out.cg" $exec > /dev/null 2>&1
        callgrind_annotate "$work/$kind-$n/out.cg" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
        return
    fi
    local valgrind="valgrind --tool=callgrind --callgrind-out-file=$work/$kind-$n/out.cg"
    local host_prefix=""
    if [ "${PROFILE:-plugin}" = host ]; then host_prefix=$valgrind; else exec="$valgrind $exec"; fi
    cat > "$work/$kind-$n/plugins.yaml" <<YAML
host:
  state_dir: $work/$kind-$n/state
plugins:
  - id: echo
    exec: $exec
    IntentsSupported: [EchoIntent]
    timeout: 60s
    max_in_flight: 4096
    heartbeat: 30s         # valgrind is slow; a loaded machine more so
YAML
    $host_prefix "$bin/intentbus" host --config "$work/$kind-$n/plugins.yaml" --log-level warning > "$work/$kind-$n/host.log" 2>&1 &
    local host=$!
    local socket="$work/$kind-$n/state/frontend.sock"
    for _ in $(seq 600); do [ -S "$socket" ] && break; sleep 0.1; done
    timeout 300 "$python" bench/sdk/load.py "ipc://$socket" "$n" 50 "${SIZE:-100}" > /dev/null || { kill "$host"; wait "$host" || true; exit 1; }
    kill "$host"           # SIGTERM: the host stops its plugin, and callgrind writes its file
    # (under PROFILE=host, $host is valgrind itself, which passes the signal on)
    wait "$host" || true
    for _ in $(seq 100); do [ -s "$work/$kind-$n/out.cg" ] && break; sleep 0.1; done
    sleep 1
    callgrind_annotate "$work/$kind-$n/out.cg" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
}

declare -A per
for kind in ${KINDS:-plain sdk raw}; do
    few=$(total "$kind" 100)
    many=$(total "$kind" $((count + 100)))
    per[$kind]=$(( (many - few) / count ))
    echo "$kind: $few instructions for 101 requests, $many for $((count + 101)): ${per[$kind]} per request"
done
ratio() { awk -v a="${per[$1]:-0}" -v b="${per[$2]:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "n/a" }'; }
echo "SDK plain handler / no-decode plugin: $(ratio plain raw)×"
echo "SDK raw path / no-decode plugin: $(ratio sdk raw)× (target ≤ 1.20×)"
