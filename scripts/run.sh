#!/usr/bin/env bash
# The whole stack on loopback with its embedded defaults: glimpse-timeline (7701),
# glimpse-intent (7702), glimpse-activity (7703; APNs endpoint 7443 TLS, 7444 h2c),
# glimpse-asset (7704) and glimpse-gateway (7700), release builds, data under
# ./.glimpse/. Installs what is missing first. Ctrl-C stops everything (gracefully).
#
#   ./scripts/run.sh                 # system clock
#   ./scripts/run.sh --manual        # manual clocks from 2026-01-01T09:00:00Z, the gateway conducting
#
# The seed demo apps are not part of it yet (they arrive with the rendering work).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
./scripts/bootstrap.sh
clock=()
if [ "${1:-}" = "--manual" ]; then clock=(--clock manual --start-time 2026-01-01T09:00:00Z); fi
products=(glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse)
for product in "${products[@]}"; do
    echo "run: building $product (release)"
    swift build -c release --product "$product" >/dev/null
done
bin="$(swift build -c release --show-bin-path)"
data="${GLIMPSE_DATA_DIR:-./.glimpse}"
pids=()
stop() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait
}
trap stop EXIT INT TERM
start() {
    local name="$1"; shift
    "$bin/glimpse-$name" --data-dir "$data/$name" "${clock[@]}" "$@" > >(sed "s/^/[$name] /") 2> >(sed "s/^/[$name] /" >&2) &
    pids+=("$!")
}
start timeline --port 7701
start intent --port 7702 --timeline-address 127.0.0.1:7701
# Provider tokens are not checked (give --apns-key TEAM:KEYID:PATH and drop this to check them).
start activity --port 7703 --timeline-address 127.0.0.1:7701 --apns-auth none
start asset --port 7704
start gateway --port 7700
echo "run: the stack is up; try: $bin/glimpse clock now   (Ctrl-C stops it)"
wait
