#!/usr/bin/env bash
# System packages for `make bench-peers` only: Debian's dbus-daemon, for the D-Bus peer.
# Installed only when missing; safe to run again.
set -euo pipefail

missing=()
for p in dbus-daemon; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "install-bench-peer-deps: installing ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
