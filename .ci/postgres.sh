#!/usr/bin/env bash
# A PostgreSQL cluster for the store's conformance suite: Debian's
# postgresql installed if missing, the cluster started, a role and a
# database made. Prints the URL to export as ERRDEX_TEST_POSTGRES.
set -euo pipefail
# The client alone (psql) is no server: look for the server's binary.
if ! command -v pg_ctlcluster >/dev/null || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls -d /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1 | cut -d/ -f5)
if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true
for _ in $(seq 50); do
  su postgres -c "pg_isready -q" && break
  sleep 0.2
done
psql_as_postgres() { su postgres -c "psql -v ON_ERROR_STOP=1 -qAt -c \"$1\""; }
[ "$(psql_as_postgres "SELECT 1 FROM pg_roles WHERE rolname = 'errdex'")" = 1 ] ||
  psql_as_postgres "CREATE ROLE errdex LOGIN PASSWORD 'errdex'"
[ "$(psql_as_postgres "SELECT 1 FROM pg_database WHERE datname = 'errdex_test'")" = 1 ] ||
  su postgres -c "createdb -O errdex errdex_test"
echo "postgres://errdex:errdex@127.0.0.1/errdex_test"
