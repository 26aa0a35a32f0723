#!/usr/bin/env bash
# The Kubernetes manifests (deploy/k8s) for real, as far as podman can run them here:
#
#   1. validate  every manifest against the Kubernetes schemas (kubernetes-validate, strict,
#                the oldest and the newest version it knows that has gRPC probes: 1.27, 1.37)
#   2. play      `podman kube play` of each file on one podman network, each pod reachable
#                by its Service's name (a network alias: what a Service's DNS name gives)
#   3. ready     every container answers grpc.health.v1 SERVING (the probes' own check)
#   4. setup     the demos pod's setup installed the five apps through glimpse-gateway:7700;
#                the home screen shows their widgets and the pizza Live Activity runs
#   5. restart   glimpse-timeline's process killed -9: podman restarts it (restartPolicy
#                Always), it reopens its volume, and the home screen is the one before
#   6. memory    each container's RSS, for the manifests' requests and limits
#   7. down      `podman kube down`, the volumes and the network removed
#
#   deploy/kube-smoke.sh            # as root, after deploy/smoke.sh (podman set up, image built)
#
# What podman 4.3 cannot run is left to the validation: Services (replaced by the aliases),
# the PodDisruptionBudget, gRPC probes (podman runs no probe of that kind), and Secret
# volumes (podman 4.3 fails on them): each Secret volume is played as a host folder holding
# the files the Secret would (the device key; the optional APNs ones empty).
# GLIMPSE_IMAGE (default localhost/glimpse:latest) is the image every pod runs.
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE="${GLIMPSE_IMAGE:-localhost/glimpse:latest}"
NETWORK="glimpse-kube-smoke"
WORK="$(mktemp -d /tmp/glimpse-kube-smoke.XXXXXX)"
PLAYED=()
source deploy/phases.sh

pods() { podman pod ps --format '{{.Name}}' 2>/dev/null | grep -E '^glimpse-[a-z]+-pod-0$' || true; }

show_logs() {
    say "--- pods"
    podman pod ps 2>/dev/null || true
    for name in $(for pod in $(pods); do podman ps -a --filter "pod=$pod" --format '{{.Names}}'; done | grep -v -- '-infra$'); do
        say "--- last logs of $name"
        podman logs --tail 20 "$name" 2>&1 | sed 's/^/  | /' || true
    done
}

