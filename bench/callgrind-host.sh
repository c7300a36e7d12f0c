#!/bin/bash
# Instructions per request in the host, by thread, with callgrind (docs/performance.md,
# "Profiling the host"): two profile runs of 4 s and 12 s, 200 requests of 100 B in
# flight; the difference of their totals divided by the difference of their replies,
# so that start-up and shutdown drop out. Needs valgrind (not installed by make).
#   bench/callgrind-host.sh [BUILD_DIR]      (default .build/release)
#   INTENTBUS_RELAY_LANE=0 bench/callgrind-host.sh    the same without the relay lane
set -euo pipefail
B=$(cd "${1:-.build/release}" && pwd)
cd "$(dirname "$0")/.."
OUT=$(mktemp -d /tmp/ib-callgrind.XXXXXX)
# Valgrind 3.19 can't read the release build's DWARF: measure copies without it (the
# bench starts the host and plugin from its own directory).
B=$(bench/stripped-bin.sh "$B" "$OUT/bin" intentbus-bench intentbus plugin-echo bench-relay bench-worker bench-plugin bench-load)
for s in 4 12; do
  "$B/intentbus-bench" --profile $s --host-prefix "valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file=$OUT/cg-$s" > "$OUT/run-$s.txt" 2>&1
done
python3 - "$OUT" <<'PY'
import glob, re, sys
out = sys.argv[1]
def totals(s):
    per = {}
    for f in sorted(glob.glob(f"{out}/cg-{s}-*")):
        for line in open(f, errors="replace"):
            if line.startswith(("totals:", "summary:")):
                per[f.rsplit("-", 1)[1]] = int(line.split()[1]); break
    return per
def replies(s):
    m = re.search(r"(\d+) replies", open(f"{out}/run-{s}.txt").read())
    return int(m.group(1))
a, b = totals(4), totals(12)
n = replies(12) - replies(4)
print(f"{n} more replies in the 12 s run; instructions per request by thread (the two busiest are")
print("the router thread, usually 01, and libzmq's I/O thread):")
for t in sorted(b, key=lambda t: -(b[t] - a.get(t, 0)))[:4]:
    print(f"  thread {t}: {(b[t] - a.get(t, 0)) / n:,.0f}")
print(f"  whole process: {(sum(b.values()) - sum(a.values())) / n:,.0f}")
print(f"profiles in {out}")
PY
