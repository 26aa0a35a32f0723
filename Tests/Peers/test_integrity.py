"""Nothing acknowledged is lost, and nothing refused is left behind: through the real
processes, with services killed and callers that give up.
"""
import threading
import time
from concurrent import futures

import grpc
import httpx
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2, timeline_pb2, view_pb2  # noqa: E402

SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
APP = "com.example.held"
HELD = 120     # bound on a held call, far past any step of a test
SETTLE = 60    # bound on waiting for something that must happen


class HeldProvider(provider_pb2_grpc.WidgetProviderServicer):
    """Answers one entry; while `hold` is set, each call first waits for `release`."""

    def __init__(self):
        self.hold = threading.Event()
        self.release = threading.Event()
        self.called = threading.Event()
        self.calls = 0

    def Timeline(self, request, context):
        self.calls += 1
        self.called.set()
        if self.hold.is_set():
            self.release.wait(HELD)
        entry = timeline_pb2.TimelineEntry(date=request.now, view=view_pb2.View(text=view_pb2.Text(content="hi")))
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=[entry], never=timeline_pb2.Timeline.Never()))


@pytest.fixture
def held(tmp_path):
    provider = HeldProvider()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    stack = Stack(tmp_path)
    manifest = manifest_pb2.AppManifest(
        bundle_id=APP, display_name="Held", default_endpoint=f"127.0.0.1:{port}",
        widgets=[manifest_pb2.WidgetKindDeclaration(kind="W", display_name="W", supported_families=[SMALL])])
    stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
    yield stack, provider
    provider.release.set()
    stack.stop()
    server.stop(None)


def _until(condition, what, bound=SETTLE):
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _timeline_placements(stack):
    with grpc.insecure_channel(f"127.0.0.1:{stack.ports['timeline']}") as channel:
        stub = timeline_pb2_grpc.TimelineServiceStub(channel)
        return [p.placement_id for p in stub.ListPlacements(t.ListPlacementsRequest(), timeout=RPC_TIMEOUT).placements]


def _gateway_placements(stack):
    return [w.placement_id for w in stack.widgets.List(g.ListWidgetsRequest(), timeout=RPC_TIMEOUT).widgets]


def test_a_place_whose_caller_gives_up_leaves_nothing_behind(held):
    """The caller's deadline passes while the provider is still out (on a manual clock the
    timeline's Place waits for it): the placement must not stay at glimpse-timeline,
    invisible, undeletable and costing provider calls."""
    stack, provider = held
    provider.hold.set()
    with pytest.raises(grpc.RpcError) as failed:
        stack.widgets.Place(g.PlaceRequest(bundle_id=APP, kind="W", family=SMALL), timeout=1)
    assert failed.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert provider.called.wait(SETTLE)
    provider.release.set()
    _until(lambda: _timeline_placements(stack) == [], "the abandoned placement stayed at glimpse-timeline")
    assert _gateway_placements(stack) == []
    # The device works on: the next Place is whole.
    provider.hold.clear()
    placed = stack.widgets.Place(g.PlaceRequest(bundle_id=APP, kind="W", family=SMALL), timeout=RPC_TIMEOUT)
    assert placed.entry.view.text.content == "hi"
    assert _timeline_placements(stack) == [placed.placement_id] == _gateway_placements(stack)


def test_a_place_with_a_service_down_leaves_nothing_behind(held):
    """glimpse-intent is down: the Place fails with the service named, and glimpse-timeline
    gives back what it took; the gateway restarted meanwhile changes nothing."""
    stack, _ = held
    stack.kill("intent")
    with pytest.raises(grpc.RpcError) as failed:
        stack.widgets.Place(g.PlaceRequest(bundle_id=APP, kind="W", family=SMALL), timeout=RPC_TIMEOUT)
    assert failed.value.code() == grpc.StatusCode.UNAVAILABLE and "glimpse-intent" in failed.value.details()
    _until(lambda: _timeline_placements(stack) == [], "the placement stayed at glimpse-timeline")
    stack.start("intent")
    placed = stack.widgets.Place(g.PlaceRequest(bundle_id=APP, kind="W", family=SMALL), timeout=RPC_TIMEOUT)
    assert _timeline_placements(stack) == [placed.placement_id] == _gateway_placements(stack)


