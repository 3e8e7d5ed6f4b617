#!/usr/bin/env bash
# A throw-away nginx in front of svc replicas, for the tests and the cluster example
# (examples/cluster); the counterpart of scripts/redis-test-server.sh.
#
#   scripts/nginx-test-server.sh start DIR TEMPLATE UPSTREAM... [--port PORT]
#       writes TEMPLATE (examples/cluster/nginx.conf) to DIR/nginx.conf with {{DIR}}, {{PORT}} (PORT
#       or a free loopback port) and each line holding {{UPSTREAM}} once per UPSTREAM (host:port),
#       checks it (nginx -t), starts nginx as a daemon with its pid file and logs in DIR; prints its URL
#   scripts/nginx-test-server.sh halt DIR
#       stops that nginx (fast shutdown), keeping DIR (its logs)
#   scripts/nginx-test-server.sh stop DIR
#       stops it and removes DIR
#
# No root needed: everything nginx writes is in DIR. As root its worker runs as nginx's default user
# (nobody), so DIR is made readable to it. Exits non-zero, saying why on stderr, when nginx is missing
# or cannot start.
set -euo pipefail
# shellcheck source=lib/test-server.sh
. "$(dirname "$0")/lib/test-server.sh"

usage() { echo "usage: $0 start DIR TEMPLATE UPSTREAM... [--port PORT] | halt DIR | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
action=$1
dir=$2

nginx_bin() {
  if command -v nginx >/dev/null 2>&1; then command -v nginx; return; fi
  if [ -x /usr/sbin/nginx ]; then echo /usr/sbin/nginx; return; fi
  echo "nginx-test-server: nginx is not installed" >&2
  return 1
}

# A TCP connection to the port succeeds.
answers() { # PORT
  node -e "
    const s = require('net').connect(Number(process.argv[1]), '127.0.0.1');
    s.setTimeout(500, () => process.exit(1));
    s.on('error', () => process.exit(1));
    s.on('connect', () => process.exit(0));
  " "$1"
}

render() { # TEMPLATE PORT UPSTREAM...
  local template=$1 port=$2
  shift 2
  UPSTREAMS="$*" DIR="$dir" PORT="$port" awk '
    BEGIN { n = split(ENVIRON["UPSTREAMS"], upstreams, " ") }
    {
      gsub(/\{\{DIR\}\}/, ENVIRON["DIR"]); gsub(/\{\{PORT\}\}/, ENVIRON["PORT"])
      if (index($0, "{{UPSTREAM}}") == 0) { print; next }
      for (i = 1; i <= n; i++) { line = $0; gsub(/\{\{UPSTREAM\}\}/, upstreams[i], line); print line }
    }' "$template"
}

started() { [ -f "$dir/nginx.pid" ] && answers "$1"; } # PORT

start() {
  local template=${1:-} fixed_port='' upstreams=() bin port attempt
  [ -n "$template" ] || usage
  shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --port) fixed_port=${2:?--port needs a value}; shift 2 ;;
      *) upstreams+=("$1"); shift ;;
    esac
  done
  [ ${#upstreams[@]} -gt 0 ] || usage
  bin=$(nginx_bin)
  mkdir -p "$dir/tmp"
  # As root the worker is `nobody`: it must reach DIR (temporary files of large bodies).
  [ "$(id -u)" != 0 ] || chmod 755 "$dir" "$dir/tmp"
  for attempt in 1 2 3; do
    port=${fixed_port:-$(free_port)}
    render "$template" "$port" "${upstreams[@]}" >"$dir/nginx.conf"
    rm -f "$dir/nginx.pid"
    # -e: the error log before the configuration is read (the default one is outside DIR).
    if ! "$bin" -t -q -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" 2>"$dir/start.log"; then
      cat "$dir/start.log" >&2
      return 1
    fi
    "$bin" -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" 2>>"$dir/start.log" || continue
    if wait_until started "$port"; then
      echo "http://127.0.0.1:$port"
      return 0
    fi
    halt
  done
  cat "$dir/start.log" "$dir/error.log" >&2 2>/dev/null || true
  return 1
}

halt() {
  # SIGTERM: fast shutdown (SIGQUIT would wait for open streams to end).
  stop_pidfile "$dir/nginx.pid"
}

stop() {
  halt
  rm -rf "$dir"
}

case "$action" in
  start) shift 2; start "$@" ;;
  halt) [ $# -eq 2 ] || usage; halt ;;
  stop) [ $# -eq 2 ] || usage; stop ;;
  *) usage ;;
esac
