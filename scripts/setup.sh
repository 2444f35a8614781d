#!/usr/bin/env bash
# Installs every Debian package that building, testing and benchmarking Parley needs, then the web
# UI's and the browser tests' npm packages (npm ci) and builds the web UI (web/dist).
# As root it runs apt-get; otherwise it prints the exact command to run and stops.
# Idempotent: when nothing changed it does nothing and says so in one line.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++ cmake ninja-build ccache pkg-config git
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libyaml-cpp-dev libsqlite3-dev sqlite3 libssl-dev ca-certificates libjemalloc-dev libzstd-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-format clang-tidy
  clang-14 libclang-rt-14-dev lld
  # Chromium with named fonts, so that every machine lays the web UI out alike (the browser tests
  # compare it with tests/e2e/layout-baseline.json).
  chromium fonts-wqy-microhei fonts-dejavu-core fonts-dejavu-extra
  ripgrep bubblewrap
  # The PostgreSQL store (docs/scale-out.md): libpq to build against, and a server for the tests,
  # which start their own cluster with initdb and pg_ctl (scripts/pg_test_cluster.sh); the package's
  # own cluster and service are not used. pg_trgm is in postgresql-contrib.
  libpq-dev postgresql postgresql-contrib
  # promtool and a Prometheus server for the monitoring test (tests/monitoring): it checks and
  # scrapes `GET /metrics`. The package's own service is not used (the test starts its own).
  prometheus
  # Packaging (docs/install.md): python3 writes the man pages from parley's help; dpkg-dev's
  # dpkg-shlibdeps gives the .deb its Depends; lintian checks the .deb; zsh checks the zsh
  # completion and curl fetches the installed server's page in ctest's packaging tests.
  python3 dpkg-dev lintian zsh curl
)
# Node.js may come from elsewhere (the machine's own install); Debian's only when there is none.
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

changed=0
if [ ${#missing[@]} -gt 0 ]; then
  install_cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: these packages are missing: ${missing[*]}" >&2
    echo "setup: run this as root, then run this command again:" >&2
    echo "  sudo sh -c '$install_cmd'" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  sh -c "$install_cmd"
  changed=1
fi

# npm packages: `npm ci` when node_modules is missing or older than the lock file.
npm_ci() {
  local dir=$1
  local stamp=$dir/node_modules/.package-lock.json
  if [ -f "$stamp" ] && [ ! "$dir/package-lock.json" -nt "$stamp" ] && [ ! "$dir/package.json" -nt "$stamp" ]; then
    return 0
  fi
  echo "setup: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  changed=1
}
npm_ci web
npm_ci tests/e2e
npm_ci tests/monitoring
npm_ci tests/interop
npm_ci tests/mcp

# The web UI: rebuilt when web/dist is missing or older than any of its sources.
if [ ! -f web/dist/index.html ] ||
  [ -n "$(find web/src web/index.html web/package.json web/package-lock.json web/tsconfig.json web/vite.config.ts \
    -newer web/dist/index.html -print -quit 2>/dev/null)" ]; then
  echo "setup: building the web UI (web/dist)"
  (cd web && npm run --silent build >/dev/null)
  changed=1
fi

if [ $changed -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages are installed; web/, tests/e2e/ and tests/interop/ node_modules and web/dist are up to date"
fi
