#!/usr/bin/env bash
# The .deb from end to end (docs/install.md): CPack builds it from this build's install rules,
# lintian finds no error and no warning but the known ones, dpkg installs it into a scratch root
# (never into this machine's /), the installed parley runs from another directory and its server
# serves the installed web UI, and a purge leaves the root as it found it.
#
#   tests/packaging/deb_test.sh BUILD_DIR         (ctest's packaging.deb, release builds only)
#   tests/packaging/deb_test.sh BUILD_DIR DEB     the same for a .deb built already (cpack needs
#                                                 to write in BUILD_DIR; this does not)
#
# Works as root and as any other user: dpkg gets --force-not-root, and the package has no
# maintainer scripts, so nothing is ever run against the host's / (no --force-script-chrootless
# is needed; were scripts added, this test would have to run them chrooted, i.e. as root).
# Needs cpack, dpkg-dev (dpkg-shlibdeps), lintian and curl: scripts/setup.sh installs them.
set -euo pipefail

build=$(cd "${1:?usage: deb_test.sh BUILD_DIR [DEB]}" && pwd)
given_deb=${2:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/parley-deb-test.XXXXXX")
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "deb_test: FAIL: $*" >&2
  exit 1
}
step() { echo "deb_test: $*"; }
# dpkg looks for ldconfig and start-stop-daemon in PATH, which for a non-root user lacks sbin.
export PATH=/usr/sbin:/sbin:$PATH
unset PARLEY_WEB_ROOT PARLEY_TOKEN

if [ -n "$given_deb" ]; then
  deb=$(cd "$(dirname "$given_deb")" && pwd)/$(basename "$given_deb")
  step "testing $deb"
else
  step "building the package (cpack -G DEB)"
  [ -f "$build/package-docs/stamp" ] ||
    fail "$build/package-docs is not built: cmake --build $build --target parley parley_package_docs"
  cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1 ||
    { cat "$work/cpack.log" >&2; fail "cpack failed"; }
  debs=("$work"/pkg/parley_*.deb)
  if [ ${#debs[@]} -ne 1 ] || [ ! -f "${debs[0]}" ]; then fail "cpack made no single parley_*.deb: ${debs[*]}"; fi
  deb=${debs[0]}
fi
version=$("$build/apps/parley/parley" --version | awk '{print $2}')

step "control fields"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = parley ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version-1" ] || fail "Version: $(field Version), expected $version-1"
[ "$(field Section)" = net ] || fail "Section: $(field Section)"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
depends=$(field Depends)
for lib in libc6 libstdc++6 libsqlite3-0 libssl3 libyaml-cpp0.7 libzstd1 libjemalloc2 libboost-json1.81.0; do
  case ", $depends," in *", $lib "* | *", $lib,"*) ;; *) fail "Depends lacks $lib: $depends" ;; esac
done
# Every file and directory root-owned, directories and the binary 0755, everything else 0644.
dpkg-deb -c "$deb" | awk '
  $2 != "root/root" { print "owner " $2 ": " $6; bad = 1 }
  /^d/ && $1 != "drwxr-xr-x" { print "mode " $1 ": " $6; bad = 1 }
  /^-/ && $6 == "./usr/bin/parley" && $1 != "-rwxr-xr-x" { print "mode " $1 ": " $6; bad = 1 }
  /^-/ && $6 != "./usr/bin/parley" && $1 != "-rw-r--r--" { print "mode " $1 ": " $6; bad = 1 }
  END { exit bad }' >"$work/modes.txt" || { cat "$work/modes.txt" >&2; fail "unexpected owner or mode"; }
[ -z "$(dpkg-deb -I "$deb" | grep -E ' (preinst|postinst|prerm|postrm|config)$' || true)" ] ||
  fail "the package has maintainer scripts; this test runs none (see its header)"

