"""Devices as a dimension (issue 34, point 1), through the real executables: one stack holds
many devices, each with its own apps, placements, activities, event log and clock, at the
gateway and at every service.

- `Devices.Create / List / Delete` at the gateway; a call names its device with the
  `glimpse-device` metadata entry or the JSON path prefix `/v1/devices/{id}/`, an app's token
  names the device it was installed on, and a call naming none is the default device's;
- isolation: two devices running the scripted day of test_replay at once (its push through the
  APNs endpoint included: a token's push reaches the device that issued it) log the same events,
  byte for byte, as each alone on a stack of its own, and the default device sees none of it;
- the CLI: `glimpse devices create / list / delete`, and `--device-id` on any command;
- deleting a device removes it at every service (their `glimpse.device.v1.Devices`), and a
  deleted device's calls are NOT_FOUND; its app tokens reach nothing.
"""
import json
import os
import resource
import threading
import time
import urllib.error
import urllib.request

import grpc
import pytest

from demo_apps import DemoApp, place
from glimpse_protos import glimpse_modules
from glimpse_stack import SERVICES, START_TIME, Stack
from test_replay import SEED, day
from test_timeline_service import RPC_TIMEOUT, Process, _bearer, _binary

glimpse_modules()
from glimpse.clock.v1 import clock_pb2 as c, clock_pb2_grpc  # noqa: E402
from glimpse.device.v1 import devices_pb2 as d, devices_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402
from glimpse.widget.v1 import family_pb2 as f  # noqa: E402


def _stack(tmp_path):
    return Stack(tmp_path, activity_args=["--seed", SEED])


def _devices(stack):
    return gateway_pb2_grpc.DevicesStub(stack.channel)


def _code(call, *args, **kwargs):
    with pytest.raises(grpc.RpcError) as raised:
        call(*args, timeout=RPC_TIMEOUT, **kwargs)
    return raised.value.code(), raised.value.details()


def _days(stack, devices):
    """The scripted day on each device at once; their logs."""
    results, failures = {}, []

    def run(device):
        try:
            results[device] = day(stack.device_view(device))
        except BaseException as error:  # noqa: BLE001 (reported below)
            failures.append((device, error))

    threads = [threading.Thread(target=run, args=(device,)) for device in devices]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    return results


def test_two_devices_at_once_log_what_each_logs_alone(tmp_path):
    devices = ["job-a", "job-b"]
    alone = {}
    for device in devices:
        stack = _stack(tmp_path / f"alone-{device}")
        try:
            _devices(stack).Create(g.CreateDeviceRequest(device_id=device), timeout=RPC_TIMEOUT)
            alone.update(_days(stack, [device]))
        finally:
            stack.stop()
    stack = _stack(tmp_path / "together")
    try:
        for device in devices:
            _devices(stack).Create(g.CreateDeviceRequest(device_id=device), timeout=RPC_TIMEOUT)
        together = _days(stack, devices)
        # The default device saw nothing of theirs.
        assert list(stack.apps.List(g.ListAppsRequest(), timeout=RPC_TIMEOUT).apps) == []
        assert list(stack.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events) == []
    finally:
        stack.stop()
    assert_same_days(alone, together)


def assert_same_days(expected, got):
    """Each device's day in `got` logged, byte for byte, what it logged in `expected`, and
    ended on the same screen."""
    for device in expected:
        first, first_screen, readable = expected[device]
        second, second_screen, other = got[device]
        assert len(first) > 100, f"{device}'s day logged only {len(first)} events"
        for i, (x, y) in enumerate(zip(first, second)):
            assert x == y, f"{device}: event {i + 1} differs:\n{readable[i]}\n---\n{other[i]}"
        assert len(first) == len(second)
        assert first_screen == second_screen


