"""Secrets and scopes (issue 28, point 8), through the real executables:

- device-scope calls at the gateway refuse an app token (PERMISSION_DENIED), reads too: an
  app reads no other app's push tokens, images, screen or events, on gRPC and JSON alike;
- every secret is 0600 in a 0700 folder: the services' and the gateway's stores (they hold
  the apps' tokens), the APNs endpoint's TLS key, the device key, demo-setup's token files;
- a stack with `--device-key` refuses device calls without the key (UNAUTHENTICATED), at the
  gateway and at each service, on gRPC and JSON; health stays open; apps keep their tokens;
  the gateway and the services pass the key on; the CLI, `glimpse demo-setup`, the seed demo
  apps and the pizza push server all work against it; a bad key file stops a service at once.
"""
import json
import os
import stat
import subprocess
import sys
import urllib.error
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from demo_apps import DEMOS, DemoApp
from glimpse_protos import glimpse_modules
from glimpse_stack import SERVICES, Stack, device_channel
from rtl_air import KIND, RTL, SMALL, _install, _shown, provider, stack  # noqa: F401 (fixtures)
from test_timeline_service import RPC_TIMEOUT, _bearer, _binary

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t, timeline_pb2_grpc  # noqa: E402
from test_intent_service import GROUP  # noqa: E402


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def refusal(call, request, **kwargs):
    with pytest.raises(grpc.RpcError) as refused:
        result = call(request, timeout=RPC_TIMEOUT, **kwargs)
        if hasattr(result, "__iter__") and not hasattr(result, "ListFields"):
            next(iter(result))  # a stream fails on its first read
    return refused.value.code(), refused.value.details()


def json_call(port, path, body=None, authorization=None):
    """POST /v1/<path> on the gateway's JSON face: (HTTP status, answer)."""
    headers = {"content-type": "application/json"}
    if authorization:
        headers["authorization"] = authorization
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/{path}", data=json.dumps(body or {}).encode(),
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=RPC_TIMEOUT) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def glimpse(*argv, env=None):
    return subprocess.run([_binary("glimpse"), *argv], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_device_scope_reads_refuse_an_app_token(stack, provider):
    token = _install(stack, provider).app_token
    small = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    reads = [
        (stack.apps.List, g.ListAppsRequest()),
        (stack.widgets.List, g.ListWidgetsRequest()),
        (stack.widgets.Get, g.GetWidgetRequest(placement_id=small.placement_id)),
        (stack.widgets.Timeline, g.GetWidgetRequest(placement_id=small.placement_id)),
        (stack.widgets.Budget, g.BudgetRequest(placement_id=small.placement_id)),
        (stack.device.Show, g.ShowRequest()),
        (stack.device.Render, g.RenderRequest(target=g.RenderRequest.TARGET_HOME_SCREEN, text=True)),
        (stack.device.GetSettings, g.GetSettingsRequest()),
        (stack.clock.Now, g.NowRequest()),
        (stack.activities.List, g.ListActivitiesRequest()),
        (stack.activities.Pushes, g.PushesRequest()),
        (stack.events.List, g.ListEventsRequest()),
        (stack.events.Follow, g.FollowEventsRequest()),
    ]
    for call, request in reads:
        code, details = refusal(call, request, metadata=_bearer(token))
        assert code == grpc.StatusCode.PERMISSION_DENIED, (request, code, details)
        assert "an app token does not reach it" in details
    assert refusal(stack.activities.Get, g.GetActivityRequest(activity_id="1"), metadata=_bearer(token))[0] \
        == grpc.StatusCode.PERMISSION_DENIED
    # The device reads them all; the app keeps its own app-scope calls.
    for call, request in reads[:-1]:
        call(request, timeout=RPC_TIMEOUT)
    stack.app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"), metadata=_bearer(token),
                        timeout=RPC_TIMEOUT)
    # The JSON face answers the same: 403 with the status, and 200 for the device.
    port = stack.ports["gateway"]
    status, answer = json_call(port, "device/show", authorization=f"Bearer {token}")
    assert (status, answer.get("status")) == (403, "PERMISSION_DENIED"), answer
    assert json_call(port, "events")[0] == 200


