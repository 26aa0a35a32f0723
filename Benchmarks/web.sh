#!/usr/bin/env bash
# The device in a browser: push-to-page latency (p50/p99 over 100 pushes) beside the same
# pushes seen on the gateway's event stream by a bare SSE client, the page's weight, and
# glimpse-gateway's resident memory with 20 pages open. Starts its own stack (`glimpse up
# --detach`, default ports) and headless Chromium (scripts/bootstrap.sh installs chromium,
# chromium-driver and selenium). Release builds; prints numbers, not a test.
# Usage: Benchmarks/web.sh [--pushes N] [--pages N]
# Binaries: $GLIMPSE_BIN_DIR if set, else release builds of the stack's products.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
if [ -z "${GLIMPSE_BIN_DIR:-}" ]; then
    for product in glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse-demo glimpse; do
        swift build -c release --product "$product" >/dev/null
    done
    GLIMPSE_BIN_DIR="$(swift build -c release --show-bin-path)"
fi
exec python3 Benchmarks/web_bench.py --bin "$GLIMPSE_BIN_DIR" "$@"
