#!/usr/bin/env bash
# System packages for `make bench-peers` only: Debian's dbus-daemon, for the D-Bus peer.
# Installed only when missing; safe to run again.
set -euo pipefail

"$(dirname "$0")/apt-install-missing.sh" install-bench-peer-deps dbus-daemon
