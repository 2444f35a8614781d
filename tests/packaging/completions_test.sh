#!/usr/bin/env bash
# `parley completions bash|zsh` (docs/install.md): the verb refuses other shells, both scripts
# parse, and the bash one completes verbs, flags and flag values the way the CLI's tables say;
# every flag a verb's synopsis shows is one the completion offers for that verb.
#
#   tests/packaging/completions_test.sh PARLEY      (ctest's packaging.completions)
set -euo pipefail

parley=${1:?usage: completions_test.sh PARLEY}
work=$(mktemp -d "${TMPDIR:-/tmp}/parley-completions-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "completions_test: FAIL: $*" >&2
  failures=$((failures + 1))
}

# Usage errors: exit 2 and one line naming what was wrong.
status=0
"$parley" completions fish >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] || fail "completions fish: exit $status, expected 2"
grep -qx "parley: completions: unknown shell 'fish'; expected bash or zsh" "$work/err" ||
  fail "completions fish said: $(cat "$work/err")"
[ ! -s "$work/out" ] || fail "completions fish printed a script"
status=0
"$parley" completions >/dev/null 2>"$work/err" || status=$?
[ $status -eq 2 ] || fail "completions without a shell: exit $status, expected 2"
grep -q '^parley: usage: parley completions bash|zsh$' "$work/err" || fail "completions without a shell said: $(cat "$work/err")"

"$parley" completions bash >"$work/parley.bash"
"$parley" completions zsh >"$work/_parley"
bash -n "$work/parley.bash" || fail "the bash script does not parse"
zsh -n "$work/_parley" || fail "the zsh script does not parse"
# Loaded by compinit as an autoloaded function file, it registers itself for parley.
registered=$(HOME=$work zsh -f -c "fpath=($work \$fpath); autoload -Uz compinit && compinit -u -d $work/zcompdump && print -r -- \${_comps[parley]}")
[ "$registered" = _parley ] || fail "zsh: compinit registered '$registered' for parley, expected _parley"

# complete WORD...: what the bash completion offers for the command line WORD... (the last word
# being completed), one per line, sorted (so `expect` lists them sorted too).
complete_words() {
  (
    # shellcheck disable=SC1090
    source "$work/parley.bash"
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _parley
    printf '%s\n' "${COMPREPLY[@]}" | sort
  )
}
expect() {
  local want=$1
  shift
  local got
  got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "complete '$*': got '$got', expected '$want'"
}
expect "serve" parley se
expect "--help bash zsh" parley completions ''
expect "adaptive background normal" parley serve --read-priority ''
expect "BFS DFS" parley tot --strategy ''
expect "--data" parley show --d
mkdir -p "$work/dir.d/sub"
touch "$work/dir.d/file"
(cd "$work/dir.d" && [ "$(complete_words parley serve --data '')" = "sub" ]) || fail "--data does not complete directories only"
(cd "$work/dir.d" && [ "$(complete_words parley run --team '' | tr '\n' ' ')" = "file sub " ]) || fail "--team does not complete files"
[ -z "$(complete_words parley serve --port '')" ] || fail "--port offers words"

# Every verb of `parley --help` is offered, and every flag its synopsis shows.
verbs=$(complete_words parley '')
"$parley" --help | sed -n 's/^  parley \([a-z]*\).*/\1/p' | sort -u >"$work/verbs"
while read -r verb; do
  grep -qx "$verb" <<<"$verbs" || fail "verb $verb is not offered"
  offered=$(complete_words parley "$verb" --)
  for flag in $("$parley" --help | grep "^  parley $verb " | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -qx -- "$flag" <<<"$offered" || fail "$verb: its synopsis shows $flag, which is not offered"
  done
done <"$work/verbs"
[ "$(wc -l <"$work/verbs")" -ge 20 ] || fail "only $(wc -l <"$work/verbs") verbs in parley --help"

if [ $failures -gt 0 ]; then
  echo "completions_test: $failures failure(s)" >&2
  exit 1
fi
echo "completions_test: ok ($(wc -l <"$work/verbs") verbs)"