step "lintian"
# Tags accepted, each with its reason in docs/install.md ("lintian").
accepted='initial-upload-closes-no-bugs'
lintian --no-cfg --fail-on none "$deb" >"$work/lintian.txt" 2>"$work/lintian.err" || true
if grep -E '^[EW]: ' "$work/lintian.txt" | grep -vE ": ($accepted)( |$)" >"$work/lintian-bad.txt"; then
  cat "$work/lintian.txt" >&2
  fail "lintian: $(wc -l <"$work/lintian-bad.txt") error(s) or warning(s) not accepted"
fi

step "installing into a scratch root"
root=$work/root
admin=$root/var/lib/dpkg
mkdir -p "$admin/info" "$admin/updates" "$admin/triggers" "$root/cwd"
touch "$admin/available"
# The root's package database holds this machine's entries for the packages the .deb depends
# on (with empty file lists), so dpkg checks the Depends for real: names and versions installed.
: >"$admin/status"
for dep in $(echo "$depends" | tr ',|' '\n' | awk '{print $1}' | sort -u); do
  if dpkg-query -s "$dep" >"$work/stanza" 2>/dev/null; then
    cat "$work/stanza" >>"$admin/status"
    echo >>"$admin/status"
    arch=$(dpkg-query -W -f='${Architecture}' "$dep")
    ma=$(dpkg-query -W -f='${Multi-Arch}' "$dep")
    if [ "$ma" = same ]; then touch "$admin/info/$dep:$arch.list"; else touch "$admin/info/$dep.list"; fi
  fi
done
before=$(cd "$root" && find . -path ./var/lib/dpkg -prune -o -print | sort)
dpkg_root() { dpkg --root="$root" --log="$work/dpkg.log" --force-not-root "$@"; }
dpkg_root -i "$deb" >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "dpkg -i failed"; }
status=$(dpkg-query --admindir="$admin" -W -f='${Status} ${Version}' parley)
[ "$status" = "install ok installed $version-1" ] || fail "after dpkg -i: $status"

step "the installed files"
for path in usr/bin/parley usr/share/parley/web/index.html usr/share/parley/examples/demo/team.yaml \
  usr/share/parley/examples/demo/script.yaml usr/share/parley/examples/demo/workspace/notes.md \
  usr/share/man/man1/parley.1.gz usr/share/man/man1/parley-serve.1.gz \
  usr/share/bash-completion/completions/parley usr/share/zsh/vendor-completions/_parley \
  usr/share/doc/parley/copyright usr/share/doc/parley/changelog.Debian.gz \
  usr/share/doc/parley/examples/shell-tools.conf usr/lib/systemd/system/parley.service; do
  [ -f "$root/$path" ] || fail "$path is not installed"
done
[ -x "$root/usr/bin/parley" ] || fail "usr/bin/parley is not executable"
if readelf -S "$root/usr/bin/parley" | grep -qE '\.symtab|\.debug_'; then fail "usr/bin/parley is not stripped"; fi
# What dpkg says it installed is what the package holds.
diff <(dpkg-deb -c "$deb" | awk '{print substr($6, 2)}' | sed 's|/$||; s|^$|/.|' | sort) \
  <(dpkg-query --admindir="$admin" -L parley | sort) >"$work/list.diff" ||
  { cat "$work/list.diff" >&2; fail "dpkg -L differs from the package's contents"; }
# The unit names the installed binary and team (the ${...} are systemd's, not the shell's).
# shellcheck disable=SC2016
grep -qx 'ExecStart=/usr/bin/parley serve --team ${PARLEY_TEAM} --data /var/lib/parley --host ${PARLEY_HOST} --port ${PARLEY_PORT}' \
  "$root/usr/lib/systemd/system/parley.service" || fail "parley.service: unexpected ExecStart"
grep -qx 'Environment=PARLEY_TEAM=/usr/share/parley/examples/demo/team.yaml' \
  "$root/usr/lib/systemd/system/parley.service" || fail "parley.service: unexpected PARLEY_TEAM"
