#!/usr/bin/env bash
# Message-layer benchmark: generated Swift types vs protobuf-c alone, same run, release.
#   Benchmarks/messages.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product glimpse-bench-messages >/dev/null
"$(swift build -c release --show-bin-path)/glimpse-bench-messages"