cleanup() {
    local status=$?
    set +e
    end_phase
    [ "$status" != 0 ] && [ ${#PLAYED[@]} -gt 0 ] && show_logs >&2
    if [ ${#PLAYED[@]} -gt 0 ]; then
        say ""
        say "== down: podman kube down, volumes, network"
        for file in "${PLAYED[@]}"; do podman kube down "$file" >/dev/null 2>&1; done
        for claim in $(python3 - "$WORK/play" <<'PY'
import pathlib, sys, yaml
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.yaml")):
    for doc in yaml.safe_load_all(path.read_text()):
        if doc and doc["kind"] == "PersistentVolumeClaim":
            print(doc["metadata"]["name"])
PY
        ); do podman volume rm -f "$claim" >/dev/null 2>&1; done
        check "pods left: $(pods | wc -l)"
    fi
    podman network rm -f "$NETWORK" >/dev/null 2>&1
    rm -rf "$WORK"
    exit "$status"
}
trap cleanup EXIT

# -- 1. validate ----------------------------------------------------------------------------
phase validate "deploy/k8s against the Kubernetes schemas (kubernetes-validate --strict)"
command -v kubernetes-validate >/dev/null || python3 -m pip install -q --disable-pip-version-check kubernetes-validate
# Every manifest (kustomization.yaml is kustomize's own file, not a Kubernetes object).
manifests=()
for file in deploy/k8s/*.yaml; do [ "$(basename "$file")" = kustomization.yaml ] || manifests+=("$file"); done
for version in 1.27.0 1.37.0; do
    kubernetes-validate --strict --quiet -k "$version" "${manifests[@]}" || fail "a manifest is not valid Kubernetes $version"
    check "Kubernetes $version: ${#manifests[@]} files valid"
done

command -v podman >/dev/null || fail "podman is missing: deploy/smoke.sh installs and sets it up"
podman image exists "$IMAGE" || deploy/image.sh

# -- 2. play --------------------------------------------------------------------------------
phase play "podman kube play, one file at a time, on network $NETWORK"
podman network rm -f "$NETWORK" >/dev/null 2>&1 || true
podman network create "$NETWORK" >/dev/null
mkdir -p "$WORK/play" "$WORK/secrets/glimpse-device-key" "$WORK/secrets/glimpse-apns-keys" "$WORK/secrets/glimpse-apns-tls"
# The device key the glimpse-device-key Secret would hold, made by the image's own CLI.
podman run --rm --user 0 --network none -v "$WORK/secrets/glimpse-device-key:/out" "$IMAGE" \
    glimpse device-key /out/device-key >/dev/null
chmod 0755 "$WORK/secrets"/*
chmod 0444 "$WORK/secrets/glimpse-device-key/device-key"
check "a device key, as the glimpse-device-key Secret would mount it"

# Each playable file as podman 4.3 takes it: Secret volumes as host folders, the image set.
# Prints "file alias" for each file with a Service (the alias its pod gets on the network).
python3 - deploy/k8s "$WORK" "$IMAGE" >"$WORK/plays" <<'PY'
import pathlib, sys, yaml
source, work, image = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
# The demo apps first and the gateway last, as in compose: aardvark-dns on podman 4.3 was seen
# to stop answering a running container's lookups for a minute while containers started after
# it (docs/deploy.md), so the apps the services call are there before the services start,
# and the gateway resolves the services at once. setup retries until the gateway answers.
order = ["glimpse-demos", "glimpse-timeline", "glimpse-asset", "glimpse-intent", "glimpse-activity", "glimpse-gateway"]
def rank(path):
    return (order.index(path.stem) if path.stem in order else len(order), path.name)
for path in sorted(source.glob("*.yaml"), key=rank):
    docs = [d for d in yaml.safe_load_all(path.read_text()) if d]
    if not any(d["kind"] == "Deployment" for d in docs):
        continue
    service = next(d["metadata"]["name"] for d in docs if d["kind"] == "Service")
    for doc in docs:
        if doc["kind"] != "Deployment":
            continue
        pod = doc["spec"]["template"]["spec"]
        for volume in pod.get("volumes", []):
            if "secret" in volume:
                name = volume.pop("secret")["secretName"]
                volume["hostPath"] = {"path": f"{work}/secrets/{name}", "type": "Directory"}
        for container in pod["containers"]:
            container["image"] = image
    played = work / "play" / path.name
    played.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    print(played, service)
PY
while read -r file alias; do
    podman kube play --network "$NETWORK:alias=$alias" "$file" >"$WORK/play.log" 2>&1 || {
        cat "$WORK/play.log" >&2
        fail "podman kube play $(basename "$file")"
    }
    PLAYED+=("$file")
    check "$(basename "$file"): pod ${alias}-pod-0, reachable as $alias"
done <"$WORK/plays"

# -- 3. ready -------------------------------------------------------------------------------
phase ready "every container answers grpc.health.v1 SERVING (what the gRPC probes ask)"
# container, port: from the played files.
python3 - "$WORK/play" >"$WORK/probes" <<'PY'
import pathlib, sys, yaml
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.yaml")):
    for doc in yaml.safe_load_all(path.read_text()):
        if doc and doc["kind"] == "Deployment":
            for c in doc["spec"]["template"]["spec"]["containers"]:
                if "readinessProbe" in c:
                    print(f'{doc["metadata"]["name"]}-pod-0-{c["name"]} {c["readinessProbe"]["grpc"]["port"]}')
PY
deadline=$(($(date +%s) + 180))
while read -r name port; do
    until podman exec "$name" glimpse health --target "127.0.0.1:$port" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "$name is not SERVING on $port after 180 s"
        sleep 0.5
    done
    check "$name: SERVING on $port"
done <"$WORK/probes"

# -- 4. setup -------------------------------------------------------------------------------
phase setup "the demos pod's setup, then the device through the gateway's Service name"
SETUP="glimpse-demos-pod-0-setup"
deadline=$(($(date +%s) + 300))
until podman logs "$SETUP" 2>/dev/null | grep -q "^demo-setup: "; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "setup did not finish in 300 s"
    sleep 1
done
check "$(podman logs "$SETUP" 2>/dev/null | grep "^demo-setup: " | tail -n1)"
device() { podman exec "$SETUP" glimpse "$@" --json; }
# Each widget shows its provider's first entry once glimpse-timeline has called the app (a
# call that failed while the network's names were settling is retried by its schedule).
deadline=$(($(date +%s) + 120))
until device widgets >"$WORK/home.json" && python3 - "$WORK/home.json" <<'PY'
import json, sys
widgets = json.load(open(sys.argv[1]))["widgets"]
apps = sorted({w["bundleId"] for w in widgets})
waiting = [w["placementId"] for w in widgets if not w.get("entry", {}).get("view")]
assert len(widgets) >= 7 and len(apps) >= 4, widgets
if waiting:
    sys.exit(1)
print(f"  - {len(widgets)} widgets placed, of {len(apps)} apps, each showing an entry from its provider")
PY
do
    [ "$(date +%s)" -lt "$deadline" ] || fail "widgets without an entry after 120 s: $(cat "$WORK/home.json")"
    sleep 1
done
device activities >"$WORK/activities.json" || fail "activities list"
python3 - "$WORK/activities.json" <<'PY' || fail "the pizza Live Activity"
import json, sys
activities = json.load(open(sys.argv[1])).get("activities", [])
print(f"  - Live Activities: {len(activities)}")
assert activities, "no Live Activity"
PY

# -- 5. restart -----------------------------------------------------------------------------
phase restart "glimpse-timeline killed -9; restartPolicy Always brings it back on its volume"
TIMELINE="glimpse-timeline-pod-0-glimpse-timeline"
before="$(podman inspect --format '{{.RestartCount}}' "$TIMELINE")"
# The process, as a crash or the OOM killer would (`podman kill` would count as a stop by hand,
# which the restart policy leaves stopped).
kill -KILL "$(podman inspect --format '{{.State.Pid}}' "$TIMELINE")"
check "SIGKILL sent to its process (restarts so far: $before)"
deadline=$(($(date +%s) + 120))
until [ "$(podman inspect --format '{{.RestartCount}}' "$TIMELINE" 2>/dev/null)" != "$before" ] \
    && podman exec "$TIMELINE" glimpse health --target 127.0.0.1:7701 >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "glimpse-timeline did not come back in 120 s"
    sleep 0.5
done
check "restarted (restarts: $(podman inspect --format '{{.RestartCount}}' "$TIMELINE")), SERVING"
device widgets >"$WORK/home-after.json" || fail "glimpse widgets after the restart"
python3 - "$WORK/home.json" "$WORK/home-after.json" <<'PY' || fail "the widgets after the restart"
import json, sys
def placed(path):
    return [(w["placementId"], w["bundleId"], w["kind"], w["family"]) for w in json.load(open(path))["widgets"]]
before, after = placed(sys.argv[1]), placed(sys.argv[2])
print(f"  - the same {len(after)} placements after the restart (ids, apps, kinds, families)")
assert before == after, (before, after)
PY

# -- 6. memory ------------------------------------------------------------------------------
phase memory "resident memory of each container, idle after setup"
podman stats --no-stream --format '{{.Name}} {{.MemUsage}}' | grep -v -- '-infra ' | sort | sed 's/^/  - /'
end_phase
say ""
say "kube smoke: passed"
