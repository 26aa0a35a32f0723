#!/usr/bin/env bash
# Timeline engine at scale: builds glimpse-bench-timeline in release and runs it.
#
#   Benchmarks/timeline-scale.sh                      # 1,000,000 placements, 24 h virtual
#   Benchmarks/timeline-scale.sh --placements 100000 --hours 6
#
# Prints events handled per second, the worst lateness of a due reload, and resident
# bytes per placement (VmRSS from /proc/self/status). Numbers, not a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product glimpse-bench-timeline
exec "$(swift build -c release --show-bin-path)/glimpse-bench-timeline" "$@"
