"""Devices sharded across two sets of services (issue 34, point 3), through the real executables:
one gateway in front of shard "a" and shard "b" (`--shards FILE`), each a full set of the four
services wired to one another.

- a device lives on one shard: its calls, its followers, its pushes (at its shard's APNs
  endpoint) and its deletion reach that shard's services and nothing of the other's;
- two devices, one on each shard, running the scripted day of test_replay at once log, byte
  for byte, what the same two devices log on one unsharded stack;
- Create names a shard or takes the one the id hashes to (the same one every time); the
  shard is kept across a kill -9 of the gateway; a bad map stops the gateway with a message.
"""
import json
import subprocess

import grpc
import pytest

from glimpse_protos import glimpse_modules
from glimpse_stack import SERVICES, Stack
from test_devices import _code, _days, _devices, assert_same_days
from test_replay import SEED
from test_timeline_service import RPC_TIMEOUT, _binary

glimpse_modules()
from glimpse.device.v1 import devices_pb2 as d, devices_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402


def _held(stack):
    """The devices each service of `stack` holds."""
    held = {}
    for service in SERVICES:
        with grpc.insecure_channel(f"127.0.0.1:{stack.ports[service]}") as channel:
            held[service] = set(devices_pb2_grpc.DevicesStub(channel).List(
                d.ListDevicesRequest(), timeout=RPC_TIMEOUT).device_ids)
    return held


def _sharded(tmp_path):
    """Shard b's services (its own gateway unused), shard a's, and a's gateway restarted in
    front of both."""
    b = Stack(tmp_path / "b", activity_args=["--seed", SEED])
    a = Stack(tmp_path / "a", activity_args=["--seed", SEED])
    shards = {"shards": [{"name": name, **{service: f"127.0.0.1:{stack.ports[service]}" for service in SERVICES}}
                         for name, stack in (("a", a), ("b", b))]}
    path = tmp_path / "shards.json"
    path.write_text(json.dumps(shards))
    a.kill("gateway")
    a.start("gateway", extra=["--shards", str(path)])
    return a, b, path


def _view(a, b, device, shard):
    """`device` as a script sees it: a's gateway, and its shard's APNs endpoint."""
    view = a.device_view(device)
    view.ports = dict(a.ports, **{"apns-h2c": (a if shard == "a" else b).ports["apns-h2c"]})
    return view


def test_two_devices_on_two_shards_log_what_they_log_unsharded(tmp_path):
    devices = {"job-a": "a", "job-b": "b"}
    stack = Stack(tmp_path / "one", activity_args=["--seed", SEED])
    try:
        for device in devices:
            _devices(stack).Create(g.CreateDeviceRequest(device_id=device), timeout=RPC_TIMEOUT)
        unsharded = _days(stack, devices)
    finally:
        stack.stop()

    a, b, _ = _sharded(tmp_path / "sharded")
    try:
        for device, shard in devices.items():
            made = _devices(a).Create(g.CreateDeviceRequest(device_id=device, shard=shard), timeout=RPC_TIMEOUT)
            assert made.shard == shard
        views = {device: _view(a, b, device, shard) for device, shard in devices.items()}
        original = a.device_view
        a.device_view = lambda device: views[device]
        try:
            sharded = _days(a, devices)
        finally:
            a.device_view = original
        # Each shard's services hold their device and nothing of the other's.
        for stack, own, other in ((a, "job-a", "job-b"), (b, "job-b", "job-a")):
            for service, held in _held(stack).items():
                assert own in held and other not in held, (service, held)
        # Shard b's own gateway, and the default device, saw nothing.
        assert list(b.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events) == []
        assert list(a.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events) == []
    finally:
        a.stop()
        b.stop()
    assert_same_days(unsharded, sharded)


