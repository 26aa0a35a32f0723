#!/usr/bin/env bash
# Activity engine scale benchmark: builds glimpse-bench-activity in release and runs it.
# Usage: Benchmarks/activity-scale.sh [--activities N] [--pushes-per-second N] [--seconds N]
# Defaults: 100,000 activities, 10,000 pushes/s, 60 simulated seconds.
# Prints pushes applied per second (engine wall-clock throughput) and bytes per activity.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product glimpse-bench-activity
exec "$(swift build -c release --show-bin-path)/glimpse-bench-activity" "$@"