def test_create_list_delete_and_what_a_device_reaches(tmp_path):
    stack = _stack(tmp_path)
    apps = []
    try:
        devices = _devices(stack)
        created = devices.Create(g.CreateDeviceRequest(
            device_id="ci-1", settings=g.UpdateSettingsRequest(locale="de_DE", low_power_mode=True)),
            timeout=RPC_TIMEOUT)
        assert created.device_id == "ci-1" and created.model and created.HasField("created_at")
        assert (created.settings.locale, created.settings.low_power_mode) == ("de_DE", True)
        # Its settings are its own: the device says so, the default device kept its own.
        own = stack.device_view("ci-1").device.GetSettings(g.GetSettingsRequest(), timeout=RPC_TIMEOUT)
        assert (own.locale, own.low_power_mode) == ("de_DE", True)
        default = stack.device.GetSettings(g.GetSettingsRequest(), timeout=RPC_TIMEOUT)
        assert (default.locale, default.low_power_mode) != ("de_DE", True)
        assert _code(devices.Create, g.CreateDeviceRequest(device_id="ci-1"))[0] == grpc.StatusCode.ALREADY_EXISTS
        for bad in ("", "default", "Upper", "-x", "a" * 64, "a/b", "a.b"):
            assert _code(devices.Create, g.CreateDeviceRequest(device_id=bad))[0] == grpc.StatusCode.INVALID_ARGUMENT
        listed = devices.List(g.ListDevicesRequest(), timeout=RPC_TIMEOUT).devices
        assert [x.device_id for x in listed] == ["default", "ci-1"]

        # A device nobody created is NOT_FOUND; a malformed name INVALID_ARGUMENT.
        ghost = stack.device_view("ghost")
        assert _code(ghost.apps.List, g.ListAppsRequest())[0] == grpc.StatusCode.NOT_FOUND
        assert _code(stack.apps.List, g.ListAppsRequest(), metadata=[("glimpse-device", "No Such")])[0] \
            == grpc.StatusCode.INVALID_ARGUMENT

        # An app on ci-1: its token names ci-1, so its own calls (no glimpse-device) reach it.
        ci = stack.device_view("ci-1")
        pixar = DemoApp("pixar", ci)
        apps.append(pixar)
        pixar.install()
        assert pixar.token.startswith("ci-1.")
        small = place(ci, pixar.bundle_id, "PixarFilmWidget", f.WIDGET_FAMILY_SYSTEM_SMALL)
        assert [w.placement_id for w in ci.widgets.List(g.ListWidgetsRequest(), timeout=RPC_TIMEOUT).widgets] \
            == [small.placement_id]
        assert list(stack.widgets.List(g.ListWidgetsRequest(), timeout=RPC_TIMEOUT).widgets) == []
        stack.widget_center.ReloadAllTimelines(t.ReloadAllTimelinesRequest(), metadata=_bearer(pixar.token),
                                               timeout=RPC_TIMEOUT)
        # Its token on another device's name reaches nothing there.
        other = devices.Create(g.CreateDeviceRequest(device_id="ci-2"), timeout=RPC_TIMEOUT)
        assert other.device_id == "ci-2"
        code, _ = _code(stack.device_view("ci-2").widget_center.ReloadAllTimelines, t.ReloadAllTimelinesRequest(),
                        metadata=_bearer(pixar.token))
        assert code == grpc.StatusCode.UNAUTHENTICATED

        # JSON: the path prefix names the device.
        port = stack.ports["gateway"]
        body = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/devices/ci-1/widgets/list", data=b"{}", method="POST",
            headers={"content-type": "application/json"}), timeout=RPC_TIMEOUT).read())
        assert [w["placementId"] for w in body["widgets"]] == [str(small.placement_id)]
        body = json.loads(urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/devices/list", data=b"{}", method="POST",
            headers={"content-type": "application/json"}), timeout=RPC_TIMEOUT).read())
        assert [x["deviceId"] for x in body["devices"]] == ["default", "ci-1", "ci-2"]

        # A stack killed -9 and started again keeps its devices: their widgets and tokens.
        for service in ("gateway", *SERVICES):
            stack.kill(service)
        for service in (*SERVICES, "gateway"):
            stack.start(service)
        assert [w.placement_id for w in ci.widgets.List(g.ListWidgetsRequest(), timeout=RPC_TIMEOUT).widgets] \
            == [small.placement_id]
        stack.widget_center.ReloadAllTimelines(t.ReloadAllTimelinesRequest(), metadata=_bearer(pixar.token),
                                               timeout=RPC_TIMEOUT)

        # Each service holds ci-1 now.
        for service in SERVICES:
            with grpc.insecure_channel(f"127.0.0.1:{stack.ports[service]}") as channel:
                held = devices_pb2_grpc.DevicesStub(channel).List(d.ListDevicesRequest(), timeout=RPC_TIMEOUT)
                assert "ci-1" in held.device_ids, (service, held)

        # Delete: gone at the gateway and at every service; twice is no error.
        assert devices.Delete(g.DeleteDeviceRequest(device_id="ci-1"), timeout=RPC_TIMEOUT).existed
        assert not devices.Delete(g.DeleteDeviceRequest(device_id="ci-1"), timeout=RPC_TIMEOUT).existed
        assert [x.device_id for x in devices.List(g.ListDevicesRequest(), timeout=RPC_TIMEOUT).devices] \
            == ["default", "ci-2"]
        assert _code(ci.widgets.List, g.ListWidgetsRequest())[0] == grpc.StatusCode.NOT_FOUND
        for service in SERVICES:
            with grpc.insecure_channel(f"127.0.0.1:{stack.ports[service]}") as channel:
                held = devices_pb2_grpc.DevicesStub(channel).List(d.ListDevicesRequest(), timeout=RPC_TIMEOUT)
                assert "ci-1" not in held.device_ids, (service, held)
            assert not (tmp_path / service / "devices" / "ci-1").exists()
        assert not (tmp_path / "gateway" / "devices" / "ci-1").exists()
        # Its app's token reaches nothing now.
        code, _ = _code(stack.widgets.List, g.ListWidgetsRequest(), metadata=_bearer(pixar.token))
        assert code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.UNAUTHENTICATED)
    finally:
        for app in apps:
            app.stop()
        codes = stack.stop()
    assert set(codes.values()) == {0}, codes


