#!/usr/bin/env bash
# The compose deployment, end to end, on this machine (as root on Debian 12):
#
#   1. install   podman + docker-compose set up as they run on this kind of machine (rootful
#                podman, runc, cgroupfs, file events, netavark; docker-compose 1.29 through
#                `podman system service`), and what the build needs (scripts/bootstrap.sh)
#   2. build     the seven release binaries, Swift standard library linked in (.build-deploy)
#   3. image     localhost/glimpse-base:bookworm (debootstrap, cached) and localhost/glimpse:latest
#   4. up        docker-compose up -d with the manual-clock override, healthchecks driven by
#                hand (podman runs none by itself without systemd), then the one-shot setup
#   5. rtlair    Ride the Lightning Air through the published gateway: check in, gate; both widgets follow
#   6. pizza     Demos/pizza/push_server.py (aioapns, TLS, ES256 provider tokens) moves the delivery
#   7. outage    glimpse-timeline's container killed: the gateway keeps the last screen and says
#                so; docker-compose start brings it back; then its process killed -9: the
#                restart policy does; the gateway catches up both times
#   8. contracts `glimpse contracts verify` against each service (when that command exists)
#   9. postgres  the stack again with compose.postgres.yaml: the four journals in a PostgreSQL
#                container (localhost/glimpse-postgres:15, deploy/postgres/image.sh): setup, a
#                tap, the rows in PostgreSQL and no SQLite file, glimpse-timeline killed -9 and
#                back on its journal
#  10. down      docker-compose down -v
#
#   deploy/smoke.sh
#   GLIMPSE_SMOKE_PORT_OFFSET=0 deploy/smoke.sh     # publish on the default ports (7700…, 7443, 7444)
#
# Published ports are the defaults plus GLIMPSE_SMOKE_PORT_OFFSET (default 10000: the
# gateway on 127.0.0.1:17700, APNs on 17443/17444), so a stack on the default ports can run
# beside it. GLIMPSE_SMOKE_PROJECT names the compose project (default glimpse-smoke);
# GLIMPSE_SMOKE_KEEP=1 leaves the stack up at the end (it prints how to stop it);
# GLIMPSE_SMOKE_SKIP_CONTRACTS=1 skips phase 8.
# Each phase prints what it checks and its time; a failure prints the containers' logs and
# exits non-zero; the stack and the podman service are always taken down.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"

PROJECT="${GLIMPSE_SMOKE_PROJECT:-glimpse-smoke}"
OFFSET="${GLIMPSE_SMOKE_PORT_OFFSET:-10000}"
SCRATCH="${GLIMPSE_SCRATCH:-.build-deploy}"
COMPOSE_FILES=(-f deploy/compose.yaml -f deploy/compose.manual.yaml)
START_TIME="2026-11-24T09:00:00Z"

export GLIMPSE_PUBLISH_GATEWAY=$((7700 + OFFSET)) GLIMPSE_PUBLISH_TIMELINE=$((7701 + OFFSET))
export GLIMPSE_PUBLISH_INTENT=$((7702 + OFFSET)) GLIMPSE_PUBLISH_ACTIVITY=$((7703 + OFFSET))
export GLIMPSE_PUBLISH_ASSET=$((7704 + OFFSET)) GLIMPSE_PUBLISH_APNS_TLS=$((7443 + OFFSET))
export GLIMPSE_PUBLISH_APNS_H2C=$((7444 + OFFSET)) GLIMPSE_PUBLISH_PIXAR=$((7710 + OFFSET))
export GLIMPSE_PUBLISH_MOVIEPLANNER=$((7711 + OFFSET)) GLIMPSE_PUBLISH_STEPS=$((7712 + OFFSET))
export GLIMPSE_PUBLISH_RTLAIR=$((7713 + OFFSET)) GLIMPSE_PUBLISH_PIZZA=$((7714 + OFFSET))
export GLIMPSE_START_TIME="$START_TIME" GLIMPSE_FOLLOW_REAL_TIME=false
GATEWAY="127.0.0.1:$GLIMPSE_PUBLISH_GATEWAY"

# What compose runs on here (containers-notes): the engine, its runtime and network, the
# init for `init: true`, the base image's maker, and docker-compose 1.29.
PODMAN_PACKAGES=(podman runc conmon netavark aardvark-dns iptables catatonit debootstrap docker-compose)

