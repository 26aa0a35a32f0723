#!/usr/bin/env bash
# One app's hanging provider beside a normal app's widget: the normal app's entry lateness
# (p50/p99/max) alone and beside it, side by side (release builds). Numbers, not a test.
#
#   Benchmarks/isolation.sh          # 25 s per phase
#   Benchmarks/isolation.sh 10
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
for product in glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway; do
    swift build -c release --product "$product" >/dev/null
done
GLIMPSE_BIN_DIR="$(swift build -c release --show-bin-path)" exec python3 Benchmarks/isolation.py "$@"
