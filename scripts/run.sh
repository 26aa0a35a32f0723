#!/usr/bin/env bash
# The whole of Glimpse on loopback with its embedded defaults: glimpse-timeline (7701),
# glimpse-intent (7702), glimpse-activity (7703; APNs endpoint 7443 TLS, 7444 h2c),
# glimpse-asset (7704), glimpse-gateway (7700) and the five seed demo apps (7710-7714),
# release builds, data under ./.glimpse. Installs what is missing and builds first, then
# hands its arguments to `glimpse up` (or `glimpse down`):
#
#   ./scripts/run.sh                     # up in the foreground; Ctrl-C stops everything
#   ./scripts/run.sh --detach            # returns once the stack is up
#   ./scripts/run.sh down                # stops a detached stack
#   ./scripts/run.sh --manual 2026-01-01T09:00:00Z   # manual clocks, frozen until moved (--follow: real time)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
bin="$(swift build -c release --show-bin-path 2>/dev/null || echo .build/release)"
if [ "${1:-}" = "down" ]; then
    shift
    [ -x "$bin/glimpse" ] || { echo "run: nothing built, so nothing runs" >&2; exit 0; }
    exec "$bin/glimpse" down "$@"
fi
./scripts/bootstrap.sh
products=(glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse-demo glimpse)
for product in "${products[@]}"; do
    echo "run: building $product (release)" >&2
    swift build -c release --product "$product" >/dev/null
done
exec "$bin/glimpse" up --bin "$bin" "$@"