def test_secrets_are_0600_in_0700_folders(tmp_path):
    # One store left readable by all, as an older version wrote it.
    (tmp_path / "intent").mkdir(mode=0o755)
    (tmp_path / "intent" / "intent.sqlite").touch(mode=0o644)
    os.chmod(tmp_path / "intent" / "intent.sqlite", 0o644)
    stack = Stack(tmp_path, apns_tls=True)
    try:
        stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT)
        for service in (*SERVICES, "gateway"):
            folder = tmp_path / service
            if service != "intent":  # made by the service (the intent one existed, and keeps its mode)
                assert mode(folder) == 0o700, service
            for suffix in ("", "-wal", "-shm"):
                store = folder / f"{service}.sqlite{suffix}"
                if suffix == "" or store.exists():
                    assert mode(store) == 0o600, store
        tls = tmp_path / "activity" / "tls"
        assert mode(tls) == 0o700 and mode(tls / "server-key.pem") == 0o600
    finally:
        stack.stop()
    key = tmp_path / "keys" / "device-key"
    made = glimpse("device-key", str(key))
    assert made.returncode == 0, made.stderr
    assert mode(key.parent) == 0o700 and mode(key) == 0o600
    first = key.read_text()
    assert glimpse("device-key", str(key)).returncode == 0 and key.read_text() == first  # kept
    (tmp_path / "short").write_text("abc\n")
    assert glimpse("device-key", str(tmp_path / "short")).returncode == 1


def test_a_stack_with_a_device_key(tmp_path, provider):
    key_file = tmp_path / "device-key"
    assert glimpse("device-key", str(key_file)).returncode == 0
    key = key_file.read_text().strip()
    stack = Stack(tmp_path / "stack", device_key=key_file)
    try:
        # Through the gateway with the key: install (all four services), place (the provider
        # is called), tap (glimpse-intent asks glimpse-timeline for the reload): the gateway
        # and the services pass the key on.
        token = _install(stack, provider).app_token
        small = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
        tapped = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        assert _shown(tapped.widget) == ["RTL 001 SFO → JFK", "Checked in"]
        # The app's own calls carry its token, as without a key.
        stack.app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"), metadata=_bearer(token),
                            timeout=RPC_TIMEOUT)

        gateway = f"127.0.0.1:{stack.ports['gateway']}"
        for address in [gateway] + [f"127.0.0.1:{stack.ports[s]}" for s in SERVICES]:
            with grpc.insecure_channel(address) as bare:
                # Health stays open (healthchecks run without the key) ...
                assert health_pb2_grpc.HealthStub(bare).Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT).status \
                    == health_pb2.HealthCheckResponse.SERVING
        with grpc.insecure_channel(gateway) as bare:
            # ... device calls do not.
            code, details = refusal(gateway_pb2_grpc.ClockStub(bare).Now, g.NowRequest())
            assert code == grpc.StatusCode.UNAUTHENTICATED and "authorization: Device <key>" in details
        with device_channel(gateway, "x" * 32) as wrong:
            code, details = refusal(gateway_pb2_grpc.ClockStub(wrong).Now, g.NowRequest())
            assert code == grpc.StatusCode.UNAUTHENTICATED and "does not match" in details
        timeline = f"127.0.0.1:{stack.ports['timeline']}"
        with grpc.insecure_channel(timeline) as bare, device_channel(timeline, key) as keyed:
            assert refusal(timeline_pb2_grpc.TimelineServiceStub(bare).ListPlacements, t.ListPlacementsRequest())[0] \
                == grpc.StatusCode.UNAUTHENTICATED
            listed = timeline_pb2_grpc.TimelineServiceStub(keyed).ListPlacements(t.ListPlacementsRequest(),
                                                                               timeout=RPC_TIMEOUT)
            assert [p.placement_id for p in listed.placements] == [small.placement_id]

        # JSON: the key as a header.
        port = stack.ports["gateway"]
        assert json_call(port, "clock/now", authorization=f"Device {key}")[0] == 200
        status, answer = json_call(port, "clock/now")
        assert (status, answer.get("status")) == (401, "UNAUTHENTICATED"), answer
        # The CLI: --device-key, or GLIMPSE_DEVICE_KEY.
        assert glimpse("widgets", "--gateway", gateway, "--device-key", str(key_file)).returncode == 0
        assert glimpse("clock", "now", "--gateway", gateway, env={"GLIMPSE_DEVICE_KEY": str(key_file)}).returncode == 0
        refused = glimpse("clock", "now", "--gateway", gateway, env={"GLIMPSE_DEVICE_KEY": ""})
        assert refused.returncode == 1 and "UNAUTHENTICATED" in refused.stderr, refused.stderr
    finally:
        codes = stack.stop()
    assert set(codes.values()) == {0}, codes

    # A key file that cannot be read, or holds no key, stops a service at once and says why.
    (tmp_path / "short").write_text("abc\n")
    for path, says in ((tmp_path / "missing", "cannot read"), (tmp_path / "short", "holds no device key")):
        failed = subprocess.run([_binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / "t"),
                                 "--device-key", str(path)], capture_output=True, text=True, timeout=60)
        assert failed.returncode != 0 and "--device-key: " in failed.stderr and says in failed.stderr, failed.stderr


