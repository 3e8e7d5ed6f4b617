#!/usr/bin/env bash
# A throw-away PostgreSQL server for the integration tests (ARCHITECTURE.md "Tests": real engines,
# never mocks).
#
#   scripts/pg-test-server.sh start DIR [PORT]  initialises a cluster in DIR (unless it has one) and
#                                               starts it on PORT or a free loopback port; prints its URL
#   scripts/pg-test-server.sh halt DIR          stops that server, keeping DIR (outage tests restart it)
#   scripts/pg-test-server.sh stop DIR          stops that server and removes DIR
#
# Fast rather than durable: initdb --no-sync, fsync off, trust authentication on 127.0.0.1 only, unix
# sockets inside DIR. PostgreSQL refuses to run as root, so as root the cluster belongs to the
# `postgres` user (created by Debian's package). Exits non-zero, saying why on stderr, when no
# PostgreSQL is installed or it cannot start.
set -euo pipefail
# shellcheck source=lib/test-server.sh
. "$(dirname "$0")/lib/test-server.sh"

usage() { echo "usage: $0 start DIR [PORT] | halt DIR | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
action=$1
dir=$2
fixed_port=${3:-}

# Debian installs the server binaries outside PATH, one directory per major version; take the newest.
bindir() {
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$found" ] && [ -x "$found/initdb" ]; then echo "$found"; return; fi
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  echo "pg-test-server: no PostgreSQL server found (initdb, pg_ctl)" >&2
  return 1
}

# Runs a command as the cluster's owner: ourselves, or `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    if command -v runuser >/dev/null 2>&1; then runuser -u postgres -- "$@"
    else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
    fi
  else "$@"
  fi
}

start() {
  local bin port attempt
  bin=$(bindir)
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "pg-test-server: running as root and there is no postgres user" >&2; return 1; }
    chown postgres "$dir"
    as_owner test -w "$dir" || { echo "pg-test-server: the postgres user cannot reach $dir (is a parent directory private?)" >&2; return 1; }
  fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync --no-instructions >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; return 1; }
  fi
  # A free port can be taken between choosing it and binding it: try a few.
  for attempt in 1 2 3; do
    port=${fixed_port:-$(free_port)}
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null 2>&1; then
      echo "postgres://postgres@127.0.0.1:$port/postgres"
      return 0
    fi
  done
  cat "$dir/server.log" >&2 || true
  return 1
}

halt() {
  local bin
  if [ -f "$dir/data/postmaster.pid" ] && bin=$(bindir 2>/dev/null); then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
}

stop() {
  halt
  rm -rf "$dir"
}

case "$action" in
  start) start ;;
  halt) halt ;;
  stop) stop ;;
  *) usage ;;
esac