def test_the_cli_creates_lists_uses_and_deletes_devices(tmp_path):
    import subprocess
    from test_timeline_service import _binary
    stack = _stack(tmp_path)
    try:
        env = {"GLIMPSE_GATEWAY": f"127.0.0.1:{stack.ports['gateway']}", "PATH": "/usr/bin:/bin"}

        def glimpse(*argv, extra=None):
            return subprocess.run([_binary("glimpse"), *argv], capture_output=True, text=True,
                                  env={**env, **(extra or {})}, timeout=60)

        assert glimpse("devices", "create", "job-9").stdout.strip() == "created device job-9"
        listed = glimpse("devices", "list", "--json")
        assert [json.loads(line)["devices"][1]["deviceId"] for line in listed.stdout.splitlines()] == ["job-9"]
        assert glimpse("devices").stdout.splitlines()[1].split()[0] == "default"
        # --device-id (or GLIMPSE_DEVICE_ID) sends every call to that device.
        assert glimpse("clock", "advance", "1h", "--device-id", "job-9").returncode == 0
        on_device = glimpse("clock", "now", "--json", extra={"GLIMPSE_DEVICE_ID": "job-9"})
        on_default = glimpse("clock", "now", "--json")
        assert json.loads(on_device.stdout)["now"] != json.loads(on_default.stdout)["now"]
        missing = glimpse("apps", "--device-id", "nope")
        assert missing.returncode == 1 and "NOT_FOUND" in missing.stderr, missing.stderr
        bad = glimpse("apps", "--device-id", "Not Valid")
        assert bad.returncode == 2 and "--device-id" in bad.stderr, bad.stderr
        assert glimpse("devices", "delete", "job-9").stdout.strip() == "deleted device job-9"
        assert glimpse("devices", "delete", "job-9").stdout.strip() == "no device job-9 (nothing to delete)"
    finally:
        stack.stop()


def test_limits_and_hostile_calls(tmp_path):
    """--max-devices caps a gateway's devices (RESOURCE_EXHAUSTED); a made-up app token naming a
    made-up device at a service reaches nothing and leaves nothing behind."""
    stack = Stack(tmp_path, gateway_args=["--max-devices", "1"])
    try:
        devices = _devices(stack)
        devices.Create(g.CreateDeviceRequest(device_id="one"), timeout=RPC_TIMEOUT)
        code, details = _code(devices.Create, g.CreateDeviceRequest(device_id="two"))
        assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and "--max-devices" in details, details
        devices.Delete(g.DeleteDeviceRequest(device_id="one"), timeout=RPC_TIMEOUT)
        devices.Create(g.CreateDeviceRequest(device_id="two"), timeout=RPC_TIMEOUT)
        made_up = [("authorization", "Bearer x"), ("glimpse-device", "made-up-1")]
        for service in SERVICES:
            with grpc.insecure_channel(f"127.0.0.1:{stack.ports[service]}") as channel:
                # A service's Devices is the device's to call, not an app's.
                code, _ = _code(devices_pb2_grpc.DevicesStub(channel).List, d.ListDevicesRequest(), metadata=made_up)
                assert code == grpc.StatusCode.PERMISSION_DENIED
                # A made-up token naming made-up devices: UNAUTHENTICATED, and no device made.
                for i in range(20):
                    code, _ = _code(clock_pb2_grpc.ClockStub(channel).Now, c.NowRequest(),
                                    metadata=[("authorization", "Bearer x"), ("glimpse-device", f"made-up-{i}")])
                    assert code == grpc.StatusCode.UNAUTHENTICATED
            assert not list((tmp_path / service / "devices").glob("made-up-*"))
    finally:
        stack.stop()


