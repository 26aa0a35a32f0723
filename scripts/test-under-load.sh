#!/usr/bin/env bash
# The test command on a busy machine: three busy loops per core beside it (as on a shared CI
# runner), `ROUNDS` times in a row (default 3). No test may depend on how fast the machine is;
# this is the proof. Arguments go to scripts/test.sh's environment, e.g.
#
#   scripts/test-under-load.sh                          # the whole test command, three times
#   ROUNDS=1 GLIMPSE_SKIP_DEPLOY=1 scripts/test-under-load.sh
#   LOAD_PER_CORE=3 COMMAND="swift test --skip-build" scripts/test-under-load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"

rounds="${ROUNDS:-3}"
per_core="${LOAD_PER_CORE:-3}"
command="${COMMAND:-./scripts/test.sh}"
cores="$(nproc)"
loops=$((cores * per_core))

busy=()
stop_load() {
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_load EXIT

echo "test-under-load: $loops busy loops ($per_core per core on $cores cores) beside: $command, $rounds round(s)"
for _ in $(seq "$loops"); do
    ( while :; do :; done ) &
    busy+=("$!")
done

failed=0
for round in $(seq "$rounds"); do
    start=$(date +%s)
    status=0
    bash -c "$command" > "/tmp/test-under-load.$round.log" 2>&1 || status=$?
    load="$(cut -d' ' -f1 /proc/loadavg)"
    echo "test-under-load: round $round: exit $status in $(( $(date +%s) - start )) s (load average $load; log /tmp/test-under-load.$round.log)"
    [ "$status" -eq 0 ] || failed=1
done
exit "$failed"