WORK="$(mktemp -d /tmp/glimpse-smoke.XXXXXX)"
SOCKET="$WORK/podman.sock"
PODMAN_SERVICE_PID=""
HEALTH_DRIVER_PID=""
STACK_UP=0
source deploy/phases.sh

COMPOSE=(env "DOCKER_HOST=unix://$SOCKET" docker-compose -p "$PROJECT" "${COMPOSE_FILES[@]}")
compose() { "${COMPOSE[@]}" "$@"; }
container() {  # the container of a compose service
    podman ps -a --filter "label=com.docker.compose.project=$PROJECT" \
        --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -n1
}
glimpse() { GLIMPSE_GATEWAY="$GATEWAY" "$BIN/glimpse" "$@"; }

# Waits until a container's healthcheck passes.
healthy() {
    local deadline=$(( $(date +%s) + 30 ))
    until podman healthcheck run "$1" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.3
    done
}
# Waits until the gateway names no service unreachable.
reconnected() {
    local deadline=$(( $(date +%s) + 20 ))
    until glimpse show --json | python3 -c 'import json,sys; sys.exit(1 if json.load(sys.stdin).get("unreachableServices") else 0)'; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}
# Fails unless each of the compose services' containers is running and healthy.
containers_healthy() {
    local service name status
    for service in "$@"; do
        name="$(container "$service")"
        status="$(podman ps --filter "name=^${name}\$" --format '{{.Status}}')"
        case "$status" in *"(healthy)"*) ;; *) fail "$service ($name) is not healthy: $status";; esac
    done
}
# A crash rather than a stop: kills a service's process inside its container, then waits
# until the restart policy (unless-stopped) has started the container again, it is healthy
# and the gateway has reconnected to it.
crash_and_recover() {
    local service="$1" name restarts pid deadline
    name="$(container "$service")"
    restarts="$(podman inspect -f '{{.RestartCount}}' "$name")"
    # /proc's comm holds the first 15 characters of the executable's name.
    pid="$(podman top "$name" hpid comm | awk -v comm="${service:0:15}" 'index($2, comm) == 1 { print $1 }')"
    [ -n "$pid" ] || fail "no $service process in $name"
    kill -9 "$pid"
    check "kill -9 of the $service process (pid $pid on the host)"
    deadline=$(( $(date +%s) + 20 ))
    until [ "$(podman inspect -f '{{.RestartCount}}' "$name")" -gt "$restarts" ] \
          && podman ps --filter "name=^${name}\$" --format '{{.Status}}' | grep -q '^Up'; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "the restart policy did not start $name again"
        sleep 0.2
    done
    healthy "$name" || fail "$service did not come back healthy after the crash"
    check "restarted by the restart policy (restart count $(podman inspect -f '{{.RestartCount}}' "$name")) and healthy"
    reconnected || fail "the gateway never reconnected to $service after the crash"
    check "the gateway reconnected to $service"
}

show_logs() {
    say "--- containers of $PROJECT"
    podman ps -a --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Names}}  {{.Status}}' || true
    for name in $(podman ps -a --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Names}}' 2>/dev/null); do
        say "--- last logs of $name"
        podman logs --tail 25 "$name" 2>&1 | sed 's/^/  | /' || true
    done
}

start_health_driver() {
    # podman schedules healthchecks with systemd timers; without systemd, run them here.
    (
        while :; do
            for name in $(podman ps --filter "label=com.docker.compose.project=$PROJECT" --format '{{.Names}}' 2>/dev/null); do
                podman healthcheck run "$name" >/dev/null 2>&1 || true
            done
            sleep 0.5
        done
    ) &
    HEALTH_DRIVER_PID=$!
}
stop_health_driver() {
    if [ -n "$HEALTH_DRIVER_PID" ]; then
        kill "$HEALTH_DRIVER_PID" 2>/dev/null || true
        wait "$HEALTH_DRIVER_PID" 2>/dev/null || true
        HEALTH_DRIVER_PID=""
    fi
}

