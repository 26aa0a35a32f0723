#!/usr/bin/env bash
# Rendering, each number beside a reference (release builds):
#
#   Benchmarks/render.sh              # 3 cold starts, then 2,000 rounds per measurement
#   Benchmarks/render.sh 500
#
# Cold start: `glimpse up --detach` of the whole stack with the seed demo apps, from the
# command to the first screens printed (after the build), on a fresh data directory each
# time. Then glimpse-bench-render against that stack: layout per widget and per screen,
# SVG/text writers and SVG size vs writing the same Screen as proto3 JSON; Device.Render vs
# Device.Show at the gateway. Needs the default ports free. Numbers, not a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
for product in glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse-demo glimpse glimpse-bench-render; do
    swift build -c release --product "$product" >/dev/null
done
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d)"
trap '"$bin/glimpse" down --dir "$work/stack" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
echo "cold start: glimpse up --detach (5 services + 5 demo apps, install, place, start the pizza activity, draw)"
for run in 1 2 3; do
    rm -rf "$work/stack"
    start=$(date +%s.%N)
    "$bin/glimpse" up --detach --dir "$work/stack" --bin "$bin" >/dev/null 2>"$work/up.err"
    end=$(date +%s.%N)
    echo "  run $run: $(python3 -c "print(f'{$end - $start:.2f}')") s wall ($(grep -o 'drawn in [0-9.]* s' "$work/up.err"))"
    [ "$run" = 3 ] || "$bin/glimpse" down --dir "$work/stack" >/dev/null 2>&1
done
pid=$(python3 -c "import json,sys;print(next(p['pid'] for p in json.load(open('$work/stack/stack.json'))['processes'] if p['name']=='glimpse-gateway'))")
"$bin/glimpse-bench-render" --rounds "${1:-2000}" --gateway-pid "$pid"
