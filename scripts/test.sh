#!/usr/bin/env bash
# The whole test suite, from a clean checkout: installs what it needs, builds, runs every test.
# Used by README.md and .ci/run. Ends with the node test runner's summary and a final
# `N passed, N failed` line.
set -euo pipefail
cd "$(dirname "$0")/.."

# System tools some tests use: Graphviz checks that `svc graph` output is valid DOT; PostgreSQL,
# Redis and MariaDB are the real servers of the integration tests (ARCHITECTURE.md "Tests": real engines, never
# mocks). Installed only when missing and when we are allowed to; the tests that need them say so and
# skip otherwise.
have_postgres() { ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; }
install_missing() { # CHECK PACKAGE WHAT-SKIPS
  if eval "$1" || ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then return 0; fi
  # Debian starts a server package's service on install (nginx on port 80 of every interface,
  # pgbouncer on 6432): a policy-rc.d that refuses, for the length of the install, keeps the machine
  # to the loopback-only servers the tests start themselves.
  local policy=/usr/sbin/policy-rc.d own_policy=0
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1; fi
  (export DEBIAN_FRONTEND=noninteractive
   apt-get install -y -qq "$2" >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$2" >/dev/null 2>&1; }) </dev/null \
    || echo "note: could not install $2; $3 will be skipped"
  if [ "$own_policy" = 1 ]; then rm -f "$policy"; fi
}
install_missing 'command -v dot >/dev/null 2>&1' graphviz 'DOT acceptance tests'
install_missing have_postgres postgresql 'tests against a real PostgreSQL server'
install_missing 'command -v redis-server >/dev/null 2>&1' redis-server 'tests against a real Redis server'
install_missing 'command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]' mariadb-server 'tests against a real MariaDB server'
# Headless Chromium: the browser test of examples/live drives it with puppeteer-core (no browser download).
install_missing 'command -v chromium >/dev/null 2>&1' chromium 'the browser test of examples/live'
# PgBouncer in transaction mode in front of the test PostgreSQL (scripts/pgbouncer-test-server.sh), and
# nginx in front of three replicas (scripts/nginx-test-server.sh): the scale-out tests of test/cluster.
install_missing 'command -v pgbouncer >/dev/null 2>&1 || [ -x /usr/sbin/pgbouncer ]' pgbouncer 'the tests through PgBouncer'
install_missing 'command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]' nginx 'the tests with nginx in front of replicas'

# CI installs with `npm ci` on a clean clone, which refuses a lock file out of step with package.json
# (for example one missing another platform's optional binaries). A local run with node_modules
# already there would never notice, so the check runs every time (a dry run: well under a second).
if ! npm ci --dry-run --ignore-scripts --no-audit --no-fund </dev/null >/dev/null 2>&1; then
  echo "error: package-lock.json is out of step with package.json; run 'npm install' and commit the lock file" >&2
  npm ci --dry-run --ignore-scripts --no-audit --no-fund </dev/null 2>&1 | grep -m 5 'npm error' >&2 || true
  echo "0 passed, 1 failed"
  exit 1
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund </dev/null # its `prepare` script is the build
else
  npm run --silent build
fi

# What this run starts is stopped and removed on exit, last started first.
on_exit=()
trap 'for ((i = ${#on_exit[@]} - 1; i >= 0; i--)); do eval "${on_exit[i]}" || true; done' EXIT

# The tests run as the build above compiled them (dist/test/...): plain JavaScript, so no test process,
# and no `svc` process a test starts, loads a TypeScript loader first, which took more CPU than many a
# test file itself. Found from the sources, so a compiled file whose source is gone is not run. Source
# maps put the TypeScript lines in stack traces. (A single file from its source: test/paths.ts.)
mapfile -t files < <(find test -name '*.test.ts' | sort | sed -E 's|^(.*)\.ts$|dist/\1.js|')

# --- Node.js lines -------------------------------------------------------------------------------
# The unit tests again under each supported Node.js line other than the machine's own (docs/development.md
# "Supported Node.js lines"; scripts/node-lines.sh takes each line's binary from the npm registry once
# and keeps it in .cache/node-lines). Not the real-engine, end-to-end and browser tests (test/postgres,
# test/redis, test/mysql, test/connectors, test/e2e, test/cluster, test/docs/browser): they run once, in the main
# run. A line whose binary cannot be had is reported as skipped with the reason; the matrix's passes
# and failures count in the summary. It starts as soon as the build is there, and runs beside the lint
# and the main run, its report printed after it: in series the two overran the 15 minutes `npm test`
# may take on a 2-core machine (docs/development.md "Supported Node.js lines" has the figures). At a lower priority
# (nice), so that the main run, whose real-engine tests run nowhere else, keeps its pace.
mapfile -t unit_files < <(printf '%s\n' "${files[@]}" |
  grep -vE '^dist/test/(e2e|postgres|redis|mysql|connectors|cluster)/|^dist/test/docs/browser\.test\.js$')
matrix_totals=$(mktemp)
matrix_log=$(mktemp)
# In a process group of its own (setsid, where there is one), so that an interrupted run stops it whole.
matrix_start=(nice -n 10)
command -v setsid >/dev/null 2>&1 && matrix_start=(setsid nice -n 10)
"${matrix_start[@]}" scripts/node-lines.sh matrix "$matrix_totals" "${unit_files[@]}" >"$matrix_log" 2>&1 </dev/null &
matrix_pid=$!
on_exit+=('[ -z "$matrix_pid" ] || kill -- "-$matrix_pid" 2>/dev/null || kill "$matrix_pid" 2>/dev/null')
on_exit+=("rm -f $(printf %q "$matrix_totals") $(printf %q "$matrix_log")")

# One formatter and linter for the whole tree (biome.jsonc) and no unused file, dependency or export
# (knip.json). A finding fails the run and counts as one failed test in the summary line.
echo "== lint: biome check, knip"
lint_failed=0
npm run --silent lint </dev/null || lint_failed=1

# A throw-away PostgreSQL on a free loopback port for this run (scripts/pg-test-server.sh), stopped and
# removed on exit. A server given in SVC_TEST_POSTGRES_URL is used instead.
if [ -z "${SVC_TEST_POSTGRES_URL:-}" ]; then
  pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/svc-pg-test.XXXXXX")
  pg_err=$(mktemp)
  on_exit+=("scripts/pg-test-server.sh stop $(printf %q "$pg_dir"); rm -f $(printf %q "$pg_err")")
  if SVC_TEST_POSTGRES_URL=$(scripts/pg-test-server.sh start "$pg_dir" 2>"$pg_err"); then
    export SVC_TEST_POSTGRES_URL
  else
    unset SVC_TEST_POSTGRES_URL
    echo "note: could not start a PostgreSQL server; tests against it will be skipped: $(tail -n 3 "$pg_err")"
  fi
fi

# A throw-away Redis on a free loopback port for this run (scripts/redis-test-server.sh: persistence
# off), stopped and removed on exit. A server given in SVC_TEST_REDIS_URL is used instead.
if [ -z "${SVC_TEST_REDIS_URL:-}" ]; then
  redis_dir=$(mktemp -d "${TMPDIR:-/tmp}/svc-redis-test.XXXXXX")
  redis_err=$(mktemp)
  on_exit+=("scripts/redis-test-server.sh stop $(printf %q "$redis_dir"); rm -f $(printf %q "$redis_err")")
  if SVC_TEST_REDIS_URL=$(scripts/redis-test-server.sh start "$redis_dir" 2>"$redis_err"); then
    export SVC_TEST_REDIS_URL
  else
    unset SVC_TEST_REDIS_URL
    echo "note: could not start a Redis server; tests against it will be skipped: $(tail -n 3 "$redis_err")"
  fi
fi

# A throw-away MariaDB on a free loopback port for this run (scripts/mariadb-test-server.sh), stopped
# and removed on exit. A server given in SVC_TEST_MYSQL_URL is used instead.
if [ -z "${SVC_TEST_MYSQL_URL:-}" ]; then
  mysql_dir=$(mktemp -d "${TMPDIR:-/tmp}/svc-mariadb-test.XXXXXX")
  mysql_err=$(mktemp)
  on_exit+=("scripts/mariadb-test-server.sh stop $(printf %q "$mysql_dir"); rm -f $(printf %q "$mysql_err")")
  if SVC_TEST_MYSQL_URL=$(scripts/mariadb-test-server.sh start "$mysql_dir" 2>"$mysql_err"); then
    export SVC_TEST_MYSQL_URL
  else
    unset SVC_TEST_MYSQL_URL
    echo "note: could not start a MariaDB server; tests against it will be skipped: $(tail -n 3 "$mysql_err")"
  fi
fi

# One empty PGlite database for the run's tests to copy (test/connectors/helpers.ts): making one runs
# initdb, 3 to 15 s on this machine class, which each of some fifteen test files paid before.
pglite_dir=$(mktemp -d "${TMPDIR:-/tmp}/svc-pglite-run.XXXXXX")
on_exit+=("rm -rf $(printf %q "$pglite_dir")")
export SVC_TEST_PGLITE_TEMPLATE="$pglite_dir/template"

results=$(mktemp)
set +e
node --enable-source-maps --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$results" "${files[@]}" </dev/null
status=$?
set -e
pass=$(grep -E '^# pass ' "$results" | awk '{print $3}')
fail=$(grep -E '^# fail ' "$results" | awk '{print $3}')
rm -f "$results"

# --- Node.js lines: the report of the matrix started before the main run ---------------------------
echo
echo "== Node.js lines: the unit tests under each supported line other than the machine's own"
wait "$matrix_pid" || true
matrix_pid=
cat "$matrix_log"
# No totals means the matrix itself broke (its error is above): one failure, not a silent pass.
read -r matrix_pass matrix_fail <"$matrix_totals" || { matrix_pass=0 matrix_fail=1; }
pass=$(( ${pass:-0} + matrix_pass ))
fail=$(( ${fail:-0} + matrix_fail ))
if [ "$matrix_fail" != 0 ] && [ "$status" = 0 ]; then status=1; fi

if [ "$lint_failed" = 1 ]; then
  echo "lint failed (see the findings above the tests): counted as one failed test"
  fail=$(( ${fail:-0} + 1 ))
  [ "$status" = 0 ] && status=1
else
  pass=$(( ${pass:-0} + 1 ))
fi
echo "${pass:-0} passed, ${fail:-0} failed"
exit $status
