"""`glimpse fleet` (issue 34, point 2) against a real stack: devices made from a template,
driven through a day on their manual clocks, the load measured, the devices deleted.

- what the fleet reports as provider calls is what the provider saw: a Python grpcio
  provider counts the Timeline calls it answered after the devices' start instant, and the
  fleet's count, read from the devices' event logs, is the same number;
- every device went through every step; the default device saw nothing of the fleet; the
  devices are gone afterwards (`--keep` leaves them, and a second run replaces them);
- `--push-paths`: each Live Activity's /3/device/<token>; a push to one through the APNs
  endpoint changes that device's activity, as a team's push server would;
- a stack on the system clock is refused before anything is made.
"""
import json
import subprocess
import threading
from concurrent import futures

import grpc
from google.protobuf import json_format

from demo_apps import DEMOS, DemoApp
from glimpse_protos import glimpse_modules
from glimpse_stack import START_TIME, Stack
from pixar_provider import PixarProvider
from test_timeline_service import RPC_TIMEOUT, _binary, _manifest

glimpse_modules()
from glimpse.app.v1 import provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2  # noqa: E402

BUNDLE = "com.example.fleet"
KIND = "PixarFilmWidget"


class CountingProvider(PixarProvider):
    """The Python provider, noting the device instant of every Timeline call it answers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.instants = []

    def Timeline(self, request, context):
        with self.lock:
            self.instants.append(request.now.seconds)
        return super().Timeline(request, context)


def _provider():
    provider = CountingProvider()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return provider, server, port


def _template(tmp_path, port):
    """One app, two widgets (medium and small) on the Python provider."""
    manifest = _manifest(BUNDLE, KIND, [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL, family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM],
                         f"127.0.0.1:{port}")
    (tmp_path / "app.json").write_text(json_format.MessageToJson(manifest))
    template = {"apps": [{"name": "films", "port": port, "manifest": "app.json", "widgets": [
        {"kind": KIND, "family": "WIDGET_FAMILY_SYSTEM_MEDIUM"},
        {"kind": KIND, "family": "WIDGET_FAMILY_SYSTEM_SMALL"},
    ]}]}
    path = tmp_path / "template.json"
    path.write_text(json.dumps(template))
    return path


def _fleet(stack, *args):
    run = subprocess.run([_binary("glimpse"), "fleet", "--gateway", f"127.0.0.1:{stack.ports['gateway']}", *args],
                         capture_output=True, text=True, timeout=600, env={"PATH": "/usr/bin:/bin"})
    return run


def _report(run):
    assert run.returncode == 0, run
    return json.loads(run.stdout.strip().splitlines()[-1])


def _devices(stack):
    listed = gateway_pb2_grpc.DevicesStub(stack.channel).List(g.ListDevicesRequest(), timeout=RPC_TIMEOUT)
    return [device.device_id for device in listed.devices]


def _start_seconds():
    import datetime
    return int(datetime.datetime.fromisoformat(START_TIME.replace("Z", "+00:00")).timestamp())


def test_the_fleet_reports_the_provider_calls_the_provider_saw(tmp_path):
    provider, server, port = _provider()
    stack = Stack(tmp_path / "stack")
    try:
        template = _template(tmp_path, port)
        report = _report(_fleet(stack, "--devices", "3", "--template", str(template), "--day", "6h", "--step", "30m",
                                "--concurrency", "2", "--prefix", "ci", "--json"))
        assert report["devices"] == 3 and report["steps"] == 12
        assert report["advances"] == 36 and report["failedAdvances"] == 0, report
        after_start = sum(1 for instant in provider.instants if instant > _start_seconds())
        # Each widget's timeline ends an hour after it was asked for: six reloads a day of 6 h.
        assert after_start >= 3 * 2 * 5, (after_start, report)
        assert report["providerAnswered"] == after_start, (report, provider.instants)
        assert report["providerFailed"] == 0
        # The placements' first timelines, at the start instant, came before the day.
        assert len(provider.instants) - after_start == 3 * 2
        assert _devices(stack) == ["default"]
        placed = stack.events.List(g.ListEventsRequest(kinds=["widget_placed"]), timeout=RPC_TIMEOUT).events
        assert list(placed) == [], "the default device saw the fleet's placements"
    finally:
        stack.stop()
        server.stop(grace=None)


def test_keep_leaves_the_devices_and_a_second_run_replaces_them(tmp_path):
    provider, server, port = _provider()
    stack = Stack(tmp_path / "stack")
    try:
        template = _template(tmp_path, port)
        args = ["--devices", "2", "--template", str(template), "--day", "1h", "--step", "30m", "--json"]
        kept = _report(_fleet(stack, *args, "--keep"))
        assert "deleteSeconds" not in kept
        assert _devices(stack) == ["default", "fleet-00001", "fleet-00002"]
        again = _report(_fleet(stack, *args))
        assert again["advances"] == 4 and again["failedAdvances"] == 0
        assert _devices(stack) == ["default"]
    finally:
        stack.stop()
        server.stop(grace=None)


def test_push_paths_reach_each_devices_live_activity(tmp_path):
    stack = Stack(tmp_path / "stack")
    pizza = DemoApp("pizza", stack)
    try:
        template = _pizza_template(tmp_path)
        paths = tmp_path / "paths.txt"
        report = _report(_fleet(stack, "--devices", "2", "--template", str(template), "--app",
                                f"pizza={pizza.endpoint}", "--day", "30m", "--step", "15m",
                                "--push-paths", str(paths), "--keep", "--json"))
        assert report["activities"] == 2
        lines = paths.read_text().splitlines()
        assert len(lines) == 2 and all(line.startswith("/3/device/") for line in lines), lines
        for line in lines:
            token = line.removeprefix("/3/device/")
            payload = tmp_path / "update.json"
            payload.write_text(json.dumps({"aps": {"timestamp": _start_seconds() + 3600, "event": "update",
                                                   "content-state": {"driverName": "Ana", "status": "arrived",
                                                                     "estimatedDeliveryTime": [0, 60]}}}))
            pushed = subprocess.run(
                [_binary("glimpse"), "push", token, str(payload), "--topic",
                 "com.you.pizza.push-type.liveactivity",
                 "--apns-address", f"127.0.0.1:{stack.ports['apns-h2c']}", "--gateway",
                 f"127.0.0.1:{stack.ports['gateway']}"],
                capture_output=True, text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
            assert pushed.returncode == 0, pushed
        for device in ("fleet-00001", "fleet-00002"):
            listed = stack.device_view(device).activities.List(g.ListActivitiesRequest(), timeout=RPC_TIMEOUT)
            states = [json.loads(view.activity.content.state_json) for view in listed.activities]
            assert [state["driverName"] for state in states] == ["Ana"], (device, states)
        assert stack.activities.List(g.ListActivitiesRequest(), timeout=RPC_TIMEOUT).activities == []
    finally:
        pizza.stop()
        stack.stop()


def _pizza_template(tmp_path):
    device = json.loads((DEMOS / "device.json").read_text())
    entry = next(app for app in device["apps"] if app["name"] == "pizza")
    entry["manifest"] = str(DEMOS / "pizza" / "app.json")
    template = tmp_path / "template.json"
    template.write_text(json.dumps({"apps": [entry]}))
    return template


def test_many_activities_per_device_up_to_the_activity_services_cap(tmp_path):
    """`--activities 3` on a stack whose glimpse-activity allows 3 per app: each device runs
    three Live Activities, each with its push token in --push-paths; `--activities 4` fails on
    ActivityKit's targetMaximumExceeded, naming it, and leaves no device behind."""
    stack = Stack(tmp_path / "stack", activity_args=["--max-activities-per-app", "3"])
    pizza = DemoApp("pizza", stack)
    try:
        template = _pizza_template(tmp_path)
        paths = tmp_path / "paths.txt"
        common = ["--devices", "2", "--template", str(template), "--app", f"pizza={pizza.endpoint}", "--day", "15m"]
        report = _report(_fleet(stack, *common, "--activities", "3", "--push-paths", str(paths), "--keep", "--json"))
        assert report["activities"] == 6
        assert len(set(paths.read_text().splitlines())) == 6
        for device in ("fleet-00001", "fleet-00002"):
            listed = stack.device_view(device).activities.List(g.ListActivitiesRequest(), timeout=RPC_TIMEOUT)
            assert len(listed.activities) == 3, device
        refused = _fleet(stack, *common, "--activities", "4", "--prefix", "over")
        assert refused.returncode != 0 and "targetMaximumExceeded" in refused.stderr, refused
        assert not [device for device in _devices(stack) if device.startswith("over-")]
    finally:
        pizza.stop()
        stack.stop()


def test_a_stack_on_the_system_clock_is_refused_before_anything_is_made(tmp_path):
    stack = Stack(tmp_path / "stack", clock="system")
    try:
        run = _fleet(stack, "--devices", "2")
        assert run.returncode == 1, run
        assert "manual clocks" in run.stderr, run.stderr
        assert _devices(stack) == ["default"]
    finally:
        stack.stop()


def test_a_fleet_past_a_hundred_devices_does_not_wait_behind_the_gateways_followers(tmp_path):
    """The gateway follows each device over one stream per service, on one connection: past
    100 devices (HTTP/2's usual stream limit) its other calls must not queue behind them."""
    provider, server, port = _provider()
    stack = Stack(tmp_path / "stack")
    try:
        template = _template(tmp_path, port)
        report = _report(_fleet(stack, "--devices", "120", "--template", str(template), "--day", "30m", "--step",
                                "15m", "--concurrency", "16", "--json"))
        assert report["advances"] == 240 and report["failedAdvances"] == 0, report
        assert report["providerFailed"] == 0
    finally:
        stack.stop()
        server.stop(grace=None)
