# Shared by the throw-away test servers (scripts/*-test-server.sh): sourced, defines functions only.

# free_port: a TCP port free on the loopback interface right now (the OS picks it).
free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# wait_until COMMAND...: runs COMMAND every 0.1 s until it succeeds (0) or 5 s have passed (1).
wait_until() {
  local tries
  for tries in $(seq 1 50); do
    "$@" && return 0
    sleep 0.1
  done
  return 1
}

# stop_pidfile FILE: SIGTERM the process FILE names (nginx and pgbouncer take it as "shut down now",
# their gentler signals waiting for clients to leave; redis-server as a clean shutdown), wait up to
# 5 s for it to exit, then SIGKILL; the file is removed.
stop_pidfile() {
  local file=$1 pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  kill -TERM "$pid" 2>/dev/null || true
  wait_until gone "$pid" || kill -9 "$pid" 2>/dev/null || true
  rm -f "$file"
}

gone() { ! kill -0 "$1" 2>/dev/null; }
