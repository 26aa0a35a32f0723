#!/usr/bin/env bash
# glimpse-timeline with its journal in PostgreSQL (--store postgres://…) beside the same
# run with its journal in SQLite, the reference, in one run (release builds): the timeline
# service benchmark (one app's provider, N placements through H hours on a manual clock) on
# each store. PostgreSQL is a fresh local server (scripts/with_postgres.py), default
# settings (synchronous_commit on: every acknowledged write is on its disk).
#
#   Benchmarks/postgres-store.sh                        # 10,000 placements, 24 h
#   Benchmarks/postgres-store.sh --placements 1000 --hours 6
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
if [ -z "${GLIMPSE_POSTGRES_URL:-}" ]; then
    for product in glimpse-timeline glimpse-bench-timeline-service; do
        swift build -c release --product "$product" >/dev/null
    done
    exec python3 scripts/with_postgres.py "$0" "$@"
fi
bin="$(swift build -c release --show-bin-path)"
arguments=("$@")
[ ${#arguments[@]} -gt 0 ] || arguments=(--placements 10000 --hours 24)
keep='placing|simulated day|provider calls|entry changes|service CPU|answer|resident|store bytes'
echo "== glimpse-timeline, journal in SQLite (the reference)"
"$bin/glimpse-bench-timeline-service" --timeline "$bin/glimpse-timeline" "${arguments[@]}" | tr '\r' '\n' | grep -E "$keep"
echo "== glimpse-timeline, journal in PostgreSQL (${GLIMPSE_POSTGRES_URL})"
"$bin/glimpse-bench-timeline-service" --timeline "$bin/glimpse-timeline" --store "$GLIMPSE_POSTGRES_URL" \
    "${arguments[@]}" | tr '\r' '\n' | grep -E "$keep"
# What the service left in PostgreSQL: its three tables with their indexes and TOAST.
bytes="$(psql "$GLIMPSE_POSTGRES_URL" -Atc "SELECT pg_total_relation_size('glimpse_timeline_journal')
    + pg_total_relation_size('glimpse_timeline_snapshots') + pg_total_relation_size('glimpse_timeline_archive')")"
echo "store bytes in PostgreSQL:        $bytes (journal, snapshot, archive tables)"
