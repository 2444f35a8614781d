#!/usr/bin/env bash
# Sets up, builds and runs every test: the release build (gcc) and the suites that run its programs
# (the CLI's, the browser's, interop, monitoring, MCP, packaging), then the clang AddressSanitizer +
# UndefinedBehaviorSanitizer build and every suite, then every fuzz target, built from the same
# sanitizer objects, for a short, fixed time (scripts/fuzz.sh, fuzz/README.md). The module suites
# are compiled and run once, under the sanitizers, and the sanitizer build compiles while the
# release suites run (docs/build.md).
# The fuzz targets run beside the sanitizer suites.
# Prints ctest's summary for each build, `fuzz: N passed, M failed`, and the wall and CPU time of
# each phase (docs/build.md).
#
#   scripts/test.sh              # what CI runs (.ci/run); ccache makes a second run fast
#   scripts/test.sh --timings    # the same from cold: no ccache, the build folders removed first
set -euo pipefail
cd "$(dirname "$0")/.."

cold=0
case "${1:-}" in
  "") ;;
  --timings) cold=1 ;;
  *) echo "usage: scripts/test.sh [--timings]" >&2; exit 2 ;;
esac
if [ $cold -eq 1 ]; then
  export CCACHE_DISABLE=1
  rm -rf build/release build/debug
fi

report=$(mktemp "${TMPDIR:-/tmp}/parley-test-times.XXXXXX")
trap 'rm -f "$report"' EXIT
status=0
# phase NAME COMMAND...: runs COMMAND, records its wall, user and system seconds (children included);
# a failing phase fails the run but the later phases still run.
phase() {
  local name=$1
  shift
  local times rc=0
  times=$(mktemp "${TMPDIR:-/tmp}/parley-phase.XXXXXX")
  local TIMEFORMAT='%R %U %S'
  { time "$@" 2>&3 || rc=$?; } 3>&2 2>"$times"
  echo "$name $(tail -1 "$times") $rc" >>"$report"
  rm -f "$times"
  [ $rc -eq 0 ] || status=1
  return 0
}

started=$(date +%s)
phase setup scripts/setup.sh
[ $status -eq 0 ] || exit 1
rm -f build/release/Testing/Temporary/LastTestsFailed.log build/debug/Testing/Temporary/LastTestsFailed.log
echo "=== release: build ==="
phase release-build scripts/build.sh release -DPARLEY_TEST_SCOPE=program
# The release suites wait on browsers, servers and child processes more than they compute, so the
# sanitizer build compiles beside them at the lowest priority, on the CPU they leave (a few
# minutes of a cold run); its output goes to a file, shown when it ends.
echo "=== release: test; the sanitizer build compiles beside it (nice 19) ==="
mkdir -p build
debug_build_log=build/debug-build.log
phase debug-build nice -n 19 scripts/build.sh debug -DPARLEY_TEST_SCOPE=all >"$debug_build_log" 2>&1 &
debug_build=$!
phase release-test ctest --preset release
wait $debug_build || true  # its status is in the report
echo "=== debug: build (its last lines; all of it in $debug_build_log) ==="
if grep -q '^debug-build .* 0$' "$report"; then
  tail -n 3 "$debug_build_log"
else
  status=1
  tail -n 60 "$debug_build_log"
fi
# The sanitizer suites leave a core idle about a third of the time (servers and child processes
# they wait on): the fuzz targets, built by the sanitizer build, run beside them at the lowest
# priority, 20 s each (on the CPU the suites leave, about the inputs 10 s alone gave; docs/build.md),
# and end before the suites do; their output goes to a file, shown after the suites.
fuzz_seconds=${PARLEY_FUZZ_SECONDS:-20}
echo "=== debug: test; the fuzz targets run beside it (nice 19, $fuzz_seconds s per target) ==="
fuzz_log=build/fuzz.log
phase fuzz env PARLEY_FUZZ_PREBUILT=1 nice -n 19 scripts/fuzz.sh "$fuzz_seconds" >"$fuzz_log" 2>&1 &
fuzz=$!
phase debug-test ctest --preset debug
wait $fuzz || true  # its status is in the report
echo "=== fuzz (all of it in $fuzz_log) ==="
grep -a '^fuzz: ' "$fuzz_log" || tail -n 20 "$fuzz_log"

echo "=== times ($([ $cold -eq 1 ] && echo "cold: no ccache" || echo "ccache ${CCACHE_DISABLE:+off}${CCACHE_DISABLE:-on}")) ==="
# The sum of the phases' wall times counts the two that overlap twice: the total is the clock's.
awk -v total=$(($(date +%s) - started)) \
    '{ printf "%-14s %7.1f min wall %7.1f CPU-min%s\n", $1, $2 / 60, ($3 + $4) / 60, ($5 == 0 ? "" : "  (failed)")
       cpu += $3 + $4 }
     END { printf "%-14s %7.1f min wall %7.1f CPU-min (release-test and debug-build overlap, and debug-test and fuzz)\n", "total", total / 60, cpu / 60 }' "$report"
# CI shows only the end of this output: name the failed tests here, where it is seen.
for preset in release debug; do
  failed=build/$preset/Testing/Temporary/LastTestsFailed.log
  if [ -s "$failed" ]; then
    echo "failed in $preset:"
    sed 's/^/  /' "$failed"
    # The end of each failed test's output, from ctest's full log.
    # A line is "<number>:<name>"; a typed test's name has colons and spaces of its own.
    cut -d: -f2- "$failed" | while IFS= read -r name; do
      echo "--- $preset: $name (its last 40 lines) ---"
      awk -v name="$name" '(i = index($0, " Test: ")) && substr($0, i + 7) == name { on = 1; n = 0; next }
                           on && /^<end of output>/ { exit }
                           on { lines[n++ % 40] = $0 }
                           END { for (i = (n > 40 ? n - 40 : 0); i < n; i++) print lines[i % 40] }' \
        "build/$preset/Testing/Temporary/LastTest.log"
    done
  fi
done
grep -qv ' 0$' "$report" && status=1
exit $status
