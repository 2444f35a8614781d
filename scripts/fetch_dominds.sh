#!/usr/bin/env bash
# Fetches the Dominds package (npm `dominds@1.29.0`) that the Dominds compatibility tests check
# Parley against (tests/dominds_package/, issue 26 item 6), and unpacks it to DEST/package.
# Not committed to the repository: ctest runs this as the setup fixture of those tests, so a fresh
# machine with npm and the registry reachable gets it without any other step. The tarball's
# SHA-256 is pinned: a different file is refused rather than tested against.
# Usage: scripts/fetch_dominds.sh DEST    (idempotent: an unpacked, verified copy is kept)
set -euo pipefail
dest=${1:?usage: fetch_dominds.sh DEST}
version=1.29.0
sha256=f2f84b4b788d423aea103d056530148919e2deb50ea1357766f534d236381a1a
tarball=$dest/dominds-$version.tgz
stamp=$dest/package/.parley-verified-$version

if [ -f "$stamp" ]; then
  echo "fetch_dominds: dominds@$version already in $dest/package"
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "fetch_dominds: npm is missing (scripts/setup.sh installs it)" >&2; exit 1; }
mkdir -p "$dest"
if [ ! -f "$tarball" ] || ! echo "$sha256  $tarball" | sha256sum --check --status; then
  rm -f "$tarball"
  (cd "$dest" && npm pack "dominds@$version" --silent >/dev/null)
fi
if ! echo "$sha256  $tarball" | sha256sum --check --status; then
  echo "fetch_dominds: $tarball does not have the pinned SHA-256 $sha256" >&2
  exit 1
fi
rm -rf "$dest/package"
tar -xzf "$tarball" -C "$dest"
test -f "$dest/package/dist/llm/defaults.yaml"
test -f "$dest/package/dist/docs/team_mgmt-toolset.md"
touch "$stamp"
echo "fetch_dominds: dominds@$version unpacked in $dest/package"