def test_past_what_the_open_files_limit_holds_every_device_is_served(tmp_path):
    """A service under `ulimit -n 200` holds 50 devices' stores open at once (200 less a quarter
    kept for the rest, 3 files each): it says so at start when --max-devices asks for more, and
    serves all 100 (their stores taking turns: the idle ones closed, reopened on use), each
    device's clock moved to an instant of its own and read back; the process never holds more
    than 200 files (100 open stores would be 300)."""
    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))

    argv = [_binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / "timeline"),
            "--clock", "manual", "--start-time", START_TIME, "--max-devices", "100"]
    process = Process("glimpse-timeline", argv, tmp_path, preexec_fn=low_limit)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{process.port}") as channel:
            clock = clock_pb2_grpc.ClockStub(channel)
            start = clock.Now(c.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
            for rounds in range(2):
                for i in range(100):
                    device = [("glimpse-device", f"dev-{i}")]
                    to = c.AdvanceToRequest(to={"seconds": start + 60 * (i + 1) + rounds})
                    clock.AdvanceTo(to, metadata=device, timeout=RPC_TIMEOUT)
                    held = len(os.listdir(f"/proc/{process.process.pid}/fd"))
                    assert held <= 200, held
            for i in range(100):
                now = clock.Now(c.NowRequest(), metadata=[("glimpse-device", f"dev-{i}")], timeout=RPC_TIMEOUT)
                assert now.now.seconds == start + 60 * (i + 1) + 1, i
        assert "--max-devices 100, but the open-files limit (200) holds 50 devices" in process.stderr()
    finally:
        assert process.stop() == 0, process.stderr()


def test_a_devices_clock_follows_real_time_when_told_and_stays_when_frozen(tmp_path):
    """A device's conductor waits for Follow without a timer while frozen (a gateway holds
    one per device): Follow moves its clock with real time, Freeze stops it, Follow again
    moves it on; the default device's clock stays where it was all along."""
    stack = _stack(tmp_path)
    try:
        _devices(stack).Create(g.CreateDeviceRequest(device_id="clocked"), timeout=RPC_TIMEOUT)
        device = stack.device_view("clocked")
        frozen = device.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT)
        assert frozen.manual and frozen.frozen
        before = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.ToDatetime()

        def moves(since):
            # Real time moves it: awaited on the clock itself, however slow the machine.
            for _ in range(600):
                state = device.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT)
                if state.now.ToDatetime() > since:
                    return state
                time.sleep(0.05)
            raise AssertionError("the clock did not follow real time")

        following = device.clock.Follow(g.FollowRequest(), timeout=RPC_TIMEOUT)
        assert not following.frozen
        moved = moves(frozen.now.ToDatetime())
        stopped = device.clock.Freeze(g.FreezeRequest(), timeout=RPC_TIMEOUT)
        assert stopped.frozen and stopped.now.ToDatetime() >= moved.now.ToDatetime()
        time.sleep(0.3)
        assert device.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now == stopped.now
        device.clock.Follow(g.FollowRequest(), timeout=RPC_TIMEOUT)
        moves(stopped.now.ToDatetime())
        assert stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.ToDatetime() == before
    finally:
        stack.stop()


def test_a_delete_that_fails_half_way_is_finished_by_the_next(tmp_path):
    stack = _stack(tmp_path)
    try:
        devices = _devices(stack)
        devices.Create(g.CreateDeviceRequest(device_id="ci-7"), timeout=RPC_TIMEOUT)
        ci = stack.device_view("ci-7")
        ci.clock.Advance(g.AdvanceRequest(by={"seconds": 60}), timeout=RPC_TIMEOUT)  # every service holds it
        stack.kill("asset")
        code, details = _code(devices.Delete, g.DeleteDeviceRequest(device_id="ci-7"))
        assert code == grpc.StatusCode.UNAVAILABLE and "glimpse-asset" in details, details
        # Half deleted: the gateway opens it no more, nor makes it again.
        assert _code(ci.apps.List, g.ListAppsRequest())[0] == grpc.StatusCode.NOT_FOUND
        assert _code(devices.Create, g.CreateDeviceRequest(device_id="ci-7"))[0] == grpc.StatusCode.ABORTED
        stack.start("asset")
        assert devices.Delete(g.DeleteDeviceRequest(device_id="ci-7"), timeout=RPC_TIMEOUT).existed
        for process in ("gateway", *SERVICES):
            assert not (tmp_path / process / "devices" / "ci-7").exists(), process
        devices.Create(g.CreateDeviceRequest(device_id="ci-7"), timeout=RPC_TIMEOUT)  # anew
        assert list(ci.apps.List(g.ListAppsRequest(), timeout=RPC_TIMEOUT).apps) == []
    finally:
        stack.stop()