gzip -t "$root/usr/share/man/man1/parley.1.gz" || fail "parley.1.gz is not gzip"
zcat "$root/usr/share/man/man1/parley.1.gz" | grep -q '^\.TH PARLEY 1 ' || fail "parley.1 has no .TH line"

step "running the installed binary from another directory"
cd "$root/cwd"
parley=$root/usr/bin/parley
[ "$("$parley" --version)" = "parley $version" ] || fail "--version: $("$parley" --version)"
"$parley" --help | grep -q '^  parley serve ' || fail "--help does not list serve"
"$parley" serve --help | grep -q '^usage: parley serve ' || fail "serve --help"

step "parley serve --port 0 from $root/cwd finds the installed web UI; its token from \$PARLEY_TOKEN"
# The token as the systemd unit passes it (EnvironmentFile=): used, and never printed.
token=deb-test-$RANDOM$RANDOM
PARLEY_TOKEN=$token "$parley" serve --team "$root/usr/share/parley/examples/demo/team.yaml" --data "$work/data" --port 0 \
  >"$work/serve.log" 2>&1 &
server_pid=$!
# Waits for the serving line; gives up after 120 s only so that a hang fails instead of hanging.
for _ in $(seq 1 600); do
  grep -q '^parley: serving http://' "$work/serve.log" && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log" >&2; fail "parley serve exited"; }
  sleep 0.2
done
grep -q '^parley: serving http://' "$work/serve.log" || { cat "$work/serve.log" >&2; fail "no serving line"; }
web=$(cd "$root/usr/share/parley/web" && pwd -P)
grep -qxF "parley: web UI from $web" "$work/serve.log" ||
  { cat "$work/serve.log" >&2; fail "the server did not take its web UI from $web"; }
url=$(sed -n 's|^parley: serving \(http://[^/]*/\).*|\1|p' "$work/serve.log")
grep -qx "parley: serving $url  (token: \$PARLEY_TOKEN)" "$work/serve.log" ||
  { cat "$work/serve.log" >&2; fail "the serving line is not '$url  (token: \$PARLEY_TOKEN)'"; }
if grep -qF "$token" "$work/serve.log"; then fail "the server printed the token from \$PARLEY_TOKEN"; fi
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "${url}api/status")
[ "$code" = 200 ] || fail "GET /api/status with \$PARLEY_TOKEN's token: $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer not-$token" "${url}api/status")
[ "$code" = 401 ] || fail "GET /api/status with another token: $code, expected 401"
curl -fsS "$url" -o "$work/index.html" || fail "GET $url failed"
grep -qi '<!doctype html>' "$work/index.html" || fail "GET / is not the web UI's index.html"
# The page names its script by a content hash: the installed copy of that file is what is served.
script=$(grep -o 'assets/index-[A-Za-z0-9_-]*\.js' "$root/usr/share/parley/web/index.html" | head -1)
[ -n "$script" ] || fail "the installed index.html names no assets/index-*.js"
grep -qF "$script" "$work/index.html" || fail "GET / does not name $script"
curl -fsS "$url$script" -o "$work/script.js" || fail "GET /$script failed"
cmp -s "$work/script.js" "$root/usr/share/parley/web/$script" || fail "GET /$script differs from the installed file"
kill -TERM "$server_pid"
wait "$server_pid" || fail "parley serve exited $? after SIGTERM"
server_pid=

step "purging"
cd "$work"
dpkg_root --purge parley >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "dpkg --purge failed"; }
status=$(dpkg-query --admindir="$admin" -W -f='${Status}' parley 2>/dev/null || true)
case "$status" in "" | "unknown ok not-installed" | "purge ok not-installed") ;; *) fail "after purge: $status" ;; esac
after=$(cd "$root" && find . -path ./var/lib/dpkg -prune -o -print | sort)
[ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after") >&2; fail "the purge left files behind"; }
[ -z "$(find "$admin/info" -name 'parley[.:]*')" ] || fail "dpkg's info/ still has parley's files"

step "ok: $(basename "$deb"): lintian clean but for $accepted; installed, ran, served, purged (as $(id -un))"
