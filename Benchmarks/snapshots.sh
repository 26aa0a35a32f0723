#!/usr/bin/env bash
# Store bytes and start time with and without snapshots (issue 29 point 4), the real
# executables (release builds), `--snapshot-every 0` (journal only, as before snapshots)
# beside the default policy in the same run: the demo device through a simulated week on
# manual clocks, and 1,000,000 APNs pushes into glimpse-activity; each killed -9, then
# stopped gracefully, each store started three times (exec → health SERVING, peak RSS),
# and the state checked the same after each restart (Benchmarks/snapshots_bench.py).
# Numbers, not a test; it exits 1 when a restart shows another state.
#
#   Benchmarks/snapshots.sh                            # 7 days, 1,000,000 pushes
#   Benchmarks/snapshots.sh --days 2 --pushes 100000   # shorter
#   PORT_OFFSET=24000 Benchmarks/snapshots.sh          # ports 7700+offset… (default 23000)
# Binaries: $GLIMPSE_BIN_DIR if set (another build, to compare), else release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
if [ -z "${GLIMPSE_BIN_DIR:-}" ]; then
    for product in glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse-demo; do
        swift build -c release --product "$product" >/dev/null
    done
    GLIMPSE_BIN_DIR="$(swift build -c release --show-bin-path)"
fi
export GLIMPSE_BIN_DIR
exec python3 Benchmarks/snapshots_bench.py "$@"
