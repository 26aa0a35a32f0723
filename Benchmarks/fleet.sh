#!/usr/bin/env bash
# `glimpse fleet` against a whole stack on loopback (release builds): the demo template's
# devices driven through a day, beside one device's day alone in the same run (the
# reference: what a device costs when nothing else runs). Numbers, not a pass/fail test.
#
#   Benchmarks/fleet.sh                      # 1,000 devices, 24 h in 15-minute steps
#   FLEET_DEVICES=5000 Benchmarks/fleet.sh
#   FLEET_DAY=6h FLEET_CONCURRENCY=64 Benchmarks/fleet.sh
#   GLIMPSE_BIN=/tmp/before Benchmarks/fleet.sh  # executables copied from an earlier release build
#
# Prints the fleet's report (Clock.Advance calls/s and p50/p99, taps, provider calls/s,
# setup and delete times) and each process's RSS and open files with the devices held.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
devices="${FLEET_DEVICES:-1000}"
day="${FLEET_DAY:-24h}"
concurrency="${FLEET_CONCURRENCY:-32}"
offset="${FLEET_PORT_OFFSET:-400}"
if [ -n "${GLIMPSE_BIN:-}" ]; then
    bin="$GLIMPSE_BIN"  # executables built before (a before/after comparison): not rebuilt
else
    for product in glimpse glimpse-demo glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway; do
        swift build -c release --product "$product" >/dev/null
    done
    bin="$(swift build -c release --show-bin-path)"
fi
dir="$(mktemp -d /tmp/glimpse-fleet.XXXXXX)"
export GLIMPSE_GATEWAY="127.0.0.1:$((7700 + offset))"
sampler=
stop() {
    if [ -n "$sampler" ]; then kill "$sampler" 2>/dev/null || true; fi
    "$bin/glimpse" down --dir "$dir/stack" >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
"$bin/glimpse" up --dir "$dir/stack" --manual 2026-01-05T08:00:00Z --detach --port-offset "$offset" \
    --max-devices "$((devices + 10))" >/dev/null

# Each process's peak RSS and open files while the fleet runs, sampled every second.
sample() {
    declare -A rss fds
    while [ ! -e "$dir/done" ]; do
        for name in glimpse-gateway glimpse-timeline glimpse-intent glimpse-activity glimpse-asset; do
            pid="$(pgrep -f "$bin/$name " | head -1)" || continue
            r="$(($(ps -o rss= -p "$pid" 2>/dev/null || echo 0) / 1024))"
            f="$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)"
            [ "$r" -gt "${rss[$name]:-0}" ] && rss[$name]=$r
            [ "$f" -gt "${fds[$name]:-0}" ] && fds[$name]=$f
        done
        sleep 1
    done
    for name in glimpse-gateway glimpse-timeline glimpse-intent glimpse-activity glimpse-asset; do
        printf '  %-17s peak RSS %6d MiB  peak open files %6d\n' "$name" "${rss[$name]:-0}" "${fds[$name]:-0}"
    done > "$dir/peaks"
}

echo "== reference: one device's day alone (--devices 1)"
"$bin/glimpse" fleet --devices 1 --concurrency 1 --day "$day" --port-offset "$offset" --prefix alone
echo
echo "== the fleet: $devices devices, $concurrency at once"
sample &
sampler=$!
"$bin/glimpse" fleet --devices "$devices" --concurrency "$concurrency" --day "$day" --port-offset "$offset" \
    --push-paths "$dir/paths.txt"
touch "$dir/done"
wait "$sampler"
echo "while it ran:"
cat "$dir/peaks"
