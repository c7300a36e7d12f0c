#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are not installed yet
# (nothing when all are); used by install-deps.sh and install-bench-peer-deps.sh.
#   scripts/apt-install-missing.sh LABEL PACKAGE...
set -euo pipefail

label=$1
shift
missing=()
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "$label: installing ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
