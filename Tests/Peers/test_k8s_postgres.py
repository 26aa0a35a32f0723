"""deploy/k8s-postgres: deploy/k8s with the journals of glimpse-timeline, -intent and -activity in
PostgreSQL, each an active replica and a standby. Rendered by kustomize (`kubectl kustomize`),
then: valid Kubernetes, and a deployment that holds together — the store's address is the
PostgreSQL Service, only the active is ready while a standby stays alive, no pod is under two
disruption budgets, and every Secret is one docs/deploy.md says to create. The standby's health
itself is tested against real replicas in test_postgres_store.py."""

import pathlib
import shutil
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
OVERLAY = ROOT / "deploy" / "k8s-postgres"
REPLICATED = {"glimpse-timeline", "glimpse-intent", "glimpse-activity"}
SECRETS = {"glimpse-device-key", "glimpse-apns-keys", "glimpse-apns-tls", "glimpse-postgres"}

pytestmark = pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl (its kustomize) is not installed")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    run = subprocess.run(["kubectl", "kustomize", str(OVERLAY)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    path = tmp_path_factory.mktemp("k8s-postgres") / "rendered.yaml"
    path.write_text(run.stdout)
    return path, [doc for doc in yaml.safe_load_all(run.stdout) if doc]


def _of_kind(docs, kind):
    return {doc["metadata"]["name"]: doc for doc in docs if doc["kind"] == kind}


def _env(container):
    return [(e["name"], e.get("value"), e.get("valueFrom")) for e in container.get("env", [])]


def _selects(selector, labels):
    for key, value in (selector.get("matchLabels") or {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions") or []:
        key, operator, values = expression["key"], expression["operator"], expression.get("values", [])
        if operator == "In" and labels.get(key) not in values:
            return False
        if operator == "NotIn" and key in labels and labels[key] in values:
            return False
        if operator == "Exists" and key not in labels:
            return False
        if operator == "DoesNotExist" and key in labels:
            return False
    return True


@pytest.mark.parametrize("version", ["1.27.0", "1.37.0"])
def test_the_rendered_overlay_is_valid_kubernetes(rendered, version):
    path, _ = rendered
    run = subprocess.run(["python3", "-m", "kubernetes_validate", "--strict", "--quiet", "-k", version, str(path)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_each_replicated_service_keeps_its_journal_in_the_postgresql_service(rendered):
    _, docs = rendered
    services = _of_kind(docs, "Service")
    postgres = _of_kind(docs, "StatefulSet")["glimpse-postgres"]
    assert services["glimpse-postgres"]["spec"]["selector"].items() <= \
        postgres["spec"]["template"]["metadata"]["labels"].items()
    assert {p["port"] for p in services["glimpse-postgres"]["spec"]["ports"]} == {5432}
    assert postgres["spec"]["volumeClaimTemplates"], "PostgreSQL has no volume of its own"
    deployments = _of_kind(docs, "Deployment")
    claims = set(_of_kind(docs, "PersistentVolumeClaim"))
    for name in REPLICATED:
        deployment = deployments[name]
        assert deployment["spec"]["replicas"] >= 2, name
        assert deployment["spec"]["strategy"]["type"] == "RollingUpdate", name
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        names = [n for n, _, _ in _env(container)]
        assert len(names) == len(set(names)), f"{name}: a setting given twice"
        values = {n: (v, f) for n, v, f in _env(container)}
        store, _ = values["GLIMPSE_STORE"]
        assert store.startswith("postgres://glimpse:$(GLIMPSE_POSTGRES_PASSWORD)@glimpse-postgres:5432/"), store
        # Kubernetes expands $(VAR) only from a variable defined before it.
        assert names.index("GLIMPSE_POSTGRES_PASSWORD") < names.index("GLIMPSE_STORE"), name
        assert values["GLIMPSE_POSTGRES_PASSWORD"][1]["secretKeyRef"]["name"] == "glimpse-postgres"
        # Its data directory outlives nothing: no claim (one claim cannot be mounted by two pods on two nodes).
        volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
        assert "emptyDir" in volumes["data"] and "persistentVolumeClaim" not in volumes["data"], name
        assert f"{name}-data" not in claims, f"{name}-data is still claimed"
    assert {"glimpse-asset-data", "glimpse-gateway-data"} <= claims
    # The APNs endpoint's certificate is the same on every replica: the Secret, required.
    (activity,) = deployments["glimpse-activity"]["spec"]["template"]["spec"]["containers"]
    values = {n: v for n, v, _ in _env(activity)}
    assert values["GLIMPSE_APNS_CERTIFICATE"] == "/etc/glimpse/apns-tls/tls.crt"
    tls = [v for v in deployments["glimpse-activity"]["spec"]["template"]["spec"]["volumes"] if v["name"] == "apns-tls"]
    assert tls[0]["secret"]["optional"] is False


def test_only_the_active_is_ready_and_a_standby_stays_alive(rendered):
    # A standby answers "liveness" SERVING and the server ("") NOT_SERVING (test_postgres_store.py).
    _, docs = rendered
    for name in REPLICATED:
        deployment = _of_kind(docs, "Deployment")[name]
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        port = int(dict((n, v) for n, v, _ in _env(container))["GLIMPSE_PORT"])
        assert container["readinessProbe"]["grpc"] == {"port": port, "service": ""}, name
        assert container["livenessProbe"]["grpc"] == {"port": port, "service": "liveness"}, name
        assert container["startupProbe"]["grpc"] == {"port": port, "service": "liveness"}, name
        # A rolling update may not wait for a new pod to be ready before stopping an old one:
        # a new pod is a standby until the old active has gone.
        assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == "100%", name


def test_every_pod_is_under_exactly_one_disruption_budget(rendered):
    _, docs = rendered
    budgets = _of_kind(docs, "PodDisruptionBudget")
    pods = {**_of_kind(docs, "Deployment"), **_of_kind(docs, "StatefulSet")}
    assert len(pods) >= 7
    for name, workload in pods.items():
        labels = workload["spec"]["template"]["metadata"]["labels"]
        covering = [b for b, budget in budgets.items() if _selects(budget["spec"]["selector"], labels)]
        assert len(covering) == 1, f"{name} is under {covering}: Kubernetes refuses to evict a pod under two"
        if name in REPLICATED:
            # Its standby is never ready: evicting it is always allowed, and so is the ready active.
            assert budgets[covering[0]]["spec"]["unhealthyPodEvictionPolicy"] == "AlwaysAllow", name


def test_every_secret_is_one_the_docs_say_to_create(rendered):
    _, docs = rendered
    manual = (ROOT / "docs" / "deploy.md").read_text()
    seen = set()
    for doc in docs:
        if doc["kind"] not in ("Deployment", "StatefulSet"):
            continue
        pod = doc["spec"]["template"]["spec"]
        for volume in pod.get("volumes", []):
            if "secret" in volume:
                seen.add(volume["secret"]["secretName"])
        for container in pod["containers"]:
            for _, _, source in _env(container):
                if source and "secretKeyRef" in source:
                    seen.add(source["secretKeyRef"]["name"])
    assert "glimpse-postgres" in seen
    assert seen <= SECRETS, seen - SECRETS
    for secret in seen:
        assert secret in manual, f"docs/deploy.md does not say how to create {secret}"
