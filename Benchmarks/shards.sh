#!/usr/bin/env bash
# The fleet with 1 shard and with 2, side by side in one run (release builds, loopback): for
# each, `glimpse up --shards N` and `glimpse fleet` with the demo template through a day, then
# a fresh fleet of the same size (its Live Activities still running) and pushes to every one of
# them (priority 5: no hourly budget), h2load over each shard's push paths at its own APNs
# endpoint at once. Numbers, not a pass/fail test.
#
#   Benchmarks/shards.sh                          # 500 devices, 24 h, 100,000 pushes
#   FLEET_DEVICES=1000 SHARD_PUSHES=200000 Benchmarks/shards.sh
#   PUSH_DEVICES=5000 PUSH_ACTIVITIES=20 Benchmarks/shards.sh   # pushes over 100,000 activities
#   GLIMPSE_BIN=/tmp/before Benchmarks/shards.sh  # executables copied from an earlier release build
#
# The push fleet (PUSH_DEVICES, default FLEET_DEVICES) starts the pizza app's Live Activity
# PUSH_ACTIVITIES times per device (glimpse-activity's --max-activities-per-app raised to
# match). After h2load, a steady LATENCY_RATE pushes/s (default 1,000, for 10 s) go to the
# activities of LATENCY_DEVICES (50) of its devices while their event logs are followed at the
# gateway: 200 -> the change in the device's log, p50/p99 (fleet_push_latency.py).
#
# On one machine two shards share its cores: what this shows is what a second set of services
# costs and where the work goes, not a second machine's gain. "not 200" counts h2load's
# errored requests too: with provider tokens, an APNs connection allows one stream until its
# token is verified (as Apple's does), so up to 31 of each connection's first 32 are refused
# (REFUSED_STREAM, nothing processed).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
devices="${FLEET_DEVICES:-500}"
day="${FLEET_DAY:-24h}"
concurrency="${FLEET_CONCURRENCY:-32}"
pushes="${SHARD_PUSHES:-100000}"
push_devices="${PUSH_DEVICES:-$devices}"
per_device="${PUSH_ACTIVITIES:-1}"
latency_rate="${LATENCY_RATE:-1000}"
latency_devices="${LATENCY_DEVICES:-50}"
offset="${FLEET_PORT_OFFSET:-400}"
start=2026-01-05T08:00:00Z
dir="$(mktemp -d /tmp/glimpse-shards.XXXXXX)"
if [ -n "${GLIMPSE_BIN:-}" ]; then
    bin="$GLIMPSE_BIN"  # executables built before (a before/after comparison): not rebuilt
else
    for product in glimpse glimpse-demo glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway; do
        swift build -c release --product "$product" > "$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
    done
    bin="$(swift build -c release --show-bin-path)"
fi
export GLIMPSE_GATEWAY="127.0.0.1:$((7700 + offset))"
stop() {
    for stack in "$dir"/stack-*; do [ -d "$stack" ] && "$bin/glimpse" down --dir "$stack" >/dev/null 2>&1; done
    rm -rf "$dir"
}
trap stop EXIT

# A provider token for the stack's demo key, issued now (the APNs endpoint checks a token's
# age on the real clock, as Apple does, whatever the devices' clocks say).
jwt() {
    python3 - "$1" <<'PY'
import sys, time, jwt
key = open(sys.argv[1]).read()
print(jwt.encode({"iss": "GLIMPSEDEV", "iat": int(time.time())}, key, algorithm="ES256", headers={"kid": "DEMOKEY001"}))
PY
}
# One update for the pizza demo's activity (the template's Live Activity on every device).
printf '{"aps":{"timestamp":%s,"event":"update","content-state":{"driverName":"Ana","status":"arrived","estimatedDeliveryTime":[0,60]}}}' \
    "$(date -d "$start" +%s)" > "$dir/push.json"
# The push fleet's template: the pizza app alone (the one with a Live Activity).
python3 - "$dir/pizza.json" <<'PY'
import json, pathlib, sys
demos = pathlib.Path("Demos").resolve()
device = json.loads((demos / "device.json").read_text())
pizza = next(app for app in device["apps"] if app["name"] == "pizza")
pizza["manifest"] = str(demos / "pizza" / "app.json")
pathlib.Path(sys.argv[1]).write_text(json.dumps({"apps": [pizza]}))
PY

# Peak RSS summed over every process of the stack, sampled every second until $1 exists.
sample() {
    local peak=0
    while [ ! -e "$1" ]; do
        local total=0
        for pid in $(pgrep -f "$bin/glimpse-(gateway|timeline|intent|activity|asset) "); do
            total=$((total + $(ps -o rss= -p "$pid" 2>/dev/null || echo 0)))
        done
        [ "$total" -gt "$peak" ] && peak=$total
        sleep 1
    done
    echo $((peak / 1024)) > "$1.rss"
}

