#!/usr/bin/env bash
# Chaos soak of a supervised local stack (release build): mixed load, a random service killed
# with SIGKILL every 10 s, every acknowledged write checked at the end (Benchmarks/soak.py).
#
#   Benchmarks/soak.sh          # 30 minutes
#   Benchmarks/soak.sh 5 --kill-every 5
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
minutes="${1:-30}"
shift || true
for product in glimpse glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway; do
    swift build -c release --product "$product" >/dev/null
done
exec python3 Benchmarks/soak.py --minutes "$minutes" --bin "$(swift build -c release --show-bin-path)" "$@"
