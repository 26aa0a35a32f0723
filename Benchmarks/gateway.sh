#!/usr/bin/env bash
# glimpse-gateway through the whole stack, each number beside a reference (release builds).
#
#   Benchmarks/gateway.sh                                  # 2,000 taps, 10,000 placements
#   Benchmarks/gateway.sh --taps 500 --placements 1000
#
# Tap -> new entry at the gateway vs the services alone; Clock.Advance(24h) with the
# placements reloading hourly vs AdvanceTo at each service; JSON vs gRPC per call.
# Numbers, not a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
for product in glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse-bench-gateway; do
    swift build -c release --product "$product" >/dev/null
done
bin="$(swift build -c release --show-bin-path)"
exec "$bin/glimpse-bench-gateway" --bin "$bin" "$@"
