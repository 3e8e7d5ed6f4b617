#!/usr/bin/env bash
# A throw-away MariaDB server for the integration tests (ARCHITECTURE.md "Tests": real engines, never
# mocks), the counterpart of scripts/pg-test-server.sh.
#
#   scripts/mariadb-test-server.sh start DIR [PORT]  initialises a data directory in DIR (unless it has
#                                                    one) and starts mariadbd on PORT or a free loopback
#                                                    port; prints its URL (database svc_test, created)
#   scripts/mariadb-test-server.sh halt DIR          stops that server, keeping DIR (outage tests restart it)
#   scripts/mariadb-test-server.sh stop DIR          stops that server and removes DIR
#
# MARIADB_TEST_SERVER_ARGS adds options to mariadbd's command line (space-separated): the TLS test
# starts a server of its own with --ssl-cert, --ssl-key and --require-secure-transport.
#
# Fast rather than durable: no binary log, the redo log flushed about once a second, a small buffer
# pool; root without a password on 127.0.0.1 only, the socket inside DIR. Runs as the current user
# (--user=root when that is root: mariadbd refuses root otherwise). Exits non-zero, saying why on
# stderr, when MariaDB is not installed or cannot start.
set -euo pipefail
# shellcheck source=lib/test-server.sh
. "$(dirname "$0")/lib/test-server.sh"

usage() { echo "usage: $0 start DIR [PORT] | halt DIR | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
action=$1
dir=$2
fixed_port=${3:-}

# Debian puts mariadbd in /usr/sbin, outside a plain user's PATH.
server() {
  if command -v mariadbd >/dev/null 2>&1; then command -v mariadbd; return; fi
  if [ -x /usr/sbin/mariadbd ]; then echo /usr/sbin/mariadbd; return; fi
  echo "mariadb-test-server: mariadbd is not installed (Debian: mariadb-server)" >&2
  return 1
}

user_args() { if [ "$(id -u)" = 0 ]; then echo --user=root; fi; }

# The server's socket answers a query (the mariadb client comes with mariadb-server).
answers() { mariadb --no-defaults --protocol=socket -S "$dir/mysqld.sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; }

start() {
  local bin port attempt
  bin=$(server)
  command -v mariadb-install-db >/dev/null 2>&1 || { echo "mariadb-test-server: mariadb-install-db is not installed" >&2; return 1; }
  mkdir -p "$dir"
  if [ ! -d "$dir/data/mysql" ]; then
    # `normal`: root logs in without a password over TCP too (the default binds root to the socket's user).
    # shellcheck disable=SC2046
    mariadb-install-db --no-defaults $(user_args) --datadir="$dir/data" --auth-root-authentication-method=normal \
      --skip-test-db --skip-name-resolve >"$dir/install.log" 2>&1 || { cat "$dir/install.log" >&2; return 1; }
  fi
  # A free port can be taken between choosing it and binding it: try a few.
  for attempt in 1 2 3; do
    port=${fixed_port:-$(free_port)}
    rm -f "$dir/mariadb.pid"
    # shellcheck disable=SC2046,SC2086
    setsid "$bin" --no-defaults $(user_args) --datadir="$dir/data" --socket="$dir/mysqld.sock" --pid-file="$dir/mariadb.pid" \
      --log-error="$dir/server.log" --bind-address=127.0.0.1 --port="$port" --skip-name-resolve --skip-log-bin \
      --innodb-flush-log-at-trx-commit=0 --innodb-buffer-pool-size=64M --innodb-doublewrite=0 --max-connections=300 \
      ${MARIADB_TEST_SERVER_ARGS:-} </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/mariadb.pid.shell"
    if wait_until answers || { sleep 2 && wait_until answers; }; then
      mariadb --no-defaults --protocol=socket -S "$dir/mysqld.sock" -uroot -e 'CREATE DATABASE IF NOT EXISTS svc_test' >/dev/null
      echo "mysql://root@127.0.0.1:$port/svc_test"
      return 0
    fi
    halt
  done
  cat "$dir/server.log" >&2 2>/dev/null || true
  return 1
}

halt() {
  # mariadbd writes its own pid file once it runs; the shell's is there from the fork on. Waits for
  # the exit, so that a restart can bind the same port.
  if [ -f "$dir/mariadb.pid" ]; then stop_pidfile "$dir/mariadb.pid"; fi
  stop_pidfile "$dir/mariadb.pid.shell"
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
