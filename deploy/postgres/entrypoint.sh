#!/bin/sh
# The PostgreSQL container's entry point: on an empty $PGDATA, a cluster owned by
# $POSTGRES_USER (password $POSTGRES_PASSWORD, scram-sha-256 over TCP) with the database
# $POSTGRES_DB; then the server, listening on every address of the container.
set -eu
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is not set}"
user="${POSTGRES_USER:-postgres}"
database="${POSTGRES_DB:-$user}"
sockets=/tmp
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    password="$(mktemp)"
    trap 'rm -f "$password"' EXIT
    printf '%s' "$POSTGRES_PASSWORD" >"$password"
    initdb -D "$PGDATA" -U "$user" --pwfile="$password" --auth-local=trust --auth-host=scram-sha-256 \
        -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$password"
    printf 'host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=$sockets" -w start >/dev/null
    if [ "$database" != postgres ]; then
        psql -h "$sockets" -U "$user" -d postgres -v ON_ERROR_STOP=1 -q \
            -c "CREATE DATABASE \"$database\" OWNER \"$user\""
    fi
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
    echo "glimpse-postgres: made the cluster in $PGDATA (user $user, database $database)"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories="$sockets"