def test_create_places_lists_keeps_and_deletes_by_shard(tmp_path):
    a, b, path = _sharded(tmp_path)
    try:
        devices = _devices(a)
        # Hashed: each id lands on a shard of the map, the same one when made again.
        landed = {f"h-{n}": devices.Create(g.CreateDeviceRequest(device_id=f"h-{n}"), timeout=RPC_TIMEOUT).shard
                  for n in range(1, 9)}
        assert set(landed.values()) == {"a", "b"}, landed
        for device, shard in landed.items():
            assert devices.Delete(g.DeleteDeviceRequest(device_id=device), timeout=RPC_TIMEOUT).existed
            again = devices.Create(g.CreateDeviceRequest(device_id=device), timeout=RPC_TIMEOUT)
            assert again.shard == shard
        code, details = _code(devices.Create, g.CreateDeviceRequest(device_id="x", shard="c"))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and '"a", "b"' in details, details

        # The default device lives on the first shard; List says where each one lives.
        listed = {x.device_id: x.shard for x in devices.List(g.ListDevicesRequest(), timeout=RPC_TIMEOUT).devices}
        assert listed == {"default": "a", **landed}
        on_b = next(device for device, shard in landed.items() if shard == "b")
        a.device_view(on_b).apps.List(g.ListAppsRequest(), timeout=RPC_TIMEOUT)
        assert on_b in _held(b)["timeline"] and on_b not in _held(a)["timeline"]

        # A gateway killed -9 and started again keeps each device on its shard, even when the
        # map lists the shards the other way round (a device's shard is written with it).
        shards = json.loads(path.read_text())
        path.write_text(json.dumps({"shards": shards["shards"][::-1]}))
        a.kill("gateway")
        a.start("gateway", extra=["--shards", str(path)])
        listed = {x.device_id: x.shard for x in devices.List(g.ListDevicesRequest(), timeout=RPC_TIMEOUT).devices}
        assert listed == {"default": "b", **landed}
        a.device_view(on_b).apps.List(g.ListAppsRequest(), timeout=RPC_TIMEOUT)
        assert on_b not in _held(a)["timeline"]

        # Deleting removes it at its shard's services.
        assert devices.Delete(g.DeleteDeviceRequest(device_id=on_b), timeout=RPC_TIMEOUT).existed
        for service, held in _held(b).items():
            assert on_b not in held, (service, held)

        # A map without a device's shard: that device's calls say so; the others work.
        path.write_text(json.dumps({"shards": [shards["shards"][0]]}))
        a.kill("gateway")
        a.start("gateway", extra=["--shards", str(path)])
        still_b = [device for device, shard in landed.items() if shard == "b" and device != on_b]
        if still_b:
            code, details = _code(a.device_view(still_b[0]).apps.List, g.ListAppsRequest())
            assert code == grpc.StatusCode.FAILED_PRECONDITION and 'shard "b"' in details, details
        on_a = next(device for device, shard in landed.items() if shard == "a")
        a.device_view(on_a).apps.List(g.ListAppsRequest(), timeout=RPC_TIMEOUT)
    finally:
        a.stop()
        b.stop()


def test_a_shard_only_on_a_sharded_gateway(tmp_path):
    stack = Stack(tmp_path)
    try:
        code, details = _code(_devices(stack).Create, g.CreateDeviceRequest(device_id="x", shard="a"))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and "no shards" in details, details
        listed = _devices(stack).List(g.ListDevicesRequest(), timeout=RPC_TIMEOUT).devices
        assert [x.shard for x in listed] == [""]
    finally:
        stack.stop()


@pytest.mark.parametrize("shards, says", [
    ("{", "invalid JSON"),
    ('{"shards": []}', "names no shard"),
    ('{"shards": [{"name": "a"}]}', 'shard "a" has no "timeline"'),
    ('{"shards": [{"name": "a", "timeline": "x", "intent": "h:1", "activity": "h:2", "asset": "h:3"}]}',
     '"x" is not host:port'),
    ('{"shards": [{"name": "A", "timeline": "h:1", "intent": "h:1", "activity": "h:2", "asset": "h:3"}]}',
     'shard name "A"'),
    ('{"shards": [' + ",".join(['{"name": "a", "timeline": "h:1", "intent": "h:1", "activity": "h:2", "asset": "h:3"}'] * 2)
     + "]}", 'shard "a" is named twice'),
])
def test_a_bad_shard_map_stops_the_gateway_with_a_message(tmp_path, shards, says):
    path = tmp_path / "shards.json"
    path.write_text(shards)
    ran = subprocess.run([_binary("glimpse-gateway"), "--port", "0", "--data-dir", str(tmp_path / "gw"),
                          "--shards", str(path)], capture_output=True, text=True, timeout=60)
    assert ran.returncode != 0
    assert says in ran.stderr, ran.stderr
    ran = subprocess.run([_binary("glimpse-gateway"), "--port", "0", "--data-dir", str(tmp_path / "gw"),
                          "--shards", str(tmp_path / "missing.json")], capture_output=True, text=True, timeout=60)
    assert ran.returncode != 0 and "cannot read" in ran.stderr, ran.stderr


