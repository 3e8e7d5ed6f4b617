#!/usr/bin/env bash
# The whole test suite, from a clean checkout: installs what it needs, builds, runs every test.
# Used by README.md and .ci/run. Ends with the node test runner's summary and a final
# `N passed, N failed` line.
set -euo pipefail
cd "$(dirname "$0")/.."

# System tools some tests use (Graphviz checks that `svc graph` output is valid DOT).
# Installed only when missing and when we are allowed to; the tests that need them say so and skip otherwise.
if ! command -v dot >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  (apt-get install -y -qq graphviz >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq graphviz >/dev/null 2>&1; }) </dev/null \
    || echo "note: could not install graphviz; DOT acceptance tests will be skipped"
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund </dev/null
fi
npm run --silent build

mapfile -t files < <(find test -name '*.test.ts' | sort)
results=$(mktemp)
set +e
node --import tsx --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$results" "${files[@]}" </dev/null
status=$?
set -e
pass=$(grep -E '^# pass ' "$results" | awk '{print $3}')
fail=$(grep -E '^# fail ' "$results" | awk '{print $3}')
rm -f "$results"
echo "${pass:-0} passed, ${fail:-0} failed"
exit $status
