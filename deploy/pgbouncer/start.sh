#!/bin/sh
# Writes PgBouncer's user list from POSTGRES_PASSWORD (compose.yaml passes
# the .env value), so that the password lives in .env alone, and runs
# PgBouncer in the foreground.
set -eu
: "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
umask 077
printf '"gambit" "%s"\n' "$POSTGRES_PASSWORD" > /tmp/userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
