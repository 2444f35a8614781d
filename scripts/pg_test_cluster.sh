#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and benchmarks: Debian's server binaries, initdb and
# pg_ctl in a fresh temporary directory, listening on a free loopback port with password
# authentication (as the `postgres` system user when run as root: PostgreSQL refuses to run as root).
#
#   scripts/pg_test_cluster.sh start URL_FILE   starts one; writes its URL (with the password) to URL_FILE
#   scripts/pg_test_cluster.sh stop URL_FILE    stops the cluster URL_FILE names and removes it
#
# PARLEY_PG_EXTRA_OPTIONS adds server settings to the start (`-c track_commit_timestamp=on`:
# parley-bench failover).
#
# Nothing else on the machine is touched: the package's own cluster and service are not used.
set -euo pipefail

command=${1:?usage: pg_test_cluster.sh start|stop URL_FILE}
url_file=${2:?usage: pg_test_cluster.sh start|stop URL_FILE}
password=parley-test

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [[ -z "$bin" || ! -x "$bin/initdb" ]]; then
  echo "pg_test_cluster: PostgreSQL's server is not installed (run scripts/setup.sh)" >&2
  exit 1
fi

as_postgres() {
  if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

case "$command" in
  start)
    if [[ -f "$url_file.dir" ]]; then "$0" stop "$url_file" || true; fi
    dir=$(mktemp -d /tmp/parley-pg.XXXXXX)
    chmod 755 "$dir"
    [[ $(id -u) == 0 ]] && chown postgres "$dir"
    echo "$dir" >"$url_file.dir"
    printf '%s\n' "$password" >"$dir/pwfile"
    [[ $(id -u) == 0 ]] && chown postgres "$dir/pwfile"
    # --no-sync: the cluster's files need not survive a power cut; the server still fsyncs its WAL.
    as_postgres "$bin/initdb" -D "$dir/data" -U parley --pwfile="$dir/pwfile" -A scram-sha-256 -E UTF8 \
      --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    for attempt in 1 2 3; do
      port=$(free_port)
      if as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=64MB ${PARLEY_PG_EXTRA_OPTIONS:-}" \
        start >/dev/null; then
        echo "postgresql://parley:$password@127.0.0.1:$port/postgres" >"$url_file"
        echo "pg_test_cluster: PostgreSQL on 127.0.0.1:$port in $dir"
        exit 0
      fi
    done
    cat "$dir/server.log" >&2
    exit 1
    ;;
  stop)
    [[ -f "$url_file.dir" ]] || exit 0
    dir=$(cat "$url_file.dir")
    if [[ -d "$dir/data" ]]; then as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
    case "$dir" in /tmp/parley-pg.*) rm -rf "$dir" ;; esac
    rm -f "$url_file" "$url_file.dir"
    ;;
  *)
    echo "pg_test_cluster: unknown command '$command' (start or stop)" >&2
    exit 2
    ;;
esac
