#!/usr/bin/env bash
# A private PostgreSQL server for tests: Debian's package, its own data directory, loopback only.
#   source scripts/postgres-test-server.sh start   # exports SUBDASH_TEST_DB (postgres://…/subdash_test)
#   scripts/postgres-test-server.sh stop
# initdb refuses root, so as root it runs as the `postgres` user the Debian package creates.
set -euo pipefail
PGPORT="${SUBDASH_PGPORT:-55432}"
PGDATA="${SUBDASH_PGDATA:-/tmp/subdash-ci-pgdata}"
PGBIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[[ -n "$PGBIN" ]] || { echo "postgres-test-server: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}

case "${1:-start}" in
  start)
    if ! as_owner "$PGBIN/pg_ctl -D $PGDATA status" >/dev/null 2>&1; then
      rm -rf "$PGDATA"; mkdir -p "$PGDATA"
      [[ $(id -u) -eq 0 ]] && chown postgres:postgres "$PGDATA"
      as_owner "$PGBIN/initdb -D $PGDATA -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8" >/dev/null
      as_owner "$PGBIN/pg_ctl -D $PGDATA -l $PGDATA/server.log -w -t 30 start -o '-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGDATA -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200'" >/dev/null
    fi
    psql -h 127.0.0.1 -p "$PGPORT" -U postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'subdash_test'" | grep -q 1 \
      || psql -h 127.0.0.1 -p "$PGPORT" -U postgres -Atc "CREATE DATABASE subdash_test" >/dev/null
    export SUBDASH_TEST_DB="postgres://postgres@127.0.0.1:$PGPORT/subdash_test"
    echo "postgres-test-server: $SUBDASH_TEST_DB (data in $PGDATA)" >&2
    ;;
  stop)
    as_owner "$PGBIN/pg_ctl -D $PGDATA -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$PGDATA"
    ;;
esac