def test_demo_setup_and_the_pizza_push_server_against_a_keyed_stack(tmp_path):
    key_file = tmp_path / "device-key"
    assert glimpse("device-key", str(key_file)).returncode == 0
    stack = Stack(tmp_path / "stack", apns_tls=True, device_key=key_file)
    tokens = tmp_path / "tokens"
    apps = []
    try:
        gateway = f"127.0.0.1:{stack.ports['gateway']}"
        for name in ("pixar", "movieplanner", "steps", "rtlair", "pizza"):
            apps.append(DemoApp(name, stack, argv=[
                _binary("glimpse-demo"), name, "--port", "0", "--gateway", gateway,
                "--token-file", str(tokens / f"{name}.token")]))
        env = {"GLIMPSE_DEVICE_KEY": str(key_file)}
        setup = glimpse("demo-setup", "--gateway", gateway, "--tokens", str(tokens),
                        "--demos", str(DEMOS / "device.json"), *[f"--app={app.name}={app.endpoint}" for app in apps],
                        env=env)
        assert setup.returncode == 0, setup.stdout + setup.stderr
        assert mode(tokens) == 0o700
        assert sorted(p.name for p in tokens.iterdir()) == sorted(f"{app.name}.token" for app in apps)
        assert {mode(p) for p in tokens.iterdir()} == {0o600}
        # RTL Air's Check In runs its app's intent (an App Group write through the gateway
        # with the app's token) and the widget reloads.
        widgets = json.loads(glimpse("widgets", "--gateway", gateway, "--json", env=env).stdout)["widgets"]
        medium = next(w["placementId"] for w in widgets if w["bundleId"] == "net.insoc.rtlair"
                      and w["family"] == "WIDGET_FAMILY_SYSTEM_MEDIUM")
        tapped = glimpse("tap", medium, "checkin", "--gateway", gateway, env=env)
        assert tapped.returncode == 0 and "Checked In" in tapped.stdout, tapped.stdout + tapped.stderr
        # The pizza push server reads the device (token, clock) with the key, pushes over TLS.
        pushed = subprocess.run(
            [sys.executable, str(DEMOS / "pizza" / "push_server.py"), "--gateway", gateway, "--stack", str(tmp_path),
             "--apns", f"127.0.0.1:{stack.ports['apns-tls']}", "--ca", stack.ca, "--interval", "0", "--steps", "1-3"],
            capture_output=True, text=True, timeout=60, env={**os.environ, **env})
        assert pushed.returncode == 0 and pushed.stdout.count("-> 200") == 3, pushed.stdout + pushed.stderr
    finally:
        for app in apps:
            app.stop()
        stack.stop()


def test_the_device_key_holds_with_a_metrics_port(tmp_path):
    """A service given both --metrics-port and --device-key still refuses device calls without
    the key: the metered transport is inside the gate, not beside it (it was beside it, and
    a metrics port opened every device call to anyone)."""
    key_file = tmp_path / "device-key"
    assert glimpse("device-key", str(key_file)).returncode == 0
    key = key_file.read_text().strip()
    process = subprocess.Popen([_binary("glimpse-timeline"), "--port", "0", "--metrics-port", "0", "--data-dir",
                                str(tmp_path / "t"), "--clock", "manual", "--device-key", str(key_file)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("listening on port "), line
        metrics = process.stdout.readline()
        assert metrics.startswith("metrics on port "), metrics
        address = f"127.0.0.1:{int(line.split()[-1])}"
        with grpc.insecure_channel(address) as bare, device_channel(address, key) as keyed:
            code, details = refusal(timeline_pb2_grpc.TimelineServiceStub(bare).ListPlacements,
                                    t.ListPlacementsRequest())
            assert code == grpc.StatusCode.UNAUTHENTICATED, details
            timeline_pb2_grpc.TimelineServiceStub(keyed).ListPlacements(t.ListPlacementsRequest(), timeout=RPC_TIMEOUT)
        # Both calls were counted: the meter sees the calls the gate refuses too.
        scraped = urllib.request.urlopen(f"http://127.0.0.1:{int(metrics.split()[-1])}/metrics",
                                         timeout=30).read().decode()
        handled = [line for line in scraped.splitlines()
                   if line.startswith("grpc_server_handled_total") and '"ListPlacements"' in line]
        assert len(handled) == 1 and handled[0].split()[-1] == "2", handled
    finally:
        process.terminate()
        process.wait(timeout=60)
