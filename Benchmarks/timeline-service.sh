#!/usr/bin/env bash
# glimpse-timeline as a service against the engine alone, in the same run (release builds).
#
#   Benchmarks/timeline-service.sh                       # 100,000 placements, 24 h
#   Benchmarks/timeline-service.sh --placements 10000 --hours 24
#
# The service run: the real glimpse-timeline (manual clock, fresh SQLite journal) and a
# provider process (the benchmark itself) serving every placement; it prints provider
# calls/s, entry changes/s through AdvanceTo, answer -> WatchEntries delivery p50/p99, and
# resident and store bytes per placement. Then the engine alone (glimpse-bench-timeline)
# with the same placements and hours. Numbers, not a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
for product in glimpse-timeline glimpse-bench-timeline-service glimpse-bench-timeline; do
    swift build -c release --product "$product" >/dev/null
done
bin="$(swift build -c release --show-bin-path)"
echo "== service (glimpse-timeline over gRPC, journaled in SQLite)"
service="$("$bin/glimpse-bench-timeline-service" --timeline "$bin/glimpse-timeline" "$@")"
echo "$service"
echo "== engine alone (same placements and hours, its own mixed workload)"
engine="$("$bin/glimpse-bench-timeline" "$@" | grep -E "simulated day|events per second|events handled|resident bytes per placement:")"
echo "$engine"
# Events as the engine counts them (wake-ups, provider answers, requests) against the
# service's entry changes plus provider answers, per wall second.
service_rate="$(echo "$service" | awk -F'[,/]' '/^service events/ {gsub(/ /, "", $2); print $2}')"
engine_rate="$(echo "$engine" | awk '/^events per second/ {print $NF}')"
awk -v s="$service_rate" -v e="$engine_rate" 'BEGIN { if (e > 0) printf "service / engine event rate:      %.3f (goal 0.25)\n", s / e }'
