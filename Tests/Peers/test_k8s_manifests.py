"""deploy/k8s: valid Kubernetes (the stock schemas, through kubernetes-validate), and a
deployment that holds together — every address a container calls is a Service of the
directory on the right port, every probe asks the port the process listens on, every
volume has its claim or its Secret is one the docs say to create, and each service gets the
same settings as in deploy/compose.yaml. deploy/kube-smoke.sh runs the manifests with podman."""

import pathlib
import re
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
# The manifests (kustomization.yaml is kustomize's file, not a Kubernetes object).
FILES = sorted(path for path in K8S.glob("*.yaml") if path.name != "kustomization.yaml")
# The Secrets docs/deploy.md tells an operator to create (none of them is in git).
SECRETS = {"glimpse-device-key", "glimpse-apns-keys", "glimpse-apns-tls"}


def documents():
    for path in FILES:
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                yield path.name, doc


def of_kind(kind):
    return [(name, doc) for name, doc in documents() if doc["kind"] == kind]


def services():
    """Service name → its ports."""
    return {doc["metadata"]["name"]: {p["port"] for p in doc["spec"]["ports"]} for _, doc in of_kind("Service")}


def containers():
    for name, doc in of_kind("Deployment"):
        for container in doc["spec"]["template"]["spec"]["containers"]:
            yield name, doc, container


def env(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


@pytest.mark.parametrize("version", ["1.27.0", "1.37.0"])
def test_every_manifest_is_valid_kubernetes(version):
    assert FILES, "no manifest in deploy/k8s"
    run = subprocess.run(
        ["python3", "-m", "kubernetes_validate", "--strict", "--quiet", "-k", version, *map(str, FILES)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_kustomization_names_every_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    manifests = {path.name for path in FILES}
    assert set(kustomization["resources"]) == manifests


def test_a_manifest_with_a_wrong_field_is_refused():
    # The validation above can fail: a probe with a misspelt field is not Kubernetes.
    bad = (K8S / "glimpse-timeline.yaml").read_text().replace("periodSeconds: 5,", "periodSecond: 5,", 1)
    assert bad != (K8S / "glimpse-timeline.yaml").read_text()
    run = subprocess.run(
        ["python3", "-m", "kubernetes_validate", "--strict", "--quiet", "-"],
        input=bad,
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0


def test_every_address_a_container_calls_is_a_service_of_the_directory():
    known = services()
    calls = 0
    for file, _, container in containers():
        for key, value in env(container).items():
            if key.endswith("_ADDRESS") or key == "GLIMPSE_GATEWAY":
                host, port = value.rsplit(":", 1)
                assert host in known, f"{file}: {container['name']} {key}={value}: no Service {host}"
                assert int(port) in known[host], f"{file}: {key}={value}: {host} has ports {known[host]}"
                calls += 1
        for argument in container.get("command", []):
            for host, port in re.findall(r"=([a-z-]+):(\d+)\b", argument):
                assert host in known and int(port) in known[host], f"{file}: {container['name']}: {host}:{port}"
                calls += 1
    assert calls >= 10


def test_probes_ask_the_port_the_process_listens_on_and_services_select_their_pods():
    known = services()
    selected = {
        doc["metadata"]["name"]: doc["spec"]["selector"] for _, doc in of_kind("Service")
    }
    probed = 0
    for file, deployment, container in containers():
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items(), file
        assert labels.get("app.kubernetes.io/part-of") == "glimpse", file
        assert any(selector.items() <= labels.items() for selector in selected.values()), f"{file}: no Service"
        if "readinessProbe" not in container:
            continue
        listens = int(env(container)["GLIMPSE_PORT"])
        assert {p["containerPort"] for p in container["ports"]} >= {listens}, file
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            if probe in container:
                assert container[probe]["grpc"]["port"] == listens, f"{file}: {container['name']} {probe}"
                probed += 1
        assert any(listens in ports for ports in known.values()), f"{file}: port {listens} behind no Service"
        assert container["resources"]["limits"]["memory"], file
    assert probed >= 15


def test_every_volume_has_its_claim_or_a_documented_secret():
    claims = {doc["metadata"]["name"] for _, doc in of_kind("PersistentVolumeClaim")}
    docs = (ROOT / "docs" / "deploy.md").read_text()
    for file, deployment in of_kind("Deployment"):
        pod = deployment["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True, file
        assert pod["enableServiceLinks"] is False, file
        for volume in pod["volumes"]:
            if "persistentVolumeClaim" in volume:
                assert volume["persistentVolumeClaim"]["claimName"] in claims, file
            else:
                secret = volume["secret"]["secretName"]
                assert secret in SECRETS, f"{file}: Secret {secret}"
                assert secret in docs, f"docs/deploy.md does not say how to create {secret}"


def test_each_service_gets_the_settings_compose_gives_it():
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())["services"]
    compared = 0
    for _, _, container in containers():
        name = container["name"]
        if name not in compose:
            continue
        wanted = {key for key in compose[name].get("environment", {})}
        assert wanted <= set(env(container)), f"{name}: compose sets {sorted(wanted - set(env(container)))} too"
        compared += 1
    assert compared == 11
