"""glimpse-gateway end to end: the five real executables on loopback (manual clocks, the
gateway conducting) with Ride the Lightning Air (rtl_air.py) as the app: the three states,
refusals, a service killed mid-flow, the gateway started before the services, the iPad.
"""
import time

import grpc
import pytest

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from rtl_air import KIND, RECTANGULAR, RTL, SMALL, _install, _place_both, _shown, _wait_shows, provider, rtl_manifest, stack  # noqa: F401 (fixtures)
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402
from glimpse.widget.v1 import family_pb2  # noqa: E402
from test_intent_service import GROUP  # noqa: E402


def test_ride_the_lightning_air_through_its_three_states(stack, provider):
    installed = _install(stack, provider)
    assert installed.bundle_id == RTL and len(installed.app_token) == 64
    small, lock = _place_both(stack)
    assert small.location.screen == t.SCREEN_HOME and lock.location.screen == t.SCREEN_LOCK
    assert small.display_size.width == 158 and lock.display_size.width == 160   # 393×852 iPhone
    assert _shown(small) == ["RTL 001 SFO → JFK", "Not checked in"]
    assert [e.id for e in small.elements] == ["checkin"]

    tapped = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
    assert tapped.performed.HasField("performed") and not tapped.performed.replayed
    # The answer is the tapped widget after its reload; the Lock Screen one follows.
    assert _shown(tapped.widget) == ["RTL 001 SFO → JFK", "Checked in"]
    assert [e.id for e in tapped.widget.elements] == ["gate"]
    _wait_shows(stack, lock.placement_id, "Checked in")

    # A retry of the same physical tap runs nothing again.
    again = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin",
                                           idempotency_key=tapped.idempotency_key), timeout=RPC_TIMEOUT)
    assert again.performed.replayed

    # By label, case-insensitive; then the terminal state has no button.
    gate = stack.widgets.Tap(g.TapRequest(placement_id=lock.placement_id, element="gate m72"), timeout=RPC_TIMEOUT)
    assert _shown(gate.widget) == ["RTL 001 SFO → JFK", "Cleared ⚡️"] and not gate.widget.elements
    _wait_shows(stack, small.placement_id, "Cleared ⚡️")

    # The widget itself opens its widgetURL.
    opened = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)
    assert opened.opened_url == "rtlair://flight/RTL001"

    events = stack.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events
    kinds = [e.kind for e in events]
    assert kinds.count("intent_performed") == 3 and "url_opened" in kinds
    assert [e.sequence for e in events] == list(range(1, len(events) + 1))
    changed = {e.entry_changed.placement_id for e in events if e.kind == "entry_changed"}
    assert changed == {small.placement_id, lock.placement_id}

    screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
    assert [w.placement_id for w in screen.home_pages[0].slots[0].widgets] == [small.placement_id]
    assert [w.placement_id for w in screen.lock_screen.widgets] == [lock.placement_id]
    assert not screen.unreachable_services