def test_a_place_that_glimpse_timeline_cannot_take_back_yet_is_taken_back_later(held):
    """Both glimpse-intent and glimpse-timeline go down in the middle of a Place; once they
    are back, the gateway takes the half-made placement back by itself."""
    stack, provider = held
    provider.hold.set()
    placing = threading.Thread(target=lambda: _swallow(lambda: stack.widgets.Place(
        g.PlaceRequest(bundle_id=APP, kind="W", family=SMALL), timeout=RPC_TIMEOUT)))
    placing.start()
    assert provider.called.wait(SETTLE)
    stack.kill("intent")
    stack.kill("timeline")
    placing.join(SETTLE)
    provider.hold.clear()
    provider.release.set()
    stack.start("timeline")
    stack.start("intent")
    _until(lambda: _timeline_placements(stack) == [], "the half-made placement stayed at glimpse-timeline")
    assert _gateway_placements(stack) == []


def _swallow(call):
    try:
        call()
    except grpc.RpcError:
        pass


# Taps: an acknowledged tap's reloads are never lost, and refused taps are on the record.

from rtl_air import _install, _place_both, _shown, _wait_shows, provider  # noqa: E402,F401  (fixture)
from test_intent_service import GROUP  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402


def test_a_tap_while_glimpse_timeline_is_down_keeps_its_reloads_until_it_is_back(tmp_path, provider):
    """The tap performs (the App Group changes) and names every widget it reloads; its
    reloads wait at glimpse-intent, through a kill -9 of glimpse-intent itself, and are
    applied once when glimpse-timeline is back."""
    stack = Stack(tmp_path)
    try:
        installed = _install(stack, provider)
        small, lock = _place_both(stack)
        calls = provider.calls
        stack.kill("timeline")
        tapped = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        assert tapped.performed.HasField("performed")
        # CheckInIntent reloads all the app's timelines: both widgets.
        assert sorted(tapped.performed.reloaded_placements) == sorted([small.placement_id, lock.placement_id])
        status = stack.app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"),
                                     metadata=[("authorization", f"Bearer {installed.app_token}")], timeout=RPC_TIMEOUT)
        assert status.entry.value.string_value == "checkedIn"
        assert _shown(stack.widgets.Get(g.GetWidgetRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)) \
            == ["RTL 001 SFO → JFK", "Not checked in"]
        stack.kill("intent")
        stack.start("intent")
        stack.start("timeline")
        _wait_shows(stack, small.placement_id, "Checked in", timeout=SETTLE)
        _wait_shows(stack, lock.placement_id, "Checked in", timeout=SETTLE)
        # Applied once: one provider call for each widget, however often it was sent.
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 60}), timeout=SETTLE)
        assert provider.calls == calls + 2
        # A replay of the tap reloads nothing.
        again = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin",
                                               idempotency_key=tapped.idempotency_key), timeout=RPC_TIMEOUT)
        assert again.performed.replayed and list(again.performed.reloaded_placements) == []
    finally:
        stack.stop()


