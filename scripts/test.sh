#!/usr/bin/env bash
# Sets up, builds and runs every test: the release build, then the AddressSanitizer +
# UndefinedBehaviorSanitizer build. Prints ctest's summary for each.
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
exit $status