def test_bad_taps_and_tokens_are_refused_clearly(stack, provider):
    _install(stack, provider)
    small, _ = _place_both(stack)
    with pytest.raises(grpc.RpcError) as missing:
        stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="Board"), timeout=RPC_TIMEOUT)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND and "checkin (0.2)" in missing.value.details()
    with pytest.raises(grpc.RpcError) as unknown:
        stack.widgets.Tap(g.TapRequest(placement_id=999), timeout=RPC_TIMEOUT)
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.RpcError) as stranger:
        stack.app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"),
                            metadata=_bearer("0" * 64), timeout=RPC_TIMEOUT)
    assert stranger.value.code() == grpc.StatusCode.UNAUTHENTICATED
    with pytest.raises(grpc.RpcError) as app_places:
        stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL),
                            metadata=_bearer(provider.token), timeout=RPC_TIMEOUT)
    assert app_places.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as other_app:
        stack.widget_center.ReloadTimelines(t.ReloadTimelinesRequest(bundle_id="com.example.other", kind=KIND),
                                            metadata=_bearer(provider.token), timeout=RPC_TIMEOUT)
    assert other_app.value.code() == grpc.StatusCode.PERMISSION_DENIED
    # The Lock Screen's row below the clock holds 4 units: a rectangular widget is 2.
    stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=RECTANGULAR), timeout=RPC_TIMEOUT)
    with pytest.raises(grpc.RpcError) as full:
        stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=RECTANGULAR), timeout=RPC_TIMEOUT)
    assert full.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_service_killed_mid_flow_loses_nothing(stack, provider):
    _install(stack, provider)
    small, lock = _place_both(stack)
    stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
    _wait_shows(stack, lock.placement_id, "Checked in")

    stack.kill("timeline")
    deadline = time.monotonic() + RPC_TIMEOUT
    while "glimpse-timeline" not in stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services:
        assert time.monotonic() < deadline, "the gateway never noticed glimpse-timeline is down"
        time.sleep(0.05)
    # The screen keeps the last known state, marked stale.
    shown = stack.widgets.Get(g.GetWidgetRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)
    assert shown.stale and _shown(shown) == ["RTL 001 SFO → JFK", "Checked in"]

    stack.start("timeline")
    deadline = time.monotonic() + RPC_TIMEOUT
    while stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services:
        assert time.monotonic() < deadline, "the gateway never reconnected to glimpse-timeline"
        time.sleep(0.05)
    gate = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="gate"), timeout=RPC_TIMEOUT)
    assert _shown(gate.widget)[-1] == "Cleared ⚡️"
    kinds = [(e.kind, e.service_reachability.reachable) for e in
             stack.events.List(g.ListEventsRequest(kinds=["service_reachability"]), timeout=RPC_TIMEOUT).events]
    assert kinds == [("service_reachability", False), ("service_reachability", True)]




def test_the_ipad_screen_has_system_extra_large(tmp_path, provider):
    ipad = ["--device", "iPad1024x1366"]
    stack = Stack(tmp_path, extra={"timeline": ipad, "gateway": ipad})
    try:
        manifest = rtl_manifest(f"127.0.0.1:{provider.port}")
        manifest.widgets[0].supported_families.append(family_pb2.WIDGET_FAMILY_SYSTEM_EXTRA_LARGE)
        provider.token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        provider.app_group = stack.app_group
        large = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=family_pb2.WIDGET_FAMILY_SYSTEM_EXTRA_LARGE),
                                    timeout=RPC_TIMEOUT)
        assert (large.display_size.width, large.display_size.height) == (748, 356)
        assert "Not checked in" in _shown(large)
        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        assert screen.device == "iPad1024x1366" and screen.size.width == 1024
    finally:
        stack.stop()
    # The default iPhone has no systemExtraLarge.
    iphone = Stack(tmp_path / "iphone")
    try:
        manifest = rtl_manifest(f"127.0.0.1:{provider.port}")
        iphone.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
        with pytest.raises(grpc.RpcError) as refused:
            iphone.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=family_pb2.WIDGET_FAMILY_SYSTEM_EXTRA_LARGE),
                                 timeout=RPC_TIMEOUT)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        iphone.stop()


def test_the_gateway_started_first_catches_up_when_the_services_arrive(tmp_path, provider):
    stack = Stack(tmp_path, gateway_first=True)
    try:
        deadline = time.monotonic() + RPC_TIMEOUT
        while len(stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # It answers with no service up, and says which it cannot reach.
        with pytest.raises(grpc.RpcError) as down:
            stack.apps.Install(g.InstallRequest(manifest=rtl_manifest("127.0.0.1:1")), timeout=RPC_TIMEOUT)
        assert down.value.code() == grpc.StatusCode.UNAVAILABLE and "glimpse-timeline" in down.value.details()

        time.sleep(1)
        stack.start_services()
        deadline = time.monotonic() + RPC_TIMEOUT
        while unreachable := stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services:
            assert time.monotonic() < deadline, unreachable
            time.sleep(0.05)
        _install(stack, provider)
        placed = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
        assert "Not checked in" in _shown(placed)
    finally:
        stack.stop()
