#!/bin/sh
# The official postgres image's start, in short: a new data directory gets the user, password and database the
# environment names; then PostgreSQL runs in the foreground, listening on every interface.
set -eu
bin=$(echo /usr/lib/postgresql/*/bin)
export PGDATA=/var/lib/postgresql/data
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  "$bin/initdb" --username="$POSTGRES_USER" --pwfile="$pwfile" --auth=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  "$bin/pg_ctl" -o "-c listen_addresses=''" -w start >/dev/null
  PGPASSWORD="$POSTGRES_PASSWORD" "$bin/createdb" --username="$POSTGRES_USER" "${POSTGRES_DB:-$POSTGRES_USER}"
  "$bin/pg_ctl" -m fast -w stop >/dev/null
fi
exec "$bin/postgres" -c listen_addresses='*'
