#!/usr/bin/env bash
# libFuzzer targets of docs/reliability.md: build them, run them, report cases and crashes.
#
#   scripts/fuzz.sh build [TARGET…]       build every target (or those named) into .build/fuzz/bin
#   scripts/fuzz.sh run SECONDS [TARGET…] run each target SECONDS (default: all targets);
#                                         with FUZZ_RUNS=N set, stop a target after N cases
#                                         (SECONDS is then the most it may take)
#
# SwiftPM cannot link a libFuzzer executable (libFuzzer brings its own main), so the
# library targets are built by SwiftPM with the sanitizer flags into their own build
# directory, and each target's main.swift (fuzz/<target>/main.swift) is linked against
# their objects by swiftc. The committed seed corpus (fuzz/<target>/corpus) is only read;
# new inputs go to .build/fuzz/work/<target>, crash inputs to .build/fuzz/crashes/<target>.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
# The Swift runtime's own crash handler fights ASan's over a fatalError; libFuzzer reports the crash.
export SWIFT_BACKTRACE=enable=no

TARGETS=(wire json manifest definitions intentdefinition router-admission relay-lane)
# intentdefinition: Foundation leaks 50–700 B per property list it rejects, which is not
# ours to fix; LeakSanitizer would stop at the first, so this target runs without it.
NO_LEAK_CHECK=(intentdefinition)
# router-admission: messages from clients and plugins through the router core (no sockets).
BUILD=.build/fuzz
BIN=$BUILD/bin
SANITIZE=(-sanitize=fuzzer,address)

# The object files of one module's current sources, from SwiftPM's output file map: a
# plain glob would also pick up objects of files since renamed or deleted.
objects_of() {
    python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
print("\n".join(v["object"] for k, v in sorted(m.items()) if k and "object" in v))' "$BUILD/debug/$1.build/output-file-map.json"
}

