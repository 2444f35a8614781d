#!/usr/bin/env bash
# Sets up, builds and runs every test: the release build, then the AddressSanitizer +
# UndefinedBehaviorSanitizer build, then every fuzz target for a short, fixed time (scripts/fuzz.sh,
# fuzz/README.md). Prints ctest's summary for each build and `fuzz: N passed, M failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
status=0
for preset in release debug; do
  echo "=== $preset: build ==="
  scripts/build.sh "$preset"
  echo "=== $preset: test ==="
  ctest --preset "$preset" || status=1
done
echo "=== fuzz: ${PARLEY_FUZZ_SECONDS:-10} s per target ==="
scripts/fuzz.sh "${PARLEY_FUZZ_SECONDS:-10}" || status=1
exit $status
