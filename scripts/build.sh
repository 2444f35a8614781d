#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
# --target NAME (repeatable) builds only that; every other argument goes to CMake's configure step.
targets=()
configure_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --target)
      [ $# -ge 2 ] || { echo "build: --target needs a target name" >&2; exit 2; }
      targets+=(--target "$2")
      shift 2
      ;;
    *)
      configure_args+=("$1")
      shift
      ;;
  esac
done
# The debug preset is clang's sanitizer build: say what to install rather than let CMake fail.
if [ "$preset" = debug ]; then
  if ! command -v clang++-14 >/dev/null 2>&1; then
    echo "build: the debug preset compiles with clang++-14: install the packages clang-14 and libclang-rt-14-dev (scripts/setup.sh does)" >&2
    exit 1
  fi
  if [ ! -f "$(clang++-14 -print-file-name=libclang_rt.asan-x86_64.a)" ]; then
    echo "build: the debug preset needs clang's sanitizer runtimes: install the package libclang-rt-14-dev (scripts/setup.sh does)" >&2
    exit 1
  fi
fi
cmake --preset "$preset" "${configure_args[@]}" >/dev/null
cmake --build --preset "$preset" "${targets[@]}"