# The SwiftPM targets the selected fuzz targets import: PluginHost no longer depends on
# the umbrella IntentBus, so both are built when a target imports both; the manifest and
# definitions targets need neither (no libzmq, SQLite or libsodium).
modules_for() {
    local needed=()
    if grep -qE "import (IntentBus|PluginHost)$" "${@/%//main.swift}"; then needed+=(IntentBus); fi
    if grep -q "import PluginHost" "${@/%//main.swift}"; then needed+=(PluginHost); fi
    if [ ${#needed[@]} -eq 0 ]; then
        if grep -q "^import IntentBusDefinitions$" "${@/%//main.swift}"; then needed+=(IntentBusDefinitions)
        elif grep -q "^import IntentBusManifest$" "${@/%//main.swift}"; then needed+=(IntentBusManifest)
        else needed+=(IntentBusCore); fi
    fi
    echo "${needed[@]}"
}

build() {
    local selected=("$@")
    [ ${#selected[@]} -eq 0 ] && selected=("${TARGETS[@]}")
    local module
    # lld: ld.gold stops with "internal error in format_file_lineno" linking the sanitized
    # intentgen build tool (seen 2026-12-02); lld links it.
    for module in $(modules_for "${selected[@]/#/fuzz/}"); do
        swift build --build-path "$BUILD" --target "$module" -Xswiftc -sanitize=fuzzer,address \
            -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld 2>&1 | grep -v "prohibited flag" | tail -1
    done
    local objects=$BUILD/debug
    mkdir -p "$BIN"
    # The targets see the modules' `package` declarations (the relay lane's RawMessage) when
    # they are compiled as part of the same package: the name SwiftPM gave it (the
    # checkout's directory name) is in its build description.
    local package=()
    local name
    name=$(grep -o '"-package-name","[^"]*"' "$BUILD/debug.yaml" | head -1 | cut -d'"' -f4 || true)
    if [ -n "$name" ]; then package=(-package-name "$name"); fi
    for target in "${selected[@]}"; do
        # A target links what it imports: IntentBusCore alone (no libzmq) for the JSON
        # target; the manifest module (and the definitions on it) with libyaml only, no
        # libzmq, SQLite or libsodium; the ZeroMQ wrapper and the SDK for the others;
        # PluginHost (with the process spawner it is built on) on top.
        local libs
        mapfile -t libs < <(objects_of IntentBusCore)
        if grep -qE "import (IntentBusManifest|IntentBusDefinitions)$" "fuzz/$target/main.swift"; then
            mapfile -t -O "${#libs[@]}" libs < <(objects_of IntentBusManifest)
            libs+=(-lyaml)
        fi
        if grep -q "import IntentBusDefinitions$" "fuzz/$target/main.swift"; then
            mapfile -t -O "${#libs[@]}" libs < <(for m in IntentDefinitionFormat IntentBusDefinitions; do objects_of "$m"; done)
        fi
        if grep -qE "import (IntentBus|PluginHost)$" "fuzz/$target/main.swift"; then
            mapfile -t -O "${#libs[@]}" libs < <(for m in IntentBusZMQ IntentBusWire IntentBusClient IntentBusMetadata IntentBusPlugin IntentBusLegacy IntentBusAppIntents IntentBus; do objects_of "$m"; done)
            libs+=("$objects"/CLinuxSupport.build/*.c.o -lzmq)
        fi
        if grep -q "import PluginHost" "fuzz/$target/main.swift"; then
            mapfile -t -O "${#libs[@]}" libs < <(for m in IntentBusProcess IntentDefinitionFormat IntentBusManifest IntentBusDefinitions IntentBusSentences IntentBusStore PluginHost; do objects_of "$m"; done)
            libs+=(-lyaml -lsqlite3 -lsodium -lpq)
        fi
        # ld.gold warns about every ASan helper symbol it cannot export; those lines are noise.
        local sources=("fuzz/$target/main.swift")
        if grep -q "import PluginHost" "fuzz/$target/main.swift"; then sources+=(fuzz/shared/*.swift); fi
        swiftc "${SANITIZE[@]}" "${package[@]}" -parse-as-library -module-name "Fuzz_${target//-/_}" "${sources[@]}" \
            -I "$objects/Modules" -I Sources/CZeroMQ -I Sources/CYAML -I Sources/CSQLite -I Sources/CSodium \
            -I Sources/CPostgres $(pkg-config --cflags-only-I libpq | sed 's/-I/-Xcc -I/g') \
            -I "$objects/CLinuxSupport.build" "${libs[@]}" -o "$BIN/fuzz-$target" 2>&1 \
            | { grep -v "Cannot export local symbol" || true; }
    done
    echo "fuzz: built ${selected[*]} into $BIN"
}

# Runs one target; prints "<target>: <cases> cases, <crashes> crashes" and returns 1 on a crash.
run_one() {
    local target=$1 seconds=$2
    local work=$BUILD/work/$target crashes=$BUILD/crashes/$target log=$BUILD/work/$target.log
    mkdir -p "$work" "$crashes"
    local status=0 started
    started=$(date +%s)
    local runs=()
    [ -n "${FUZZ_RUNS:-}" ] && runs=(-runs="$FUZZ_RUNS")
    # -rss_limit_mb and -timeout make a memory blow-up or a hang a finding too; -max_len lets
    # YAML inputs grow beyond libFuzzer's default 4 KiB.
    local asan=${ASAN_OPTIONS:-}
    if [[ " ${NO_LEAK_CHECK[*]} " == *" $target "* ]]; then asan="${asan:+$asan:}detect_leaks=0"; fi
    ASAN_OPTIONS=$asan "$BIN/fuzz-$target" -max_total_time="$seconds" "${runs[@]}" -print_final_stats=1 -rss_limit_mb=2048 -timeout=10 \
        -max_len=16384 -artifact_prefix="$crashes/" "$work" "fuzz/$target/corpus" >"$log" 2>&1 || status=$?
    local cases
    cases=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$" | tail -1)
    local found=0
    if [ "$status" -ne 0 ]; then
        found=1
        echo "fuzz: $target crashed (exit $status); input in $crashes, log in $log:" >&2
        grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -5 >&2 || true
    fi
    local took=$(( $(date +%s) - started ))
    printf "%-12s %10s cases %3d crashes  (%ss)\n" "$target:" "${cases:-?}" "$found" "$took"
    return "$status"
}

run() {
    local seconds=${1:-60}
    shift || true
    local selected=("$@")
    [ ${#selected[@]} -eq 0 ] && selected=("${TARGETS[@]}")
    local failed=0
    for target in "${selected[@]}"; do
        [ -x "$BIN/fuzz-$target" ] || { echo "fuzz: $BIN/fuzz-$target is not built (scripts/fuzz.sh build)" >&2; exit 2; }
        run_one "$target" "$seconds" || failed=1
    done
    return $failed
}

case "${1:-}" in
    build) shift; build "$@" ;;
    run) shift; run "$@" ;;
    *) echo "usage: scripts/fuzz.sh build [TARGET…] | run SECONDS [TARGET…]" >&2; exit 2 ;;
esac