cleanup() {
    local status=$?
    set +e
    end_phase
    stop_health_driver
    if [ "$status" != 0 ]; then
        [ -n "$FAILED" ] || FAILED="$PHASE (exit $status)"
        [ "$STACK_UP" = 1 ] && show_logs >&2
    fi
    if [ "$STACK_UP" = 1 ] && [ "${GLIMPSE_SMOKE_KEEP:-0}" != 1 ]; then
        local started; started=$(now_ms)
        say ""
        say "== down: docker-compose down -v (containers, network, volumes)"
        compose down -v --remove-orphans >"$WORK/down.log" 2>&1 || cat "$WORK/down.log"
        local left; left="$(podman ps -a --filter "label=com.docker.compose.project=$PROJECT" -q | wc -l)"
        local volumes; volumes="$(podman volume ls --filter "label=com.docker.compose.project=$PROJECT" -q | wc -l)"
        check "containers left: $left, volumes left: $volumes"
        PHASES+=("$(awk -v t="$(( $(now_ms) - started ))" 'BEGIN { printf "%-10s %8.1f s", "down", t / 1000 }')")
    fi
    if [ -n "$PODMAN_SERVICE_PID" ] && [ "${GLIMPSE_SMOKE_KEEP:-0}" != 1 ]; then
        kill "$PODMAN_SERVICE_PID" 2>/dev/null
        wait "$PODMAN_SERVICE_PID" 2>/dev/null
    fi
    if [ "${GLIMPSE_SMOKE_KEEP:-0}" = 1 ] && [ "$STACK_UP" = 1 ]; then
        say "kept: the stack ($PROJECT), podman system service (pid $PODMAN_SERVICE_PID) and $WORK;"
        say "  stop: DOCKER_HOST=unix://$SOCKET docker-compose -p $PROJECT ${COMPOSE_FILES[*]} down -v; kill $PODMAN_SERVICE_PID"
    else
        rm -rf "$WORK"
    fi
    say ""
    say "== times"
    for line in "${PHASES[@]}"; do say "   $line"; done
    if [ "$status" = 0 ]; then say "smoke: passed"; else say "smoke: FAILED ($FAILED)" >&2; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------
phase install "podman, runc, netavark, docker-compose and the build's packages"

./scripts/bootstrap.sh
missing=()
for p in "${PODMAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    say "smoke: apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # No recommends: docker-compose recommends docker.io, an engine this machine does not run.
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
check "installed: ${PODMAN_PACKAGES[*]}"

# Engine settings, as a drop-in (podman 4.3 reads /etc/containers/containers.conf.d/*.conf
# after containers.conf, so nothing else there is touched).
mkdir -p /etc/containers/containers.conf.d
cat >/etc/containers/containers.conf.d/50-glimpse-smoke.conf <<'EOF'
# Written by glimpse deploy/smoke.sh: rootful podman without systemd or journald.
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "runc"

[network]
network_backend = "netavark"
EOF
settings="$(podman info --format '{{.Host.CgroupManager}} {{.Host.OCIRuntime.Name}} {{.Host.EventLogger}} {{.Host.NetworkBackend}}')"
[ "$settings" = "cgroupfs runc file netavark" ] || fail "podman ignored the drop-in: cgroup manager, runtime, events, network = $settings"
check "podman $(podman version --format '{{.Client.Version}}'): $settings"

podman system service --time=0 "unix://$SOCKET" >"$WORK/podman-service.log" 2>&1 &
PODMAN_SERVICE_PID=$!
for _ in $(seq 100); do
    curl -fsS --unix-socket "$SOCKET" http://d/_ping >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fsS --unix-socket "$SOCKET" http://d/_ping >/dev/null || fail "podman system service did not answer on $SOCKET"
check "podman system service on $SOCKET (pid $PODMAN_SERVICE_PID); $(docker-compose version --short 2>/dev/null | head -n1 | sed 's/^/docker-compose /')"
compose config -q || fail "docker-compose config refused deploy/compose.yaml + compose.manual.yaml"
GLIMPSE_POSTGRES_PASSWORD=check compose -f deploy/compose.postgres.yaml config -q \
    || fail "docker-compose config refused deploy/compose.postgres.yaml"
check "docker-compose config -q: the compose files are valid"

# ---------------------------------------------------------------------------------------
phase build "swift build -c release --static-swift-stdlib (7 products, $SCRATCH)"
products=(glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse-demo glimpse)
for product in "${products[@]}"; do
    if ! swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product "$product" >"$WORK/build.log" 2>&1; then
        grep -E "error:" "$WORK/build.log" | head -n 20 || tail -n 40 "$WORK/build.log"
        fail "swift build --product $product"
    fi
    # A warning in our targets fails the build already; the static Foundation's link-time
    # note about mktemp is the toolchain's own.
    if grep "warning:" "$WORK/build.log" | grep -qv "libFoundationEssentials.a"; then
        grep "warning:" "$WORK/build.log" | grep -v "libFoundationEssentials.a" | sort -u | head
    fi
    check "built $product"
done
BIN="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)"

# ---------------------------------------------------------------------------------------
phase image "localhost/glimpse-base:bookworm (cached), localhost/glimpse:latest and localhost/glimpse-postgres:15"
GLIMPSE_SKIP_SWIFT_BUILD=1 GLIMPSE_SCRATCH="$SCRATCH" deploy/image.sh
deploy/postgres/image.sh
podman run --rm "${GLIMPSE_IMAGE:-localhost/glimpse:latest}" glimpse health --help >/dev/null || fail "the image cannot run glimpse"
check "the image runs glimpse as $(podman run --rm "${GLIMPSE_IMAGE:-localhost/glimpse:latest}" id -un)"

# ---------------------------------------------------------------------------------------
phase up "docker-compose up -d (manual clocks from $START_TIME), healthchecks driven by hand"

# A provider signing key for the APNs endpoint's JWT check (a throwaway, like glimpse up's).
mkdir -p "$WORK/keys" "$WORK/stack/apns"
python3 - "$WORK/keys/AuthKey_DEMOKEY001.p8" <<'PY'
import sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
open(sys.argv[1], "wb").write(pem)
PY
# The container's user (uid 10001) reads it: its own, 0600 in a 0700 folder.
chmod 0755 "$WORK"
chown -R 10001:10001 "$WORK/keys"
chmod 0700 "$WORK/keys"
chmod 0600 "$WORK/keys/AuthKey_DEMOKEY001.p8"
export GLIMPSE_APNS_KEYS_DIR="$WORK/keys" GLIMPSE_APNS_AUTH=jwt
export GLIMPSE_APNS_KEY="GLIMPSEDEV:DEMOKEY001:/etc/glimpse/apns-keys/AuthKey_DEMOKEY001.p8"

LONG_RUNNING=(glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway
              demo-pixar demo-movieplanner demo-steps demo-rtlair demo-pizza)
compose down -v --remove-orphans >/dev/null 2>&1 || true   # what an interrupted run left
STACK_UP=1
start_health_driver
if ! timeout 300 "${COMPOSE[@]}" up -d >"$WORK/up.log" 2>&1; then
    cat "$WORK/up.log"
    for service in "${LONG_RUNNING[@]}"; do
        name="$(container "$service")"
        status="$(podman ps -a --filter "name=^${name}\$" --format '{{.Status}}' 2>/dev/null)"
        case "$status" in *"(healthy)"*) ;; *) say "  not healthy: $service ($name): ${status:-not created}";; esac
    done
    fail "docker-compose up -d"