def test_a_tap_refused_because_the_device_is_locked_is_in_the_event_log(tmp_path, provider):
    stack = Stack(tmp_path)
    try:
        _install(stack, provider)
        small, _ = _place_both(stack)
        stack.device.UpdateSettings(g.UpdateSettingsRequest(locked=True), timeout=RPC_TIMEOUT)
        with pytest.raises(grpc.RpcError) as refused:
            stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        # The reason is typed: a google.rpc.Status with an ErrorInfo in grpc-status-details-bin,
        # read with grpcio-status as any gRPC client would.
        status = rpc_status.from_call(refused.value)
        assert status is not None and status.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
        info = error_details_pb2.ErrorInfo()
        assert len(status.details) == 1 and status.details[0].Unpack(info)
        assert (info.reason, info.domain) == ("DEVICE_LOCKED", "glimpse.intent.v1.Refusal")
        assert intent_pb2.Refusal.Value("REFUSAL_" + info.reason) == intent_pb2.REFUSAL_DEVICE_LOCKED
        # The same over HTTP/JSON: the details as proto3 JSON renders an Any.
        answer = httpx.post(f"http://127.0.0.1:{stack.ports['gateway']}/v1/widgets/tap",
                            json={"placementId": str(small.placement_id), "element": "checkin"}, timeout=RPC_TIMEOUT)
        assert answer.status_code == 400, answer.text
        body = answer.json()
        assert body["status"] == "FAILED_PRECONDITION" and body["message"] == status.message
        assert body["details"] == [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                                    "reason": "DEVICE_LOCKED", "domain": "glimpse.intent.v1.Refusal"}]
        events = stack.events.List(g.ListEventsRequest(kinds=["intent_performed"]), timeout=RPC_TIMEOUT).events
        assert len(events) == 2 and all("refused" in event.summary for event in events)
        assert {event.intent_performed.response.refused.reason for event in events} == {intent_pb2.REFUSAL_DEVICE_LOCKED}

        # An element the entry does not show is NOT_FOUND with its own reason, so a script
        # tells it from a placement that is gone (NOT_FOUND without one); nothing is logged.
        stack.device.UpdateSettings(g.UpdateSettingsRequest(locked=False), timeout=RPC_TIMEOUT)
        with pytest.raises(grpc.RpcError) as missing:
            stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="nothing-here"), timeout=RPC_TIMEOUT)
        assert missing.value.code() == grpc.StatusCode.NOT_FOUND
        status = rpc_status.from_call(missing.value)
        assert status is not None and len(status.details) == 1 and status.details[0].Unpack(info)
        assert (info.reason, info.domain, dict(info.metadata)) == \
            ("NO_SUCH_ELEMENT", "glimpse.intent.v1.Refusal", {"element": "nothing-here"})
        with pytest.raises(grpc.RpcError) as gone:
            stack.widgets.Tap(g.TapRequest(placement_id=987654, element="checkin"), timeout=RPC_TIMEOUT)
        assert gone.value.code() == grpc.StatusCode.NOT_FOUND and rpc_status.from_call(gone.value) is None
        assert len(stack.events.List(g.ListEventsRequest(kinds=["intent_performed"]), timeout=RPC_TIMEOUT).events) == 2
    finally:
        stack.stop()


def test_a_script_reading_right_after_activitykit_update_and_end_sees_their_effect(tmp_path):
    """ActivityKit.Update and End answer once the device shows what they did, as Request
    does: a Device.Show right after never shows the state before."""
    import json
    from glimpse.activity.v1 import activity_pb2 as a
    stack = Stack(tmp_path)
    try:
        manifest = manifest_pb2.AppManifest(
            bundle_id="com.example.trip", display_name="Trip",
            activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="TripAttributes")])
        token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        app = [("authorization", f"Bearer {token}")]
        requested = stack.activity_kit.Request(a.RequestActivityRequest(
            attributes_type="TripAttributes", attributes_json="{}", content=a.Content(state_json=json.dumps({"stop": 0}))),
            metadata=app, timeout=RPC_TIMEOUT)
        activity_id = requested.activity.activity_id
        for stop in range(1, 21):
            stack.activity_kit.Update(a.UpdateActivityRequest(
                activity_id=activity_id, content=a.Content(state_json=json.dumps({"stop": stop}))),
                metadata=app, timeout=RPC_TIMEOUT)
            shown = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities
            assert [json.loads(v.activity.content.state_json)["stop"] for v in shown] == [stop]
        ended = stack.activity_kit.End(a.EndActivityRequest(
            activity_id=activity_id, content=a.Content(state_json=json.dumps({"stop": 99}))),
            metadata=app, timeout=RPC_TIMEOUT)
        assert ended.activity.state == a.ACTIVITY_STATE_ENDED
        shown = stack.activities.Get(g.GetActivityRequest(activity_id=activity_id), timeout=RPC_TIMEOUT).activity
        assert shown.state in (a.ACTIVITY_STATE_ENDED, a.ACTIVITY_STATE_DISMISSED)
        assert json.loads(shown.content.state_json)["stop"] == 99
    finally:
        stack.stop()