def test_glimpse_up_runs_two_shards_and_a_fleet_spreads_over_them(tmp_path):
    """`glimpse up --shards 2`: shard b's services 20 ports above a's; `glimpse fleet` over it
    reports each shard's devices and writes each shard's push paths; a push to a device's
    token reaches it at its shard's APNs endpoint, and is an unknown token at the other's."""
    import os
    import socket
    from test_fleet import _report, _start_seconds
    from test_stack_up import ROOT, _glimpse, _ports_free, _run

    glimpse = _glimpse()
    offset = next((o for o in range(11500, 24000, 1000) if _ports_free(o) and _ports_free(o + 20)), None)
    if offset is None:
        pytest.skip("no free block of ports below the ephemeral range")
    directory = tmp_path / "stack"
    refused = _run(glimpse, "up", "--detach", "--dir", str(directory), "--shards", "9")
    assert refused.returncode != 0 and "--shards must be 1...8" in refused.stderr, refused.stderr
    up = _run(glimpse, "up", "--detach", "--dir", str(directory), "--manual", "2026-01-05T08:00:00Z",
              "--port-offset", str(offset), "--shards", "2")
    try:
        assert up.returncode == 0, up.stderr
        assert "glimpse-timeline-b" in up.stdout and f"127.0.0.1:{7721 + offset}" in up.stdout, up.stdout
        for port in (7721, 7722, 7723, 7724, 7463, 7464):
            with socket.socket() as s:
                assert s.connect_ex(("127.0.0.1", port + offset)) == 0, port + offset
        env = dict(os.environ, GLIMPSE_GATEWAY=f"127.0.0.1:{7700 + offset}")
        paths = tmp_path / "paths.txt"
        fleet = subprocess.run([str(glimpse), "fleet", "--devices", "8", "--port-offset", str(offset), "--day", "30m",
                                "--push-paths", str(paths), "--keep", "--json"],
                               cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        report = _report(fleet)
        shards = report["shards"]
        assert set(shards) <= {"a", "b"} and sum(shards.values()) == 8 and report["failedAdvances"] == 0, report
        listed = subprocess.run([str(glimpse), "devices"], cwd=ROOT, env=env, capture_output=True, text=True,
                                timeout=60)
        assert "SHARD" in listed.stdout, listed.stdout
        key = f"GLIMPSEDEV:DEMOKEY001:{directory / 'apns' / 'AuthKey_DEMOKEY001.p8'}"
        payload = tmp_path / "update.json"
        payload.write_text(json.dumps({"aps": {"timestamp": _start_seconds() + 1800, "event": "update",
                                               "content-state": {"driverName": "Ana", "status": "arrived",
                                                                 "estimatedDeliveryTime": [0, 60]}}}))
        apns = {"a": 7444 + offset, "b": 7464 + offset}

        def push(token, shard):
            return subprocess.run([str(glimpse), "push", token, str(payload), "--topic",
                                   "com.you.pizza.push-type.liveactivity", "--key", key,
                                   "--apns-address", f"127.0.0.1:{apns[shard]}"],
                                  cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)

        for shard, count in shards.items():
            tokens = [line.removeprefix("/3/device/") for line in (tmp_path / f"paths.txt.{shard}").read_text().split()]
            assert len(tokens) == count, (shard, tokens)
            pushed = push(tokens[0], shard)
            assert pushed.returncode == 0, pushed
            elsewhere = push(tokens[0], "b" if shard == "a" else "a")
            assert elsewhere.returncode != 0 and "BadDeviceToken" in elsewhere.stdout + elsewhere.stderr, elsewhere
    finally:
        down = _run(glimpse, "down", "--dir", str(directory))
    assert down.returncode == 0, down.stderr