fi
sed 's/^/  | /' "$WORK/up.log"
containers_healthy "${LONG_RUNNING[@]}"
check "10 containers healthy (glimpse health --target 127.0.0.1:<port> in each)"
setup="$(container setup)"
[ -n "$setup" ] || fail "no setup container"
code="$(timeout 120 podman wait "$setup")" || fail "setup did not finish within 120 s"
podman logs "$setup" 2>&1 | sed 's/^/  | /'
[ "$code" = 0 ] || fail "setup exited $code"
check "setup: apps installed, widgets placed, pizza activity started (exit 0)"
stop_health_driver

# The stack requires its device key for device calls (the `device-key` container made it):
# the host's glimpse, contracts and the push server send it from GLIMPSE_DEVICE_KEY.
status="$(GLIMPSE_GATEWAY="$GATEWAY" GLIMPSE_DEVICE_KEY= "$BIN/glimpse" clock now 2>&1 >/dev/null || true)"
case "$status" in *UNAUTHENTICATED*) ;; *) fail "the gateway answered a device call without the device key: $status";; esac
podman exec "$(container glimpse-gateway)" cat /var/lib/glimpse/keys/device-key >"$WORK/device-key" \
    || fail "no device key in the keys volume"
chmod 0600 "$WORK/device-key"
export GLIMPSE_DEVICE_KEY="$WORK/device-key"
check "device calls without the device key are UNAUTHENTICATED; the host's glimpse sends it (GLIMPSE_DEVICE_KEY)"

