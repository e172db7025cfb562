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
# A port free now (a fixed one can be taken by a server a test left behind), the socket in the
# cluster's own folder, and the server's log printed when it does not start.
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
runuser -u postgres -- "$bin/initdb" -D "$dir" -U postgres --auth=trust >/dev/null
trap 'runuser -u postgres -- "$bin/pg_ctl" -D "$dir" -m fast stop >/dev/null 2>&1; rm -rf "$dir"' EXIT
if ! runuser -u postgres -- "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -w start >/dev/null; then
  cat "$dir/server.log" >&2
  exit 1
fi
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres" npx vitest run --project server
