#!/usr/bin/env bash
# Thousands of kill/pause cycles of `parley-bench failover` (issue 38), for a soak by hand, not CI:
# runs the bench again and again, each run a fresh schema with CYCLES_PER_RUN cycles, until TOTAL
# cycles have run, and prints the running counts of stale appends, duplicate sequence numbers,
# seq gaps and rounds answered twice after every cycle (the target is 0 for every one of them).
#
#   scripts/failover_loop.sh [TOTAL=2000] [CYCLES_PER_RUN=50] [extra parley-bench arguments...]
#   e.g. scripts/failover_loop.sh 5000 100 --dialogs 120 --store postgresql://parley:…@db/parley
#
# PARLEY_BENCH names the binary (default build/release/bench/parley-bench). Every run's output is
# kept in $LOG_DIR (default a fresh temp dir); the script exits 1 at the end if any count was not 0.
set -euo pipefail

total=${1:-2000}
per_run=${2:-50}
shift $(($# < 2 ? $# : 2))
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${PARLEY_BENCH:-$root/build/release/bench/parley-bench}
log_dir=${LOG_DIR:-$(mktemp -d /tmp/parley-failover-loop.XXXXXX)}
mkdir -p "$log_dir"
[[ -x "$bench" ]] || { echo "failover_loop: no $bench (build the parley-bench target)" >&2; exit 2; }

done_cycles=0 run=0
stale=0 dup_seqs=0 gaps=0 dup_rounds=0 lost=0 unfinished=0
echo "failover_loop: $total cycles, $per_run per run, logs in $log_dir"
while ((done_cycles < total)); do
  cycles=$((total - done_cycles < per_run ? total - done_cycles : per_run))
  run=$((run + 1))
  out="$log_dir/run$run.out"
  # The counts of this run's cycles so far print on top of the earlier runs' totals.
  { "$bench" failover --cycles "$cycles" "$@" 2>"$log_dir/run$run.err" || true; } | tee "$out" | while IFS= read -r line; do
    if [[ $line =~ ^cycle\ ([0-9]+):.*stale_appends=([0-9]+)\ duplicate_seqs=([0-9]+)\ seq_gaps=([0-9]+) ]]; then
      echo "cycle $((done_cycles + BASH_REMATCH[1] + 1))/$total (run $run): stale_appends=$((stale + BASH_REMATCH[2]))" \
        "duplicate_seqs=$((dup_seqs + BASH_REMATCH[3])) seq_gaps=$((gaps + BASH_REMATCH[4]))"
    fi
  done
  last=$(tail -n 1 "$out")
  if [[ $last != \{* ]]; then
    echo "failover_loop: run $run ended without its JSON line (see $log_dir/run$run.err)" >&2
    exit 1
  fi
  read -r s d g r l u < <(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(*[max(int(j[k]),0) for k in
    ("stale_appends","duplicate_seqs","seq_gaps","duplicate_rounds","lost_acknowledged","unfinished_roots")])' "$last")
  stale=$((stale + s)) dup_seqs=$((dup_seqs + d)) gaps=$((gaps + g)) dup_rounds=$((dup_rounds + r))
  lost=$((lost + l)) unfinished=$((unfinished + u))
  done_cycles=$((done_cycles + cycles))
  echo "after $done_cycles cycles: stale_appends=$stale duplicate_seqs=$dup_seqs seq_gaps=$gaps" \
    "duplicate_rounds=$dup_rounds lost_acknowledged=$lost unfinished_roots=$unfinished"
done
((stale + dup_seqs + gaps + dup_rounds + lost + unfinished == 0))