run() {
    local shards="$1" stack="$dir/stack-$1"
    GLIMPSE_MAX_ACTIVITIES_PER_APP="$((per_device > 5 ? per_device : 5))" \
        "$bin/glimpse" up --dir "$stack" --manual "$start" --detach --port-offset "$offset" --shards "$shards" \
        --max-devices "$(((devices > push_devices ? devices : push_devices) + 10))" >/dev/null
    sample "$dir/done-$shards" &
    "$bin/glimpse" fleet --devices "$devices" --concurrency "$concurrency" --day "$day" --port-offset "$offset" \
        --json > "$dir/fleet-$shards.json"
    # A Live Activity ends within 8 hours: the pushes go to a fresh fleet's, 15 minutes in.
    "$bin/glimpse" fleet --devices "$push_devices" --concurrency "$concurrency" --day 15m --port-offset "$offset" \
        --prefix push --template "$dir/pizza.json" --activities "$per_device" --push-paths "$dir/paths-$shards" \
        --keep --json > "$dir/push-fleet-$shards.json"
    local token
    token="$(jwt "$stack/apns/AuthKey_DEMOKEY001.p8")"
    # Each shard's tokens at its own APNs endpoint, all shards at once.
    local index=0 files=() loads=()
    if [ "$shards" = 1 ]; then files=("$dir/paths-1"); else files=("$dir/paths-$shards".?); fi
    for file in "${files[@]}"; do
        local port=$((7444 + offset + index * 20))
        # h2load -i takes full URIs; the first one's authority is the one it connects to.
        sed "s|^|http://127.0.0.1:$port|" "$file" > "$file.uris"
        h2load -c 4 -m 32 -t 1 -n "$((pushes / ${#files[@]}))" -i "$file.uris" -d "$dir/push.json" \
            -H "authorization: bearer $token" -H "apns-push-type: liveactivity" -H "apns-priority: 5" \
            -H "apns-topic: com.you.pizza.push-type.liveactivity" > "$file.h2load" &
        loads+=("$!")
        index=$((index + 1))
    done
    wait "${loads[@]}"
    # 200 -> the change in the device's event log, over a sample of the push fleet (at shard
    # a's APNs endpoint: on two shards, the sample is devices that live there).
    python3 Benchmarks/ActivityService/fleet_push_latency.py --gateway "$GLIMPSE_GATEWAY" \
        --h2c "127.0.0.1:$((7444 + offset))" --service "127.0.0.1:$((7703 + offset))" --key "$stack/apns/AuthKey_DEMOKEY001.p8" --prefix push- --sample "$latency_devices" \
        --shard "$([ "$shards" = 1 ] || echo a)" \
        --rate "$latency_rate" --seconds 10 --timestamp "$(date -d "$start" +%s)" > "$dir/latency-$shards.txt"
    touch "$dir/done-$shards"
    wait
    "$bin/glimpse" down --dir "$stack" >/dev/null
}

for shards in 1 2; do
    echo "== $shards shard(s): $devices devices through $day, then $pushes pushes" >&2
    run "$shards"
done

python3 - "$dir" "$devices" "$pushes" <<'PY'
import json, pathlib, re, sys
dir, devices, pushes = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]

def h2load(shards):
    files = sorted(dir.glob(f"paths-{shards}*.h2load"))
    rate = ok = failed = 0.0
    p99 = []
    for file in files:
        text = file.read_text()
        rate += float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", text).group(1))
        codes = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text)
        ok += int(codes.group(1))
        failed += sum(int(codes.group(n)) for n in (2, 3, 4)) + int(re.search(r"(\d+) errored", text).group(1))
        m = re.search(r"time for request:\s+\S+\s+(\S+)\s+(\S+)", text)
        p99.append(m.group(2) if m else "?")
    return rate, int(ok), int(failed), "/".join(p99)

rows = []
for shards in (1, 2):
    fleet = json.loads((dir / f"fleet-{shards}.json").read_text().strip().splitlines()[-1])
    rate, ok, failed, worst = h2load(shards)
    push = json.loads((dir / f"push-fleet-{shards}.json").read_text().strip().splitlines()[-1])
    latency = dict(line.split(": ", 1) for line in (dir / f"latency-{shards}.txt").read_text().splitlines() if ": " in line)
    rows.append({
        "devices (per shard)": ", ".join(f"{k} {v}" for k, v in fleet.get("shards", {}).items()) or devices,
        "set up": f"{fleet['setupSeconds']:.1f} s",
        "the day": f"{fleet['daySeconds']:.1f} s",
        "Clock.Advance": f"{fleet['advancesPerSecond']:.0f}/s, p50 {fleet['advanceP50Ms']:.0f} / p99 {fleet['advanceP99Ms']:.0f} ms",
        "provider calls": f"{fleet['providerAnswered']} ({fleet['providerFailed']} failed), {fleet['providerCallsPerSecond']:.0f}/s",
        "push fleet": f"{push['devices']} devices, {push['activities']} Live Activities, set up in {push['setupSeconds']:.1f} s",
        "pushes (h2load, all shards at once)": f"{rate:,.0f}/s, {ok} 200, {failed} not 200, slowest {worst}",
        "after h2load, sampled logs caught up in": latency.get("the sampled devices' logs caught up in", "?"),
        "200 -> device event log": latency.get("200 -> device event log", "?"),
        "200 -> WatchActivities at the service": latency.get("200 -> WatchActivities at glimpse-activity", "?"),
        "  its pushes": f"{latency.get('pushes sent', '?')}; {latency.get('changes in the event logs', '?')}",
        "peak RSS, all processes": f"{(dir / f'done-{shards}.rss').read_text().strip()} MiB",
    })
width = max(len(k) for k in rows[0])
print(f"{'':{width}}  {'1 shard':58}  2 shards")
for key in rows[0]:
    print(f"{key:{width}}  {rows[0][key]:58}  {rows[1][key]}")
PY
