#!/usr/bin/env bash
# A throw-away Redis server for the integration tests (ARCHITECTURE.md "Tests": real engines, never
# mocks), the counterpart of scripts/pg-test-server.sh.
#
#   scripts/redis-test-server.sh start DIR [PORT]  starts redis-server in DIR on PORT or a free loopback
#                                                  port, persistence off; prints its URL
#   scripts/redis-test-server.sh halt DIR          stops that server, keeping DIR (outage tests restart it)
#   scripts/redis-test-server.sh stop DIR          stops that server and removes DIR
#
# Nothing is written to disk but the log and the pid file: no RDB snapshots (--save ''), no AOF
# (--appendonly no). Exits non-zero, saying why on stderr, when redis-server is missing or cannot start.
set -euo pipefail
# shellcheck source=lib/test-server.sh
. "$(dirname "$0")/lib/test-server.sh"

usage() { echo "usage: $0 start DIR [PORT] | halt DIR | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] && [ $# -le 3 ] || usage
action=$1
dir=$2
fixed_port=${3:-}

# PING over a bare TCP connection (redis-cli may not be installed beside the server).
answers() { # PORT
  node -e "
    const s = require('net').connect(Number(process.argv[1]), '127.0.0.1');
    s.setTimeout(500, () => process.exit(1));
    s.on('error', () => process.exit(1));
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => process.exit(String(d).startsWith('+PONG') ? 0 : 1));
  " "$1"
}

start() {
  local port attempt
  command -v redis-server >/dev/null 2>&1 || { echo "redis-test-server: redis-server is not installed" >&2; return 1; }
  mkdir -p "$dir"
  # A free port can be taken between choosing it and binding it: try a few.
  for attempt in 1 2 3; do
    port=${fixed_port:-$(free_port)}
    rm -f "$dir/redis.pid"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
      --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/server.log" >/dev/null 2>&1 || continue
    if wait_until answers "$port"; then
      echo "redis://127.0.0.1:$port"
      return 0
    fi
    halt
  done
  cat "$dir/server.log" >&2 2>/dev/null || true
  return 1
}

halt() {
  # Waits for the exit, so that a restart can bind the same port.
  stop_pidfile "$dir/redis.pid"
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
