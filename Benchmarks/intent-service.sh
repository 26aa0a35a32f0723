#!/usr/bin/env bash
# glimpse-intent as a service against the IntentExecutor alone, in the same run (release).
#
#   Benchmarks/intent-service.sh                          # 50,000 taps, 64 in flight
#   Benchmarks/intent-service.sh --taps 20000 --concurrency 16
#
# The real glimpse-intent (system clock, fresh SQLite journal) with this benchmark standing
# in for glimpse-timeline (it records when each tap's ReloadPlacement arrives): taps/s with
# unique idempotency keys, Perform p50/p99, tap -> reload requested p50/p99, service CPU
# per tap, resident and store bytes. Then the engine alone on the same taps. Numbers, not
# a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
for product in glimpse-intent glimpse-bench-intent-service; do
    swift build -c release --product "$product" >/dev/null
done
bin="$(swift build -c release --show-bin-path)"
exec "$bin/glimpse-bench-intent-service" --intent "$bin/glimpse-intent" "$@"
