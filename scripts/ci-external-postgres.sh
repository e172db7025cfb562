#!/usr/bin/env bash
# Installs and starts Debian's PostgreSQL on loopback, then runs the server integration tests
# against it through TEST_DATABASE_URL, proving the external-database path.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != "0" ]; then
  echo "skipping: needs root to install PostgreSQL" >&2
  exit 1
fi
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
dir=$(mktemp -d /tmp/ci-pg-XXXXXX)
chown postgres:postgres "$dir"
port=55432
runuser -u postgres -- "$bin/initdb" -D "$dir" -U postgres --auth=trust >/dev/null
runuser -u postgres -- "$bin/pg_ctl" -D "$dir" -o "-p $port -k /tmp -c listen_addresses=127.0.0.1" -w start >/dev/null
trap 'runuser -u postgres -- "$bin/pg_ctl" -D "$dir" -m fast stop >/dev/null; rm -rf "$dir"' EXIT
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" npx vitest run --project server
