#!/usr/bin/env bash
# The Node.js lines svc supports, and a binary of each for the test matrix of scripts/test.sh.
#
#   scripts/node-lines.sh lines          the supported lines, newest last (one per line)
#   scripts/node-lines.sh path LINE      the path of LINE's node binary, installed on first use
#   scripts/node-lines.sh refresh LINE   install LINE's newest release again, then print its path
#   scripts/node-lines.sh matrix TOTALS FILE...
#                                        run the test files (compiled: dist/test/...) under every
#                                        supported line but the machine's own; report each line (or why it was skipped) and
#                                        write "PASSED FAILED" over all lines to TOTALS
#
# The binaries come from the npm registry only, through npm itself (which checks each tarball's
# integrity): the `node-<os>-<arch>@<line>` packages carry the official build as `bin/node`. Each
# line is installed once into .cache/node-lines/<line>/ (ignored by git) and reused from then on,
# offline included; `refresh` is how a newer patch release is taken. When a line cannot be had (no
# registry, no package for this platform), `path` fails with the reason on stderr, for the caller
# to report the line as skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

# Keep in step with package.json `engines` and docs/development.md "Supported Node.js lines" (test/portability
# checks all three agree). 20 is past its end of life but still the machines' own Node.js.
LINES=(22 24 26)
CACHE=.cache/node-lines

die() { echo "$*" >&2; exit 1; }

package_name() { # the registry package that carries this platform's build
  local os arch
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) return 1 ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) return 1 ;; esac
  echo "node-$os-$arch"
}

npm_reason() { # FILE: the line of npm's error output that says why
  { grep -m 1 -E 'FetchError|Not Found|ETARGET|No matching version' "$1" || grep -m 1 'npm error code' "$1" || tail -n 1 "$1"; } |
    sed -E 's/^npm error //; s/^FetchError: //'
}

# LINE: fetch the newest LINE.x.y into the cache. A subshell, so that `die` removes the work folder;
# the last step is one rename, so a concurrent run sees either no binary or a whole one.
install_line() (
  line=$1
  pkg=$(package_name) || die "no Node.js package for this platform ($(uname -s) $(uname -m))"
  mkdir -p "$CACHE"
  work=$(mktemp -d "$PWD/$CACHE/.install-$line.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  # One retry, not npm's default of two with back-off: an unreachable registry is known in seconds.
  if ! tarball=$(cd "$work" && npm pack "$pkg@$line" --loglevel=error --fetch-retries=1 --fetch-retry-mintimeout=1000 \
    --no-audit --no-fund 2>"$work/npm.err" </dev/null); then
    die "npm pack $pkg@$line failed: $(npm_reason "$work/npm.err")"
  fi
  tar -xzf "$work/$tarball" -C "$work" package/bin/node 2>"$work/tar.err" ||
    die "$tarball has no package/bin/node: $(head -n 1 "$work/tar.err")"
  version=$("$work/package/bin/node" --version 2>&1) || die "the node of $tarball does not run here: $version"
  [[ $version == "v$line."* ]] || die "$tarball holds node $version, not a $line.x release"
  mkdir -p "$work/line"
  mv "$work/package/bin/node" "$work/line/node"
  echo "$version" >"$work/line/version"
  rm -rf "${CACHE:?}/$line.old"
  [ -d "$CACHE/$line" ] && mv "$CACHE/$line" "$CACHE/$line.old"
  mv -T "$work/line" "$CACHE/$line" 2>/dev/null || true # another run may have won the race: either copy is good
  rm -rf "${CACHE:?}/$line.old"
  [ -x "$CACHE/$line/node" ] || die "could not place node $version in $CACHE/$line"
)

supported() { local l; for l in "${LINES[@]}"; do [ "$l" = "$1" ] && return 0; done; return 1; }

binary_of() { # LINE [refresh]: install when missing (or asked to), print the binary's path
  supported "$1" || die "$1 is not a supported line (${LINES[*]})"
  if [ "${2:-}" = refresh ] || [ ! -x "$CACHE/$1/node" ]; then install_line "$1" || exit 1; fi
  echo "$PWD/$CACHE/$1/node"
}

# TOTALS FILE...: what scripts/test.sh runs beside its main run (which is on the machine's own node).
matrix() (
  totals=$1
  shift
  own=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo none)
  passed=0 failed=0
  err=$(mktemp)
  trap 'rm -f "$err"' EXIT
  for line in "${LINES[@]}"; do
    if [ "$line" = "$own" ]; then
      echo "node $line: the machine's own node, tested by the main run"
      continue
    fi
    if ! bin=$(binary_of "$line" 2>"$err"); then
      echo "node $line: SKIPPED, no binary: $(tail -n 1 "$err")"
      continue
    fi
    version=$(cat "$CACHE/$line/version")
    echo "== node $line ($version): ${#} test files"
    spec=$(mktemp)
    start=$SECONDS
    # dot on the screen: one character a test. spec in a file: its closing lines are the counts, and on
    # a failure it is what to show, since it alone carries what a test file printed on stderr (why it
    # could not even load, for one). A test file still running after 5 minutes is cancelled and counts
    # as failed: a line on which something hangs (as the stream pump once did on 22) must not hold
    # `npm test` until CI's own limit. Two files at a time: some of them mostly wait (timers, child
    # processes), and beside the main run a core was idle a fifth of the time.
    "$bin" --enable-source-maps --test --test-concurrency=2 --test-timeout=300000 --test-reporter=dot --test-reporter-destination=stdout \
      --test-reporter=spec --test-reporter-destination="$spec" "$@" </dev/null || true
    p=$(awk '/^ℹ pass /{print $3}' "$spec")
    f=$(awk '/^ℹ fail /{print $3}' "$spec")
    sk=$(awk '/^ℹ skipped /{print $3}' "$spec")
    if [ "${f:-1}" != 0 ]; then
      # The dot reporter lists the failed tests; what the test files printed (stderr included) is in
      # the spec report, above its summary: shown without the passing tests and suite headers.
      echo "What the test files printed, and where they failed:"
      sed '/^ℹ tests /,$d' "$spec" | grep -vE '^[[:space:]]*(✔|▶|﹣)' | head -n 400
    fi
    rm -f "$spec"
    if [ -z "$p" ]; then # the runner died before its summary
      p=0 f=1
    fi
    echo "node $line ($version): ${p} passed, ${f} failed, ${sk:-0} skipped in $((SECONDS - start)) s"
    passed=$((passed + p))
    failed=$((failed + f))
  done
  echo "$passed $failed" >"$totals"
)

case "${1:-}" in
  lines) printf '%s\n' "${LINES[@]}" ;;
  path | refresh)
    [ -n "${2:-}" ] || die "usage: $0 $1 LINE"
    binary_of "$2" "$1"
    ;;
  matrix)
    [ $# -ge 3 ] || die "usage: $0 matrix TOTALS FILE..."
    shift
    mkdir -p "$CACHE"
    matrix "$@"
    ;;
  *) die "usage: $0 lines | path LINE | refresh LINE | matrix TOTALS FILE..." ;;
esac