apps="$(glimpse apps --json)"
count="$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1]).get("apps", [])))' "$apps")"
[ "$count" = 5 ] || fail "the gateway at $GATEWAY lists $count apps, not 5"
check "through the published gateway $GATEWAY: 5 apps installed"
widgets="$(glimpse widgets --json)"
count="$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1]).get("widgets", [])))' "$widgets")"
[ "$count" = 7 ] || fail "$count widgets placed, not 7"
check "7 widgets placed (Demos/device.json)"
[ "$(glimpse clock now)" != "" ] && check "device clock: $(glimpse clock now | head -n1)"

# The placement of a bundle's kind in a family, from `glimpse widgets --json`.
placement() {
    glimpse widgets --json | python3 -c '
import json, sys
bundle, kind, family = sys.argv[1:4]
for w in json.load(sys.stdin).get("widgets", []):
    if w.get("bundleId") == bundle and w.get("kind") == kind and w.get("family") == family:
        print(w["placementId"]); break' "$@"
}
# Waits until `glimpse show <placement>` contains the text.
shows() {
    local deadline=$(( $(date +%s) + ${3:-10} ))
    until glimpse show "$1" 2>/dev/null | grep -qF -- "$2"; do
        [ "$(date +%s)" -lt "$deadline" ] || { glimpse show "$1" >&2 || true; return 1; }
        sleep 0.2
    done
}

# ---------------------------------------------------------------------------------------
phase rtlair "Ride the Lightning Air: Check In, then Gate M72; the Lock Screen widget follows each tap"
medium="$(placement net.insoc.rtlair MediumWidget WIDGET_FAMILY_SYSTEM_MEDIUM)"
lock="$(placement net.insoc.rtlair LockScreenWidget WIDGET_FAMILY_ACCESSORY_RECTANGULAR)"
[ -n "$medium" ] && [ -n "$lock" ] || fail "RTL Air's widgets are not placed: medium='$medium' lock='$lock'"
shows "$medium" "Not Checked In" || fail "widget $medium does not show Not Checked In"
shows "$lock" "Not Checked In" || fail "widget $lock does not show Not Checked In"
check "medium $medium and Lock Screen $lock: Not Checked In"
glimpse tap "$medium" checkin >"$WORK/tap.txt" || { cat "$WORK/tap.txt"; fail "tap $medium checkin"; }
grep -qF "Checked In ✓" "$WORK/tap.txt" || { cat "$WORK/tap.txt"; fail "the tap's reload did not bring Checked In ✓"; }
check "tap $medium checkin: the medium widget shows Checked In ✓ (the entry the tap's reload brought)"
shows "$lock" "Checked In ✓" || fail "the Lock Screen widget did not follow the check-in"
check "the Lock Screen widget $lock follows: Checked In ✓"
glimpse tap "$medium" gate >"$WORK/tap.txt" || { cat "$WORK/tap.txt"; fail "tap $medium gate"; }
grep -qF "Cleared ⚡️" "$WORK/tap.txt" || { cat "$WORK/tap.txt"; fail "the gate tap did not bring Cleared ⚡️"; }
check "tap $medium gate: Cleared ⚡️"
shows "$lock" "Cleared ⚡️" || fail "the Lock Screen widget did not follow the gate"
check "the Lock Screen widget follows: Cleared ⚡️"
performed="$(glimpse events --kind intent_performed --json | grep -c '"intentPerformed"' || true)"
[ "$performed" -ge 2 ] || fail "the event log has $performed intent_performed events, not 2"
check "event log: $performed intent_performed"

# ---------------------------------------------------------------------------------------
phase pizza "Demos/pizza/push_server.py (aioapns over TLS, ES256 tokens) against 127.0.0.1:$GLIMPSE_PUBLISH_APNS_TLS"
podman exec "$(container glimpse-activity)" cat /var/lib/glimpse/activity/tls/ca.pem >"$WORK/stack/apns/ca.pem" \
    || fail "no CA in the apns-tls volume"
