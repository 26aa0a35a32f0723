#!/usr/bin/env bash
# glimpse-activity's APNs-compatible endpoint under load (release build), against nghttpd
# in the same run.
#
#   Benchmarks/activity-service.sh                 # 5,000 pushes/s for 10 s, then h2load
#   RATE=2000 SECONDS_=5 Benchmarks/activity-service.sh
#   ACTIVITY=/tmp/old/glimpse-activity RSS_ROUNDS=0 Benchmarks/activity-service.sh  # another build
#
# 1. Latency at a steady rate: a Python HTTP/2 client (h2) sends RATE pushes/s (JSON
#    updates, priority 5) over h2c while a gRPC WatchActivities stream follows them: the
#    time from each push's 200 to its content change on the stream, p50/p99 (goal p99 < 20 ms).
# 2. Throughput: h2load POSTs the same JSON push (priority 5, one activity) as fast as it
#    can; beside it, h2load POSTing to nghttpd serving a static file (the machine's ceiling).
# 3. Memory: RSS_ROUNDS (4) more h2load rounds; RSS and store size after each (1,000,000 pushes).
# Numbers, not a pass/fail test.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
RATE="${RATE:-5000}"; SECONDS_="${SECONDS_:-10}"; COUNT="${COUNT:-200000}"; RSS_ROUNDS="${RSS_ROUNDS:-4}"
if [ -z "${ACTIVITY:-}" ]; then
    swift build -c release --product glimpse-activity >/dev/null
    ACTIVITY="$(swift build -c release --show-bin-path)/glimpse-activity"
fi
WORK="$(mktemp -d)"; trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$WORK"' EXIT

"$ACTIVITY" --port 0 --data-dir "$WORK/activity" --apns-auth none --apns-tls-port 0 \
    --apns-h2c-port auto --log-level warning > "$WORK/out" 2> "$WORK/err" &
for _ in $(seq 100); do [ "$(wc -l < "$WORK/out")" -ge 2 ] && break; sleep 0.1; done
GRPC="$(awk 'NR==1 {print $4}' "$WORK/out")"; H2C="$(awk '/apns-h2c/ {print $5}' "$WORK/out")"

echo "== latency: $RATE pushes/s for $SECONDS_ s, 200 -> WatchActivities"
python3 Benchmarks/ActivityService/push_bench.py --grpc "$GRPC" --h2c "$H2C" --rate "$RATE" --seconds "$SECONDS_" | tee "$WORK/latency"
TOKEN="$(awk '/^token:/ {print $2}' "$WORK/latency")"
printf '{"aps":{"timestamp":%s,"event":"update","content-state":{"n":1}}}' "$(date +%s)" > "$WORK/push.json"

echo "== throughput: h2load, $COUNT pushes, -c 4 -m 32"
h2load -c 4 -m 32 -t 1 -n "$COUNT" -d "$WORK/push.json" -H "apns-push-type: liveactivity" \
    -H "apns-topic: com.example.pizza.push-type.liveactivity" -H "apns-priority: 5" \
    "http://127.0.0.1:$H2C/3/device/$TOKEN" | grep -E "finished in|requests:|status codes:|time for request:"
PID="$(pgrep -f "$WORK/activity" | head -1)"
echo "   resident bytes of glimpse-activity: $(awk '/VmRSS/ {print $2 * 1024}' /proc/$PID/status)"

# 3. Memory over many pushes: the push log is bounded in memory (the pushes since the last
#    snapshot; the older ones are in the store's archive), so RSS stays flat.
echo "== memory: $RSS_ROUNDS more rounds of $COUNT pushes, glimpse-activity's RSS after each"
for round in $(seq "$RSS_ROUNDS"); do
    h2load -c 4 -m 32 -t 1 -n "$COUNT" -d "$WORK/push.json" -H "apns-push-type: liveactivity" \
        -H "apns-topic: com.example.pizza.push-type.liveactivity" -H "apns-priority: 5" \
        "http://127.0.0.1:$H2C/3/device/$TOKEN" > /dev/null
    echo "   after $(( (round + 1) * COUNT )) pushes: $(awk '/VmRSS/ {printf "%.1f MiB", $2 / 1024}' /proc/$PID/status), store $(du -sm "$WORK/activity" | cut -f1) MiB"
done

echo "== reference: nghttpd (static file), same h2load"
mkdir -p "$WORK/docroot"; echo ok > "$WORK/docroot/push"
PORT=$((20000 + RANDOM % 20000))
nghttpd --no-tls -d "$WORK/docroot" "$PORT" > /dev/null 2>&1 &
sleep 0.5
h2load -c 4 -m 32 -t 1 -n "$COUNT" -d "$WORK/push.json" "http://127.0.0.1:$PORT/push" \
    | grep -E "finished in|requests:|time for request:"
