#!/usr/bin/env bash
# One store, many processes, for as long as asked (issue 36; tests/server/many_processes_test.cpp
# is the short version CI runs): `parley serve` on a data directory of its own, a client posting
# new dialogs and messages to it all the time, and a loop running every CLI verb on the same data
# directory beside it — the reading verbs read-only, the writing ones through the server. At the
# end: how many 5xx answers, failed verbs and lost dialogs there were (all must be 0), and
# `parley check` on the store. Exits 0 only when all of that holds. Loopback only.
#
#   scripts/many_processes.sh [MINUTES] [PARLEY_BINARY]     # default 10 minutes, build/release
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=${1:-10}
parley=${2:-build/release/apps/parley/parley}
if ! [[ $minutes =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/many_processes.sh [MINUTES] [PARLEY_BINARY]" >&2
  exit 2
fi
[ -x "$parley" ] || { echo "many_processes: no binary at $parley (scripts/build.sh release)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/parley-many.XXXXXX")
data=$work/data
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

cp -r tests/server/teams/q4h "$work/team"
"$parley" serve --team "$work/team/team.yaml" --data "$data" --port 0 >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
  grep -q '^url=' "$data/parley.lock" 2>/dev/null && [ -s "$data/parley.credential" ] && break
  sleep 0.1
done
url=$(sed -n 's/^url=//p' "$data/parley.lock")
token=$(cat "$data/parley.credential")
[ -n "$url" ] || { echo "many_processes: the server did not start:"; cat "$work/serve.log"; exit 1; }

api() {  # METHOD PATH [JSON]: prints the status; the body goes to the caller's file, $body
  curl -s -o "$body" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $token" \
    -H 'Content-Type: application/json' ${3:+--data "$3"} "${url%/}$2"
}

server_errors=0 failed_verbs=0 created=0
deadline=$(($(date +%s) + minutes * 60))
: >"$work/ids"
(
  body=$work/body.writer
  i=0
  while [ "$(date +%s)" -lt "$deadline" ]; do
    i=$((i + 1))
    status=$(api POST /api/dialogs "{\"content\": \"task $i\", \"msgId\": \"soak-$i\"}")
    if [ "$status" -ge 500 ]; then echo "5xx $status" >>"$work/errors"; fi
    [ "$status" = 201 ] && python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dialog"]["id"])' \
      "$body" >>"$work/ids"
  done
) &
writer=$!

body=$work/body.main
round=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  round=$((round + 1))
  id=$(tail -1 "$work/ids" 2>/dev/null || true)
  [ -n "$id" ] || { sleep 0.2; continue; }
  for verb in "dialogs" "dialogs --json" "show $id" "check" "questions" "registry $id" \
    "export --rtws $work/rtws-$round" "say $id round-$round"; do
    # shellcheck disable=SC2086
    if ! "$parley" $verb --data "$data" >"$work/verb.log" 2>&1; then
      failed_verbs=$((failed_verbs + 1))
      echo "many_processes: parley $verb failed:"; tail -3 "$work/verb.log"
    fi
  done
  status=$(api GET /api/status)
  grep -q '"ok":true' "$body" || {
    echo "many_processes: the store reports a problem: $(cat "$body")"
    server_errors=$((server_errors + 1))
  }
done
wait "$writer"
[ -f "$work/errors" ] && server_errors=$((server_errors + $(wc -l <"$work/errors")))
created=$(wc -l <"$work/ids")
lost=0
while read -r id; do
  [ "$(api GET "/api/dialogs/$id")" = 200 ] || lost=$((lost + 1))
done <"$work/ids"
kill "$server_pid"; wait "$server_pid" || { echo "many_processes: the server exited non-zero"; server_errors=$((server_errors + 1)); }
server_pid=
"$parley" check --data "$data" || failed_verbs=$((failed_verbs + 1))
echo "many_processes: $minutes min, $round rounds of every verb, $created dialogs created:" \
  "$server_errors server errors, $failed_verbs failed verbs, $lost lost"
[ "$server_errors" -eq 0 ] && [ "$failed_verbs" -eq 0 ] && [ "$lost" -eq 0 ]
