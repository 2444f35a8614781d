#!/usr/bin/env bash
# Builds the libFuzzer targets (in the `debug` preset's tree: clang, ASan + UBSan, the same objects
# the sanitizer tests run) and runs each for a fixed
# time over a copy of its checked-in corpus (fuzz/corpus/<name>/), which stays as it is, with its
# dictionary (fuzz/dict/<name>.dict) when it has one.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     # default 10 s, every target
#
# scripts/test.sh runs it with 20 s per target at nice 19, beside the sanitizer suites, with
# PARLEY_FUZZ_PREBUILT=1 (its build built the targets; a second build would configure the tree
# the suites run from); give a longer budget to hunt (fuzz/README.md).
# A target that crashes (an invariant, a sanitizer report, a timeout, running out of memory)
# fails the run, and the input that did it is named: keep it in the corpus and make it a
# regression test. Prints `fuzz: N passed, M failed`.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-10}
shift $(($# > 0 ? 1 : 0))
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]" >&2
  exit 2
fi

# Target name and -max_len: the inputs each reads are small documents; a few KiB reach every limit
# the targets set (the SSE target's 512-byte lines, the 2 KiB WebSocket packet limit).
declare -A max_len=(
  [sse]=8192 [ws_packet]=4096 [rest_api]=4096 [team_yaml]=4096 [scripted_script]=4096
  [text_tellask]=4096 [tool_arguments]=4096 [workspace_path]=512 [event_codec]=4096 [payload_blob]=4096
  [request_target]=1024 [iso_time]=64 [tot_log]=4096 [flow_yaml]=8192 [codex_patch]=4096 [openai_chat_request]=4096
  [rg_args]=1024
)
all_targets=(sse ws_packet rest_api team_yaml scripted_script text_tellask tool_arguments workspace_path event_codec payload_blob
  request_target iso_time tot_log flow_yaml codex_patch openai_chat_request rg_args)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  if [ -z "${max_len[$target]:-}" ]; then
    echo "fuzz: unknown target '$target' (one of: ${all_targets[*]})" >&2
    exit 2
  fi
done

if [ "${PARLEY_FUZZ_PREBUILT:-0}" != 1 ]; then
  echo "fuzz: building the fuzz targets (debug preset)"
  cmake --preset debug >/dev/null 2>&1 || cmake --preset debug  # quiet unless it fails
  cmake --build --preset debug --target parley_fuzzers
fi

build=build/debug/fuzz
artifacts=build/debug/fuzz-artifacts
mkdir -p "$artifacts"
# The targets make their temporary folders under TMPDIR; this one goes whatever happens.
work=$(mktemp -d "${TMPDIR:-/tmp}/parley-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

# fuzz_one TARGET: runs it, writes what it says to $work/said-TARGET and exits 0 when it passed.
fuzz_one() {
  local target=$1
  local corpus="$work/corpus-$target" log="$artifacts/$target/last-run.log" dict=() start rc elapsed runs crash
  mkdir -p "$corpus" "$work/tmp-$target" "$artifacts/$target"
  cp fuzz/corpus/"$target"/* "$corpus"/
  [ -f fuzz/dict/"$target".dict ] && dict=(-dict=fuzz/dict/"$target".dict)
  start=$(date +%s)
  # -timeout: one input running this long is a hang. -rss_limit_mb: libFuzzer's default. Leaks
  # are looked for after inputs that allocate more than they free, and at exit.
  rc=0
  TMPDIR="$work/tmp-$target" \
    ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    "$build/${target}_fuzzer" "$corpus" \
    -max_total_time="$seconds" -max_len="${max_len[$target]}" -timeout=25 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$target/" "${dict[@]}" >"$log" 2>&1 || rc=$?
  elapsed=$(($(date +%s) - start))
  runs=$(grep -a -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  if [ $rc -eq 0 ]; then
    echo "fuzz: $target passed: $runs inputs in ${elapsed}s" >"$work/said-$target"
    return 0
  fi
  {
    crash=$(grep -a -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //' || true)
    echo "fuzz: $target FAILED (exit $rc) after ${elapsed}s; the log: $log"
    grep -a -m1 -A4 -E 'invariant violated|setup failed|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' "$log" || true
    if [ -n "$crash" ]; then
      echo "fuzz: the crashing input: $crash (reproduce: $build/${target}_fuzzer $crash)"
    fi
  } >"$work/said-$target"
  return 1
}

# The targets run side by side, one per core (PARLEY_FUZZ_JOBS to choose): each is one process.
jobs=${PARLEY_FUZZ_JOBS:-$(nproc)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: PARLEY_FUZZ_JOBS is '$jobs': a count of at least 1" >&2; exit 2; }
declare -A pid_of=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n || true
  done
  fuzz_one "$target" &
  pid_of[$target]=$!
done

passed=0
failed=0
failures=()
for target in "${targets[@]}"; do
  if wait "${pid_of[$target]}"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$target")
  fi
  cat "$work/said-$target" 2>/dev/null || echo "fuzz: $target said nothing (the script failed before it ran)"
done

echo "fuzz: $passed passed, $failed failed${failures:+ (${failures[*]})}"
[ $failed -eq 0 ]
