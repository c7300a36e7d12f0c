#!/usr/bin/env bash
# Copies the named binaries of a build into DIR without their debug sections and prints
# DIR. Valgrind 3.19 (Debian bookworm) cannot read the DWARF that Swift 6.3's release
# builds carry ("debuginfo reader: Possibly corrupted debuginfo file … Giving up"), so
# callgrind measures these copies; the symbol table stays, so profiles still name every
# function. Instruction counts are the same as the originals'.
# Usage: bench/stripped-bin.sh BUILD_DIR DIR NAME…
set -euo pipefail
from=$1 to=$2
shift 2
mkdir -p "$to"
for name in "$@"; do strip --strip-debug -o "$to/$name" "$from/$name"; done
echo "$to"
