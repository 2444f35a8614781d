#!/usr/bin/env bash
# Installs every Debian package that building, testing and benchmarking Parley needs.
# As root it runs apt-get; otherwise it prints the exact command to run and stops.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache pkg-config git
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libyaml-cpp-dev libsqlite3-dev sqlite3 libssl-dev ca-certificates
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang-tidy
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages are installed"
  exit 0
fi

install_cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: these packages are missing: ${missing[*]}" >&2
  echo "setup: run this as root, then run this command again:" >&2
  echo "  sudo sh -c '$install_cmd'" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
sh -c "$install_cmd"
