#!/usr/bin/env bash
# Hostile clients against the real executables: never-read followers at the gateway,
# never-read asset Gets, accepts at the fd limit. Prints resident memory, a bystander's
# latency and CPU shares (Benchmarks/hostile_clients_bench.py); numbers, not a test.
# Usage: Benchmarks/hostile-clients.sh
# Binaries: $GLIMPSE_BIN_DIR if set (e.g. an older build, to compare), else release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
if [ -z "${GLIMPSE_BIN_DIR:-}" ]; then
    for product in glimpse-gateway glimpse-asset glimpse-intent; do
        swift build -c release --product "$product" >/dev/null
    done
    GLIMPSE_BIN_DIR="$(swift build -c release --show-bin-path)"
fi
exec python3 Benchmarks/hostile_clients_bench.py --bin "$GLIMPSE_BIN_DIR"
