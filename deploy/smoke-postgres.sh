# The deploy smoke's last phase (sourced by deploy/smoke.sh, with its helpers and the stack
# it brought up): the same stack again with the four services' journals in PostgreSQL.
# ---------------------------------------------------------------------------------------
phase postgres "the same stack with the four journals in PostgreSQL (compose.postgres.yaml)"
compose down -v --remove-orphans >"$WORK/down.log" 2>&1 || { cat "$WORK/down.log"; fail "docker-compose down -v"; }
check "the SQLite stack is down, its volumes removed"
COMPOSE_FILES+=(-f deploy/compose.postgres.yaml)
COMPOSE=(env "DOCKER_HOST=unix://$SOCKET" docker-compose -p "$PROJECT" "${COMPOSE_FILES[@]}")
GLIMPSE_POSTGRES_PASSWORD="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
export GLIMPSE_POSTGRES_PASSWORD
start_health_driver
if ! timeout 300 "${COMPOSE[@]}" up -d >"$WORK/up.log" 2>&1; then
    cat "$WORK/up.log"
    fail "docker-compose up -d with compose.postgres.yaml"
fi
containers_healthy postgres "${LONG_RUNNING[@]}"
check "postgres and the 10 containers healthy"
setup="$(container setup)"
code="$(timeout 120 podman wait "$setup")" || fail "setup did not finish within 120 s"
[ "$code" = 0 ] || { podman logs "$setup" 2>&1 | tail -n 20; fail "setup exited $code"; }
stop_health_driver
podman exec "$(container glimpse-gateway)" cat /var/lib/glimpse/keys/device-key >"$WORK/device-key" \
    || fail "no device key in the keys volume"
check "setup: apps installed, widgets placed (exit 0)"
count="$(glimpse widgets --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin).get("widgets", [])))')"
[ "$count" = 7 ] || fail "$count widgets placed, not 7"
medium="$(placement net.insoc.rtlair MediumWidget WIDGET_FAMILY_SYSTEM_MEDIUM)"
shows "$medium" "Not Checked In" || fail "widget $medium does not show Not Checked In"
glimpse tap "$medium" checkin >"$WORK/tap.txt" || { cat "$WORK/tap.txt"; fail "tap $medium checkin"; }
grep -qF "Checked In ✓" "$WORK/tap.txt" || { cat "$WORK/tap.txt"; fail "the tap's reload did not bring Checked In ✓"; }
check "7 widgets; tap $medium checkin: Checked In ✓"
postgres="$(container postgres)"
rows() {
    # Over TCP, so the official image (its socket elsewhere) answers the same.
    podman exec -e PGPASSWORD="$GLIMPSE_POSTGRES_PASSWORD" "$postgres" \
        psql -h 127.0.0.1 -U glimpse -d glimpse -tAc "SELECT count(*) FROM glimpse_$1_journal" 2>&1
}
for service in timeline intent activity asset; do
    n="$(rows "$service")"
    [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] || fail "glimpse_${service}_journal in PostgreSQL: $n"
    sqlite="$(podman exec "$(container "glimpse-$service")" sh -c "ls /var/lib/glimpse/$service/*.sqlite 2>/dev/null" || true)"
    [ -z "$sqlite" ] || fail "glimpse-$service wrote SQLite: $sqlite"
    check "glimpse-$service: $n journal rows in PostgreSQL, no SQLite file"
done
crash_and_recover glimpse-timeline
timeline="$(container glimpse-timeline)"
podman logs "$timeline" 2>&1 | grep -q "timeline store: " || fail "glimpse-timeline logged no store opening"
glimpse reload "$medium" >/dev/null || fail "reload $medium after the restart"
shows "$medium" "Checked In ✓" || fail "widget $medium lost its entry after the restart"
check "glimpse-timeline killed -9, back on its journal in PostgreSQL: widget $medium reloads, Checked In ✓"

