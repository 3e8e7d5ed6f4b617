# Sourced by the test-server scripts whose daemon writes a pid file (nginx, pgbouncer).

# stop_pidfile FILE: SIGTERM the process FILE names (both daemons take it as "shut down now"; their
# gentler signals wait for clients to leave), wait up to 5 s, then SIGKILL; the file is removed.
stop_pidfile() {
  local file=$1 pid tries
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  kill -TERM "$pid" 2>/dev/null || true
  for tries in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$file"
}
