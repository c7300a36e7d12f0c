#!/usr/bin/env bash
# Installs the system packages IntentBus needs, only when something is missing.
# Called by `make run` and `make test`; safe to run again.
set -euo pipefail

# libpq-dev: the PostgreSQL state back end; postgresql: the server its tests start (scripts/pg-temp.sh).
packages=(pkg-config libzmq3-dev libyaml-dev libsqlite3-dev libsodium-dev libpq-dev postgresql)
# The Python client and its tests need python3 with a working `python3 -m venv`; Debian's
# python3 only has it with python3-venv (ensurepip), other pythons (pyenv) bring their own.
if ! command -v python3 >/dev/null 2>&1; then
    packages+=(python3 python3-venv)
elif ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    packages+=(python3-venv)
fi
"$(dirname "$0")/apt-install-missing.sh" install-deps "${packages[@]}"

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
    echo "install-deps: no Swift toolchain found (expected swift on PATH or /opt/swift/usr/bin/swift)" >&2
    exit 1
fi