python3 - "$WORK/stack/apns/provider.json" <<PY
import json, sys
json.dump({"teamId": "GLIMPSEDEV", "keyId": "DEMOKEY001", "keyPath": "$WORK/keys/AuthKey_DEMOKEY001.p8",
           "tls": "127.0.0.1:$GLIMPSE_PUBLISH_APNS_TLS", "h2c": "127.0.0.1:$GLIMPSE_PUBLISH_APNS_H2C",
           "ca": "$WORK/stack/apns/ca.pem"}, open(sys.argv[1], "w"))
PY
check "the endpoint's CA from the apns-tls volume; the provider key in the keys bind mount (GLIMPSE_APNS_AUTH=jwt)"
activity_json() {
    glimpse activities --json | python3 -c '
import json, sys
for a in json.load(sys.stdin).get("activities", []):
    activity = a.get("activity", a)
    if activity.get("bundleId") == "com.you.pizza" and activity.get("state") == "ACTIVITY_STATE_ACTIVE":
        print(json.dumps(activity)); break'
}
before="$(activity_json)"
[ -n "$before" ] || fail "no active pizza Live Activity"
driver() { python3 -c 'import json,sys; print(json.loads(json.loads(sys.argv[1])["content"]["stateJson"])["driverName"])' "$1"; }
check "the pizza activity is on: driver $(driver "$before")"
python3 Demos/pizza/push_server.py --stack "$WORK/stack" --gateway "$GATEWAY" --steps 1-3 --interval 0 \
    >"$WORK/push.txt" 2>&1 || { cat "$WORK/push.txt"; fail "push_server.py --steps 1-3"; }
