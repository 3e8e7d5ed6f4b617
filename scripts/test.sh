#!/usr/bin/env bash
# The whole test suite, from a clean checkout: installs what it needs, builds, runs every test.
# Used by README.md and .ci/run. Ends with the node test runner's summary (`# pass N` / `# fail N`)
# and a final `N passed, N failed` line.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund </dev/null
fi
npm run --silent build

mapfile -t files < <(find test -name '*.test.ts' | sort)
set +e
node --import tsx --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination=.tmp-test-results.tap "${files[@]}"
status=$?
set -e
pass=$(grep -E '^# pass ' .tmp-test-results.tap | awk '{print $3}')
fail=$(grep -E '^# fail ' .tmp-test-results.tap | awk '{print $3}')
rm -f .tmp-test-results.tap
echo "${pass:-0} passed, ${fail:-0} failed"
exit $status
