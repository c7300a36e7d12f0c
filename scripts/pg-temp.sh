#!/usr/bin/env bash
# A throwaway PostgreSQL server for tests (docs/scale-out.md, docs/testing.md), on
# Debian's own binaries: initdb into DIR/data, a unix socket in DIR, no TCP at all.
#
#   scripts/pg-temp.sh start DIR PORT   initdb when DIR/data is missing, then start the server;
#                                       prints its connection URL (user intentbus, trust auth)
#   scripts/pg-temp.sh stop DIR         stops DIR's server (pg_ctl stop -m fast), keeps the data
#   scripts/pg-temp.sh destroy DIR      stops DIR's server if it runs, then removes DIR
#
# PORT only names the socket file (DIR/.s.PGSQL.PORT): DIR is the test's own, so two
# servers never collide. postgres refuses to run as root: as root the server runs as the
# `postgres` system user the Debian package creates (runuser), and DIR is made theirs.
# Only the server of DIR is ever stopped (pg_ctl on DIR/data, which signals its pid).
set -euo pipefail

usage() { echo "usage: $0 start DIR PORT | stop DIR | destroy DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
command=$1
dir=$2

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "pg-temp: no PostgreSQL server in /usr/lib/postgresql/*/bin; install the postgresql package (scripts/install-deps.sh)" >&2
    exit 1
fi

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || { echo "pg-temp: running as root and there is no postgres user to run the server as" >&2; exit 1; }
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

running() { [ -f "$dir/data/postmaster.pid" ] && as_owner "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; }

case $command in
start)
    [ $# -eq 3 ] || usage
    port=$3
    case $port in ''|*[!0-9]*) echo "pg-temp: PORT must be a number, got '$port'" >&2; exit 2;; esac
    mkdir -p "$dir"
    chmod 700 "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        if ! as_owner "$bindir/initdb" -D "$dir/data" -U intentbus -A trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1; then
            echo "pg-temp: initdb failed:" >&2
            cat "$dir/initdb.log" >&2
            exit 1
        fi
    fi
    # fsync off: a test's server holds nothing worth an fsync, and the machine is shared.
    if ! as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
            -o "-p $port -k $dir -c listen_addresses= -c fsync=off" start >/dev/null; then
        echo "pg-temp: the server did not start:" >&2
        tail -n 20 "$dir/server.log" >&2 || true
        exit 1
    fi
    echo "postgresql://intentbus@/postgres?host=$dir&port=$port"
    ;;
stop)
    if running; then as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null; fi
    ;;
destroy)
    if running; then as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null; fi
    rm -rf "$dir"
    ;;
*)
    usage
    ;;
esac
