"""The scripting surface of glimpse-gateway: the `glimpse` CLI and curl (JSON over HTTP/1.1
and h2c) each drive the Ride the Lightning Air flow.
"""


from glimpse_protos import glimpse_modules
from rtl_air import KIND, RTL, _wait_shows, provider, rtl_manifest, stack  # noqa: F401 (fixtures)
from test_timeline_service import RPC_TIMEOUT

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402


def _cli(stack, *args, check=True):
    """The `glimpse` CLI against the stack's gateway; returns (exit code, stdout, stderr)."""
    import subprocess
    from test_timeline_service import _binary
    env = {"GLIMPSE_GATEWAY": f"127.0.0.1:{stack.ports['gateway']}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([_binary("glimpse"), *args], capture_output=True, text=True, env=env, timeout=60)
    if check:
        assert done.returncode == 0, f"glimpse {' '.join(args)}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.returncode, done.stdout, done.stderr


def test_the_cli_drives_the_ride_the_lightning_air_flow(stack, provider, tmp_path):
    import json
    from google.protobuf import json_format
    manifest = tmp_path / "app.json"
    manifest.write_text(json_format.MessageToJson(rtl_manifest(f"127.0.0.1:{provider.port}")))
    code, token, _ = _cli(stack, "install", str(manifest))
    provider.app_group, provider.token = stack.app_group, token.strip()
    _, placed, _ = _cli(stack, "place", RTL, KIND, "--family", "systemSmall", "--json")
    small = json.loads(placed)
    _, placed, _ = _cli(stack, "place", RTL, KIND, "--family", "accessoryRectangular", "--json")
    lock = json.loads(placed)
    assert lock["location"]["screen"] == "SCREEN_LOCK"

    _, shown, _ = _cli(stack, "show", small["placementId"])
    assert "Not checked in" in shown and "[Check In]" in shown
    _, tapped, _ = _cli(stack, "tap", small["placementId"], "checkin")
    assert "Checked in" in tapped and "[Gate M72]" in tapped
    _wait_shows(stack, int(lock["placementId"]), "Checked in")
    _, advanced, _ = _cli(stack, "clock", "advance", "6h", "--json")
    assert json.loads(advanced)["now"] == "2026-01-01T15:00:00Z"
    _, tapped, _ = _cli(stack, "tap", lock["placementId"], "gate")
    assert "Cleared ⚡️" in tapped

    _, events, _ = _cli(stack, "events", "--json", "--kind", "intent_performed")
    lines = [json.loads(line) for line in events.splitlines() if line.strip()]
    assert [e["intentPerformed"]["intentType"] for e in lines] == ["CheckInIntent", "ConfirmGateIntent"]
    # Exit codes: the gateway's refusal is 1, a usage error 2.
    code, _, err = _cli(stack, "tap", "999", check=False)
    assert code == 1 and "NOT_FOUND" in err
    code, _, _ = _cli(stack, "place", RTL, KIND, "--family", "systemHuge", check=False)
    assert code == 2


def _curl(stack, path, body="", http2=False):
    """curl -d against the gateway's JSON face; returns (HTTP status, parsed body)."""
    import json
    import subprocess
    argv = ["curl", "-s", "-w", "\n%{http_code}", "-d", body, f"http://127.0.0.1:{stack.ports['gateway']}{path}"]
    if http2:
        argv.insert(1, "--http2-prior-knowledge")
    out = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=True).stdout
    text, status = out.rsplit("\n", 1)
    return int(status), json.loads(text)


def test_curl_drives_a_flow_over_http1_and_http2(stack, provider):
    import json
    from google.protobuf import json_format
    manifest = json_format.MessageToDict(rtl_manifest(f"127.0.0.1:{provider.port}"))
    status, installed = _curl(stack, "/v1/apps/install", json.dumps({"manifest": manifest}))
    assert status == 200, installed
    provider.app_group, provider.token = stack.app_group, installed["appToken"]
    status, small = _curl(stack, "/v1/widgets/place",
                          json.dumps({"bundleId": RTL, "kind": KIND, "family": "WIDGET_FAMILY_SYSTEM_SMALL"}))
    assert status == 200 and small["elements"][0]["id"] == "checkin"
    # proto3 JSON: original field names are accepted too; uint64 travels as a string.
    status, tapped = _curl(stack, "/v1/widgets/tap", json.dumps({"placement_id": small["placementId"], "element": "checkin"}),
                           http2=True)
    assert status == 200 and "performed" in tapped["performed"], tapped
    assert "Checked in" in json.dumps(tapped["widget"]["entry"], ensure_ascii=False)
    status, now = _curl(stack, "/v1/clock/now")
    assert status == 200 and now == {"now": "2026-01-01T09:00:00Z", "manual": True, "frozen": True}
    status, advanced = _curl(stack, "/v1/clock/advance", json.dumps({"by": "3600s"}), http2=True)
    assert status == 200 and advanced["now"] == "2026-01-01T10:00:00Z"
    status, events = _curl(stack, "/v1/events", json.dumps({"kinds": ["intent_performed"]}))
    assert status == 200 and len(events["events"]) == 1
    # Errors: the HTTP status of the gRPC code, and a JSON body with both.
    status, error = _curl(stack, "/v1/widgets/tap", json.dumps({"placementId": "999"}))
    assert status == 404 and error["status"] == "NOT_FOUND" and error["code"] == 5
    status, error = _curl(stack, "/v1/widgets/tap", '{"placementId": "not a number"}')
    assert status == 400 and error["status"] == "INVALID_ARGUMENT" and "placementId" in error["message"]
    status, error = _curl(stack, "/v1/clock/advance", json.dumps({"by": "-5s"}))
    assert status == 400
