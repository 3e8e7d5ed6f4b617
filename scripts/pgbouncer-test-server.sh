#!/usr/bin/env bash
# A throw-away PgBouncer in transaction mode in front of a PostgreSQL server, for the tests and the
# cluster example (ARCHITECTURE.md "Tests": real engines, never mocks); the counterpart of
# scripts/pg-test-server.sh.
#
#   scripts/pgbouncer-test-server.sh start DIR POSTGRES_URL [PORT]
#       writes DIR/pgbouncer.ini and starts pgbouncer on PORT or a free loopback port, forwarding
#       every database to the server of POSTGRES_URL as its user; prints the URL to use instead of
#       POSTGRES_URL (same user and database, PgBouncer's port)
#   scripts/pgbouncer-test-server.sh halt DIR
#       stops that pgbouncer, keeping DIR (its log)
#   scripts/pgbouncer-test-server.sh stop DIR
#       stops it and removes DIR
#
# pool_mode = transaction: a server connection belongs to a client for one transaction only (what
# makes named prepared statements and session state unreliable). default_pool_size is small (3 per
# database and user) so that a handful of clients already share server connections. Environment:
#   PGBOUNCER_POOL_SIZE=N                 another default_pool_size
#   PGBOUNCER_MAX_PREPARED_STATEMENTS=N   written as max_prepared_statements (PgBouncer >= 1.21
#                                         tracks named prepared statements in transaction mode;
#                                         older versions refuse to start with it)
# Trust authentication towards clients on 127.0.0.1 only (the server behind it trusts loopback too,
# as scripts/pg-test-server.sh configures it). PgBouncer refuses to run as root, so as root it runs as
# the `postgres` user. Exits non-zero, saying why on stderr, when pgbouncer is missing or cannot start.
set -euo pipefail
# shellcheck source=lib/test-server.sh
. "$(dirname "$0")/lib/test-server.sh"

usage() { echo "usage: $0 start DIR POSTGRES_URL [PORT] | halt DIR | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
action=$1
dir=$2

# A startup packet over a bare TCP connection: PgBouncer answers it (an authentication request or an
# error), so the port is served (psql may not be installed beside it).
answers() { # PORT USER DATABASE
  node -e "
    const [port, user, database] = process.argv.slice(1);
    const s = require('net').connect(Number(port), '127.0.0.1');
    s.setTimeout(500, () => process.exit(1));
    s.on('error', () => process.exit(1));
    s.on('connect', () => {
      const body = Buffer.from('user\0' + user + '\0database\0' + database + '\0\0');
      const head = Buffer.alloc(8);
      head.writeInt32BE(8 + body.length, 0);
      head.writeInt32BE(196608, 4);
      s.write(Buffer.concat([head, body]));
    });
    s.on('data', (d) => process.exit(d[0] === 0x52 ? 0 : 1));
  " "$1" "$2" "$3"
}

# pgbouncer's switch to the `postgres` user when we are root (it refuses to run as root).
owner_flag() {
  if [ "$(id -u)" = 0 ]; then echo "-u postgres"; fi
}

start() {
  local url=${1:-} fixed_port=${2:-} bin parts host pgport user database password port attempt
  [ -n "$url" ] || usage
  bin=$(command -v pgbouncer 2>/dev/null || { [ -x /usr/sbin/pgbouncer ] && echo /usr/sbin/pgbouncer; } || true)
  [ -n "$bin" ] || { echo "pgbouncer-test-server: pgbouncer is not installed" >&2; return 1; }
  # host, port, user and database of the server's URL (the password, if any, goes to the auth file).
  parts=$(node -e "
    const u = new URL(process.argv[1]);
    const db = decodeURIComponent(u.pathname.slice(1)) || 'postgres';
    console.log([u.hostname, u.port || '5432', decodeURIComponent(u.username) || 'postgres', db, decodeURIComponent(u.password)].join('\n'));
  " "$url")
  { read -r host; read -r pgport; read -r user; read -r database; read -r password || true; } <<<"$parts"
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "pgbouncer-test-server: running as root and there is no postgres user" >&2; return 1; }
    chown postgres "$dir"
  fi
  printf '"%s" "%s"\n' "$user" "$password" >"$dir/userlist.txt"
  for attempt in 1 2 3; do
    port=${fixed_port:-$(free_port)}
    cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=$host port=$pgport user=$user${password:+ password=$password}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
pool_mode = transaction
default_pool_size = ${PGBOUNCER_POOL_SIZE:-3}
max_client_conn = 500
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
admin_users = $user
${PGBOUNCER_MAX_PREPARED_STATEMENTS:+max_prepared_statements = $PGBOUNCER_MAX_PREPARED_STATEMENTS}
EOF
    [ "$(id -u)" != 0 ] || chown postgres "$dir"/*
    rm -f "$dir/pgbouncer.pid"
    # shellcheck disable=SC2046
    "$bin" -d $(owner_flag) "$dir/pgbouncer.ini" >>"$dir/start.log" 2>&1 || continue
    if wait_until answers "$port" "$user" "$database"; then
      echo "postgres://$user@127.0.0.1:$port/$database"
      return 0
    fi
    halt
  done
  cat "$dir/start.log" "$dir/pgbouncer.log" >&2 2>/dev/null || true
  return 1
}

halt() {
  # SIGTERM: immediate shutdown (SIGINT would wait for clients to leave).
  stop_pidfile "$dir/pgbouncer.pid"
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
