"""Secrets and scopes (issue 28, point 8), through the real executables:

- device-scope calls at the gateway refuse an app token (PERMISSION_DENIED), reads too: an
  app reads no other app's push tokens, images, screen or events, on gRPC and JSON alike;
- every secret is 0600 in a 0700 folder: the services' and the gateway's stores (they hold
  the apps' tokens), the APNs endpoint's TLS key.
"""
import json
import os
import stat
import urllib.error
import urllib.request

import grpc
import pytest

from glimpse_protos import glimpse_modules
from glimpse_stack import SERVICES, Stack
from rtl_air import KIND, RTL, SMALL, _install, provider, stack  # noqa: F401 (fixtures)
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
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