sed 's/^/  | /' "$WORK/push.txt"
[ "$(grep -c -- '-> 200' "$WORK/push.txt")" = 3 ] || fail "APNs did not answer 200 to each of the three pushes"
check "three pushes answered 200 by the APNs endpoint (baking, on the way, driver changed)"
deadline=$(( $(date +%s) + 10 ))
until [ "$(driver "$(activity_json)")" = John ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "the gateway does not show driver John: $(activity_json)"
    sleep 0.2
done
after="$(activity_json)"
check "the gateway's activity: driver $(driver "$after"), status $(python3 -c 'import json,sys; print(json.loads(json.loads(sys.argv[1])["content"]["stateJson"])["status"])' "$after")"
alert="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get("lastAlert", {}).get("title", ""))' "$after")"
[ "$alert" = "Driver changed" ] || fail "the last alert is '$alert', not 'Driver changed'"
check "last alert: Driver changed"
mode="$(glimpse show --json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("dynamicIsland", {}).get("mode", ""))')"
[ "$mode" = MODE_EXPANDED ] || fail "the Dynamic Island is $mode, not expanded after the alert"
check "the Dynamic Island is expanded for the alert"
glimpse render lock >"$WORK/lock.txt" || fail "render lock"
grep -qF "John is on the way!" "$WORK/lock.txt" || { cat "$WORK/lock.txt"; fail "the Lock Screen does not show John is on the way!"; }
check "the Lock Screen, drawn from demo-pizza's views (at demo-pizza:7714): John is on the way!"
glimpse render island --format layout | grep -qF "John is on his way!" || fail "the expanded island's layout lacks John is on his way!"
check "the expanded island's layout: John is on his way!"
applied="$(glimpse events --kind push_received --json | python3 -c '
import json, sys
events = [json.loads(l) for l in sys.stdin if l.strip()]
events = [e for line in events for e in line.get("events", [line])]
print(sum(1 for e in events if e.get("pushReceived", {}).get("outcomes", [{}])[0].get("kind") == "KIND_APPLIED"))')"
[ "$applied" -ge 3 ] || fail "$applied pushes applied in the event log, not 3"
check "event log: $applied push_received, applied"

# ---------------------------------------------------------------------------------------
phase outage "kill glimpse-timeline's container: the gateway keeps the screen; it comes back and catches up"
timeline="$(container glimpse-timeline)"
pixar="$(placement com.yourcompany.pixartracker PixarFilmWidget WIDGET_FAMILY_SYSTEM_SMALL)"
entry_before="$(glimpse show "$pixar" | grep '│')"
podman kill "$timeline" >/dev/null
check "podman kill $timeline"
deadline=$(( $(date +%s) + 15 ))
until glimpse show --json | grep -q '"glimpse-timeline"'; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "the gateway never said glimpse-timeline is unreachable"
    sleep 0.2
done
check "Device.Show answers and names glimpse-timeline unreachable"
glimpse show "$medium" >"$WORK/stale.txt" || fail "show $medium while glimpse-timeline is down"
grep -qF "Cleared ⚡️" "$WORK/stale.txt" || { cat "$WORK/stale.txt"; fail "the RTL Air widget lost its last entry"; }
glimpse show "$medium" --json | grep -q '"stale": *true' || fail "widget $medium is not marked stale"
check "widget $medium keeps its last entry (Cleared ⚡️), marked stale"
reachability() {
    glimpse events --kind service_reachability --json | python3 -c '
import json, sys
events = [json.loads(l) for l in sys.stdin if l.strip()]
events = [e for line in events for e in line.get("events", [line])]
print(" ".join("%s=%s" % (e["serviceReachability"].get("service"), e["serviceReachability"].get("reachable", False))
               for e in events if "serviceReachability" in e))'
}
reachability | grep -q "timeline=False" || fail "no service_reachability event for glimpse-timeline: $(reachability)"
check "event log: service_reachability, glimpse-timeline unreachable"

# Podman takes `podman kill` for a stop by the user, which unless-stopped leaves stopped
# (wait a little in case the engine restarts it anyway); docker-compose start brings it back.
deadline=$(( $(date +%s) + 5 ))
how="the restart policy"
until podman ps --filter "name=^${timeline}\$" --format '{{.Status}}' | grep -q '^Up'; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
        how="docker-compose start"
        compose start glimpse-timeline >/dev/null 2>&1 || fail "docker-compose start glimpse-timeline"
        break
    fi
    sleep 0.2
done
healthy "$timeline" || fail "glimpse-timeline did not come back healthy"
check "glimpse-timeline is back ($how) and healthy"
reconnected || fail "the gateway never reconnected to glimpse-timeline"
check "the gateway reconnected: no unreachable services"
glimpse show "$medium" --json | grep -q '"stale": *true' && fail "widget $medium is still stale"
check "widget $medium is current again (not stale)"

crash_and_recover glimpse-timeline
glimpse clock advance 15m >/dev/null || fail "clock advance 15m after the restart"
entry_after="$(glimpse show "$pixar" | grep '│')"
[ "$entry_before" != "$entry_after" ] || fail "Pixar's widget did not move to its next entry after the restart"
reachability | grep -q "timeline=True" || fail "no service_reachability event saying glimpse-timeline is back: $(reachability)"
check "event log: service_reachability $(reachability)"
check "caught up: clock advanced 15m through every service, Pixar widget $pixar shows its next entry"
glimpse reload "$medium" >/dev/null || fail "reload $medium after the restart"
check "reload of widget $medium answered"

# ---------------------------------------------------------------------------------------
phase contracts "glimpse contracts verify against each service"
if [ "${GLIMPSE_SMOKE_SKIP_CONTRACTS:-0}" = 1 ]; then
    say "contracts: skipped (GLIMPSE_SMOKE_SKIP_CONTRACTS=1)"
elif glimpse contracts verify --help >/dev/null 2>&1; then
    for pair in timeline:$GLIMPSE_PUBLISH_TIMELINE intent:$GLIMPSE_PUBLISH_INTENT activity:$GLIMPSE_PUBLISH_ACTIVITY asset:$GLIMPSE_PUBLISH_ASSET; do
        provider="${pair%%:*}" port="${pair##*:}"
        glimpse contracts verify --provider "$provider" --target "127.0.0.1:$port" >"$WORK/contracts.txt" 2>&1 \
            || { cat "$WORK/contracts.txt"; fail "contracts verify --provider $provider"; }
        check "contracts: $provider at 127.0.0.1:$port verified"
    done
else
    say "contracts: not built yet"
fi

source deploy/smoke-postgres.sh
end_phase