# Deadlines flow: a hop never gives up before the work it started may finish.

from glimpse.app.v1 import intent_handler_pb2 as ih, intent_handler_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import intent_pb2 as wi  # noqa: E402

SLOW_HANDLER = 12   # seconds: past the 10 s the gateway used to give glimpse-intent, inside the 30 s an intent handler may take


class SlowApp(provider_pb2_grpc.WidgetProviderServicer, intent_handler_pb2_grpc.IntentHandlerServicer):
    """A widget with one Button whose IntentHandler takes SLOW_HANDLER seconds."""

    def Timeline(self, request, context):
        button = view_pb2.View(id="go", button=view_pb2.Button(
            intent=wi.IntentInvocation(intent_type="SlowIntent"), label=view_pb2.View(text=view_pb2.Text(content="Go"))))
        entry = timeline_pb2.TimelineEntry(date=request.now, view=button)
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=[entry], never=timeline_pb2.Timeline.Never()))

    def Perform(self, request, context):
        time.sleep(SLOW_HANDLER)
        return ih.PerformResponse(succeeded=ih.PerformResponse.Succeeded())


def test_a_slow_handler_inside_its_budget_answers_the_tap(tmp_path):
    """The caller gives the tap a minute: each hop (gateway → glimpse-intent → the app) goes
    on with what is left of it, so a handler that takes 12 s of its 30 s is answered."""
    app = SlowApp()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(app, server)
    intent_handler_pb2_grpc.add_IntentHandlerServicer_to_server(app, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    stack = Stack(tmp_path)
    try:
        manifest = manifest_pb2.AppManifest(
            bundle_id="com.example.slow", display_name="Slow", default_endpoint=f"127.0.0.1:{port}",
            widgets=[manifest_pb2.WidgetKindDeclaration(kind="W", display_name="W", supported_families=[SMALL])],
            intents=[manifest_pb2.IntentDeclaration(type="SlowIntent", title="Slow", widget_kinds=["W"],
                                                    handler_endpoint="default")])
        stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
        placed = stack.widgets.Place(g.PlaceRequest(bundle_id="com.example.slow", kind="W", family=SMALL),
                                     timeout=RPC_TIMEOUT)
        tapped = stack.widgets.Tap(g.TapRequest(placement_id=placed.placement_id, element="go"), timeout=RPC_TIMEOUT)
        assert tapped.performed.HasField("performed"), tapped.performed
    finally:
        stack.stop()
        server.stop(None)


def test_a_retried_tap_answers_at_once_with_what_the_first_brought(tmp_path, provider):
    """A retry of a tap (same idempotency key) runs and reloads nothing, so it waits for no
    new entry: it answers well inside a deadline far shorter than the gateway's settle time
    (60 s in test stacks), where it used to wait for a change that never came."""
    stack = Stack(tmp_path)
    try:
        _install(stack, provider)
        small, _ = _place_both(stack)
        first = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        again = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin",
                                               idempotency_key=first.idempotency_key), timeout=20)
        assert again.performed.replayed and list(again.performed.reloaded_placements) == []
        assert _shown(again.widget) == _shown(first.widget) == ["RTL 001 SFO → JFK", "Checked in"]
    finally:
        stack.stop()
