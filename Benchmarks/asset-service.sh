#!/usr/bin/env bash
# glimpse-asset as a service beside its references, in the same run (release).
#
#   Benchmarks/asset-service.sh                                # 32 images of 4 MiB, 4 calls in flight, 5 s of Gets
#   Benchmarks/asset-service.sh --size 1048576 --blobs 64 --concurrency 8 --chunk 65536
#   GLIMPSE_SCRATCH_PATH=.build-asset Benchmarks/asset-service.sh   # build in another scratch path
#
# The real glimpse-asset (fresh data directory, SQLite journal, blob files) over loopback
# gRPC: Put MB/s (each blob written, fsynced, renamed and journaled before it is
# acknowledged) and Get GB/s for cache hits (every Get hashes the blob as it streams).
# Beside them: the same blob files read directly (with and without SHA-256), the same
# bytes written + fsynced + renamed, and the catalog alone over memory. Numbers, not a
# pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
scratch=()
[ -n "${GLIMPSE_SCRATCH_PATH:-}" ] && scratch=(--scratch-path "$GLIMPSE_SCRATCH_PATH")
for product in glimpse-asset glimpse-bench-asset-service; do
    if ! out=$(swift build -c release "${scratch[@]}" --product "$product" 2>&1); then
        echo "$out" >&2
        exit 1
    fi
done
bin="$(swift build -c release "${scratch[@]}" --show-bin-path)"
exec "$bin/glimpse-bench-asset-service" --asset "$bin/glimpse-asset" "$@"
