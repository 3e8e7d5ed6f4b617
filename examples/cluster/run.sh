#!/usr/bin/env bash
# Starts the cluster example on loopback ports, for a developer: PostgreSQL, PgBouncer in transaction
# mode in front of it, Redis, three svc replicas of examples/cluster, and nginx in front of them.
# Prints where each part is and how to watch it; Ctrl-C (or SIGTERM) stops everything and removes the
# run directory (KEEP=1 keeps it, with its logs).
#
#   examples/cluster/run.sh                 # nginx on a free port
#   PORT=8080 REPLICAS=3 examples/cluster/run.sh
#
# Needs: PostgreSQL, pgbouncer, redis-server and nginx installed (Debian: postgresql pgbouncer
# redis-server nginx), and svc built (npm install, or npm run build). Nothing needs root; as root the
# servers that refuse it (PostgreSQL, PgBouncer) run as the `postgres` user.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

replicas=${REPLICAS:-3}
run=$(mktemp -d "${TMPDIR:-/tmp}/svc-cluster-XXXXXX")
# As root, the postgres user must reach the servers' directories inside it.
chmod 755 "$run"
pids=()

say() { printf '%s\n' "$*" >&2; }

free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

stop_all() {
  trap - EXIT INT TERM
  say ''
  say 'stopping the cluster...'
  local pid
  # Replicas first (SIGTERM: they drain, SSE clients are told to reconnect), then what they use.
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${KEEP:-}" = 1 ]; then
    scripts/nginx-test-server.sh halt "$run/nginx" >/dev/null 2>&1 || true
    scripts/pgbouncer-test-server.sh halt "$run/pgbouncer" >/dev/null 2>&1 || true
    scripts/redis-test-server.sh halt "$run/redis" >/dev/null 2>&1 || true
    scripts/pg-test-server.sh halt "$run/postgres" >/dev/null 2>&1 || true
    say "kept $run (the logs, and the data of Redis and PostgreSQL)"
    return
  fi
  scripts/nginx-test-server.sh stop "$run/nginx" >/dev/null 2>&1 || true
  scripts/pgbouncer-test-server.sh stop "$run/pgbouncer" >/dev/null 2>&1 || true
  scripts/redis-test-server.sh stop "$run/redis" >/dev/null 2>&1 || true
  scripts/pg-test-server.sh stop "$run/postgres" >/dev/null 2>&1 || true
  rm -rf "$run"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[ -f dist/src/cli/main.js ] || { say 'svc is not built: run npm install (or npm run build) first'; exit 1; }

say "run directory: $run"
postgres_url=$(scripts/pg-test-server.sh start "$run/postgres")
# The bound of every statement, on the database: PgBouncer refuses the start-up parameter a
# connection's `statement_timeout` would send (README.md, "Running more than one replica").
node -e "
  const pg = require('pg');
  const c = new pg.Client(process.argv[1]);
  c.connect().then(() => c.query(\"ALTER DATABASE postgres SET statement_timeout = '5s'\")).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });
" "$postgres_url"
say "postgres   $postgres_url   (log: $run/postgres/server.log)"
database_url=$(PGBOUNCER_POOL_SIZE=${PGBOUNCER_POOL_SIZE:-10} scripts/pgbouncer-test-server.sh start "$run/pgbouncer" "$postgres_url")
say "pgbouncer  $database_url   (transaction mode; log: $run/pgbouncer/pgbouncer.log)"
redis_url=$(scripts/redis-test-server.sh start "$run/redis")
say "redis      $redis_url   (log: $run/redis/server.log)"

upstreams=()
for i in $(seq 1 "$replicas"); do
  port=$(free_port)
  SVC_REPLICA="r$i" REDIS_URL="$redis_url" DATABASE_URL="$database_url" \
    node bin/svc.js serve -c examples/cluster --port "$port" >"$run/replica-$i.log" 2>&1 &
  pids+=("$!")
  upstreams+=("127.0.0.1:$port")
done
# They boot together: one applies the migrations, the others wait on its lock and find them applied.
for i in $(seq 1 "$replicas"); do
  for _ in $(seq 1 300); do
    grep -q 'listening on' "$run/replica-$i.log" && break
    kill -0 "${pids[$((i - 1))]}" 2>/dev/null || { cat "$run/replica-$i.log" >&2; exit 1; }
    sleep 0.1
  done
  grep -q 'listening on' "$run/replica-$i.log" || { say "replica r$i did not start within 30 s"; cat "$run/replica-$i.log" >&2; exit 1; }
  say "replica r$i http://${upstreams[$((i - 1))]}   pid ${pids[$((i - 1))]}   (log: $run/replica-$i.log)"
done

nginx_args=("$run/nginx" examples/cluster/nginx.conf "${upstreams[@]}")
[ -z "${PORT:-}" ] || nginx_args+=(--port "$PORT")
url=$(scripts/nginx-test-server.sh start "${nginx_args[@]}")
say "nginx      $url   (access log: $run/nginx/access.log)"
say ''
say "The cluster answers at $url:"
say "  curl -N $url/events                                    # the live feed (any replica)"
say "  curl -H 'content-type: application/json' -d '{\"author\":\"ada\",\"text\":\"hello\"}' $url/messages"
say "  curl -i $url/messages/1                                # X-Cache: MISS, then HIT from every replica"
say "  tail -f $run/nginx/access.log                          # which replica answered, retries"
say "  kill ${pids[0]}                                        # stop replica r1: its SSE clients move on"
say 'Ctrl-C stops everything.'

# Until interrupted (or every replica has exited).
wait "${pids[@]}" || true
