"""glimpse-gateway end to end: the five real executables on loopback (manual clocks, the
gateway conducting), the app's provider written here in Python.

Ride the Lightning Air (seed 004): one FlightWidget, three states — not checked in (a
Check In button), checked in (a Gate M72 button), gate confirmed (no button). The
provider reads `flightStatus` from the App Group through the gateway, with the app's
token, as the widget extension would read UserDefaults(suiteName:).
"""
import threading
import time
from concurrent import futures

import grpc
import pytest

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_intent_service import GROUP, RTL
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402
from glimpse.widget.v1 import family_pb2, intent_pb2 as value_pb2, timeline_pb2, view_pb2  # noqa: E402

KIND = "FlightWidget"
SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
RECTANGULAR = family_pb2.WIDGET_FAMILY_ACCESSORY_RECTANGULAR
LABELS = {"notCheckedIn": "Not checked in", "checkedIn": "Checked in", "gateConfirmed": "Cleared ⚡️"}


def _text(content):
    return view_pb2.View(text=view_pb2.Text(content=content))


def _button(intent, label, view_id):
    return view_pb2.View(id=view_id, button=view_pb2.Button(
        intent=value_pb2.IntentInvocation(intent_type=intent), label=_text(label)))


class FlightProvider(provider_pb2_grpc.WidgetProviderServicer):
    """The widget extension: one entry now, `.never` (every change is a tap's reload)."""

    def __init__(self):
        self.app_group = None    # the gateway's AppGroup stub
        self.token = None        # the app's token at the gateway
        self.calls = 0
        self.lock = threading.Lock()

    def status(self):
        got = self.app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"),
                                 metadata=_bearer(self.token), timeout=RPC_TIMEOUT)
        return got.entry.value.string_value if got.HasField("entry") else "notCheckedIn"

    def Placeholder(self, request, context):
        return provider_pb2.PlaceholderResponse()

    def Snapshot(self, request, context):
        return provider_pb2.SnapshotResponse()

    def Timeline(self, request, context):
        with self.lock:
            self.calls += 1
        status = self.status()
        children = [_text("RTL 001 SFO → JFK"), _text(LABELS[status])]
        if status == "notCheckedIn":
            children.append(_button("CheckInIntent", "Check In", "checkin"))
        elif status == "checkedIn":
            children.append(_button("ConfirmGateIntent", "Gate M72", "gate"))
        view = view_pb2.View(stack=view_pb2.Stack(children=children))
        entry = timeline_pb2.TimelineEntry(date=request.now, view=view, widget_url="rtlair://flight/RTL001")
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(
            entries=[entry], never=timeline_pb2.Timeline.Never()))


def _store_intent(intent_type, status):
    return manifest_pb2.IntentDeclaration(
        type=intent_type, title=intent_type, widget_kinds=[KIND],
        store=manifest_pb2.StoreAction(
            app_group=GROUP,
            operations=[manifest_pb2.StoreOperation(set=manifest_pb2.StoreOperation.SetValue(
                key="flightStatus", literal=value_pb2.ParameterValue(string_value=status)))],
            reloads=manifest_pb2.ReloadRequest(all_timelines=True)))


def rtl_manifest(endpoint):
    return manifest_pb2.AppManifest(
        bundle_id=RTL, display_name="Ride the Lightning Air", app_groups=[GROUP], default_endpoint=endpoint,
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=KIND, display_name="Flight",
                                                    supported_families=[SMALL, RECTANGULAR])],
        intents=[_store_intent("CheckInIntent", "checkedIn"), _store_intent("ConfirmGateIntent", "gateConfirmed")])


@pytest.fixture
def provider():
    provider = FlightProvider()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, server)
    provider.port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield provider
    server.stop(None)


@pytest.fixture
def stack(tmp_path):
    stack = Stack(tmp_path)
    yield stack
    stack.stop()


def _install(stack, provider):
    installed = stack.apps.Install(g.InstallRequest(manifest=rtl_manifest(f"127.0.0.1:{provider.port}")),
                                   timeout=RPC_TIMEOUT)
    provider.app_group = stack.app_group
    provider.token = installed.app_token
    return installed


def _shown(widget):
    """The entry's texts, as the screen shows them."""
    return [child.text.content for child in widget.entry.view.stack.children if child.HasField("text")]


def _wait_shows(stack, placement_id, label, timeout=5):
    deadline = time.monotonic() + timeout
    while True:
        widget = stack.widgets.Get(g.GetWidgetRequest(placement_id=placement_id), timeout=RPC_TIMEOUT)
        if label in _shown(widget):
            return widget
        assert time.monotonic() < deadline, f"placement {placement_id} shows {_shown(widget)}, not {label!r}"
        time.sleep(0.02)


def _place_both(stack):
    small = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    lock = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=RECTANGULAR), timeout=RPC_TIMEOUT)
    return small, lock


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
    deadline = time.monotonic() + 5
    while "glimpse-timeline" not in stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services:
        assert time.monotonic() < deadline, "the gateway never noticed glimpse-timeline is down"
        time.sleep(0.05)
    # The screen keeps the last known state, marked stale.
    shown = stack.widgets.Get(g.GetWidgetRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)
    assert shown.stale and _shown(shown) == ["RTL 001 SFO → JFK", "Checked in"]

    stack.start("timeline")
    deadline = time.monotonic() + 10
    while stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services:
        assert time.monotonic() < deadline, "the gateway never reconnected to glimpse-timeline"
        time.sleep(0.05)
    gate = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="gate"), timeout=RPC_TIMEOUT)
    assert _shown(gate.widget)[-1] == "Cleared ⚡️"
    kinds = [(e.kind, e.service_reachability.reachable) for e in
             stack.events.List(g.ListEventsRequest(kinds=["service_reachability"]), timeout=RPC_TIMEOUT).events]
    assert kinds == [("service_reachability", False), ("service_reachability", True)]


def _scripted_day(tmp_path, provider):
    """Placements, taps and advances over a day; returns the event log as (at, kind, summary)."""
    stack = Stack(tmp_path)
    try:
        _install(stack, provider)
        small, lock = _place_both(stack)
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 6 * 3600}), timeout=60)
        stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        _wait_shows(stack, lock.placement_id, "Checked in")
        stack.widgets.Reload(g.ReloadRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 12 * 3600}), timeout=60)
        stack.widgets.Tap(g.TapRequest(placement_id=lock.placement_id, element="gate"), timeout=RPC_TIMEOUT)
        _wait_shows(stack, small.placement_id, "Cleared ⚡️")
        state = stack.clock.Advance(g.AdvanceRequest(by={"seconds": 6 * 3600}), timeout=60)
        assert state.manual and state.frozen
        events = stack.events.List(g.ListEventsRequest(limit=10000), timeout=RPC_TIMEOUT).events
        return [(e.at.ToJsonString(), e.kind, e.summary) for e in events]
    finally:
        stack.stop()


def test_the_same_scripted_day_gives_the_same_event_log_twice(tmp_path, provider):
    first = _scripted_day(tmp_path / "one", provider)
    second = _scripted_day(tmp_path / "two", provider)
    assert first == second
    kinds = [kind for _, kind, _ in first]
    assert kinds.count("clock_moved") == 3 and kinds.count("intent_performed") == 2
    assert first[-1][0] == "2026-01-02T09:00:00Z"


PIZZA = "com.example.pizza"
PIZZA_TOPIC = f"{PIZZA}.push-type.liveactivity"


def test_pizza_delivery_with_a_stock_apns_client(tmp_path):
    """Seed 002: the app requests the activity through the gateway (ActivityKit); the push
    server (aioapns, over TLS) changes the driver with an alert, then ends it immediately.
    The Dynamic Island expands for the alert, then shows the compact presentation; the
    end takes it off the Lock Screen at once."""
    import asyncio
    import json
    import ssl
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.connection import APNsProductionClientProtocol
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from glimpse.activity.v1 import activity_pb2 as a

    stack = Stack(tmp_path, apns_tls=True)
    try:
        manifest = manifest_pb2.AppManifest(
            bundle_id=PIZZA, display_name="Pizza", push_topics=[PIZZA_TOPIC],
            activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
        token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        now = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
        tim = {"driverName": "Tim", "estimatedDeliveryTime": now + 15 * 60}
        requested = stack.activity_kit.Request(a.RequestActivityRequest(
            attributes_type="PizzaDeliveryAttributes", attributes_json=json.dumps({"numberOfPizzas": 2}),
            content=a.Content(state_json=json.dumps(tim)), token=True), metadata=_bearer(token), timeout=RPC_TIMEOUT)
        activity_id = requested.activity.activity_id
        deadline = time.monotonic() + 5
        while not (device_token := stack.activities.Get(g.GetActivityRequest(activity_id=activity_id),
                                                         timeout=RPC_TIMEOUT).activity.push_token):
            assert time.monotonic() < deadline, "no pushTokenUpdates for the activity"
            time.sleep(0.02)

        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        assert [v.activity.activity_id for v in screen.lock_screen.activities] == [activity_id]
        assert screen.dynamic_island.mode == g.DynamicIsland.MODE_COMPACT

        key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
        APNsProductionClientProtocol.APNS_SERVER = "127.0.0.1"
        APNsProductionClientProtocol.APNS_PORT = stack.ports["apns-tls"]
        context = ssl.create_default_context(cafile=stack.ca)

        def push(aps):
            async def send():
                client = APNs(key=key, key_id="KEY1234567", team_id="TEAM123456", topic=PIZZA_TOPIC, ssl_context=context)
                return await client.send_notification(NotificationRequest(
                    device_token=device_token, push_type=PushType.LIVEACTIVITY, message={"aps": aps}))
            return asyncio.run(send())

        john = {"driverName": "John", "estimatedDeliveryTime": now + 60 * 60}
        sent = push({"timestamp": now + 1, "event": "update", "content-state": john,
                     "alert": {"title": "Driver changed", "body": "John is on the way"}})
        assert sent.is_successful, sent.description
        deadline = time.monotonic() + 5
        while True:
            view = stack.activities.Get(g.GetActivityRequest(activity_id=activity_id), timeout=RPC_TIMEOUT)
            if json.loads(view.activity.content.state_json)["driverName"] == "John":
                break
            assert time.monotonic() < deadline, view
            time.sleep(0.02)
        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        assert screen.dynamic_island.mode == g.DynamicIsland.MODE_EXPANDED and screen.dynamic_island.reason == "alert"
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 60}), timeout=60)
        assert stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).dynamic_island.mode == g.DynamicIsland.MODE_COMPACT

        stale = push({"timestamp": now - 60, "event": "update", "content-state": tim})
        assert stale.is_successful   # Apple answers 200; the device drops it as older
        ended = push({"timestamp": now + 120, "event": "end", "content-state": john,
                      "dismissal-date": now + 60})
        assert ended.is_successful, ended.description
        deadline = time.monotonic() + 5
        while stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities:
            assert time.monotonic() < deadline, "the ended activity stayed on the Lock Screen"
            time.sleep(0.02)
        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        assert screen.dynamic_island.mode == g.DynamicIsland.MODE_NONE

        events = stack.events.List(g.ListEventsRequest(bundle_id=PIZZA), timeout=RPC_TIMEOUT).events
        pushes = [e.push_received for e in events if e.kind == "push_received"]
        assert [p.event for p in pushes] == ["update", "update", "end"]
        assert pushes[1].outcomes[0].kind == a.Outcome.KIND_DROPPED_AS_OLDER
        states = [(e.activity_changed.state.to) for e in events
                  if e.kind == "activity_changed" and e.activity_changed.HasField("state")]
        assert a.ACTIVITY_STATE_ENDED in states and states[-1] == a.ACTIVITY_STATE_DISMISSED, \
            "\n".join(f"{e.kind} {e.bundle_id} {e.summary}" for e in stack.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events[5:])
    finally:
        stack.stop()


class TickProvider(provider_pb2_grpc.WidgetProviderServicer):
    """A widget that asks to be reloaded every 10 minutes: 144 a day, more than the budget."""

    def Placeholder(self, request, context):
        return provider_pb2.PlaceholderResponse()

    def Snapshot(self, request, context):
        return provider_pb2.SnapshotResponse()

    def Timeline(self, request, context):
        after = type(request.now)()
        after.FromSeconds(request.now.seconds + 600)
        entry = timeline_pb2.TimelineEntry(date=request.now, view=_text(f"at {request.now.ToJsonString()}"))
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=[entry], after=after))


def test_a_day_of_budgets_with_clock_advance(tmp_path):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(TickProvider(), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    stack = Stack(tmp_path)
    try:
        manifest = manifest_pb2.AppManifest(bundle_id="com.example.ticker", default_endpoint=f"127.0.0.1:{port}",
                                            widgets=[manifest_pb2.WidgetKindDeclaration(kind="Tick")])
        stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
        placed = stack.widgets.Place(g.PlaceRequest(bundle_id="com.example.ticker", kind="Tick", family=SMALL),
                                     timeout=RPC_TIMEOUT)
        advanced = stack.clock.Advance(g.AdvanceRequest(by={"seconds": 24 * 3600}), timeout=120)
        assert advanced.now.ToJsonString() == "2026-01-02T09:00:00Z" and advanced.steps >= 1

        budget = stack.widgets.Budget(g.BudgetRequest(placement_id=placed.placement_id), timeout=RPC_TIMEOUT)
        assert (budget.used, budget.limit, budget.remaining) == (70, 70, 0)
        assert budget.waiting_for == t.WAIT_REASON_BUDGET

        events = stack.events.List(g.ListEventsRequest(limit=10000), timeout=RPC_TIMEOUT).events
        reloads = [e.reload_performed.reload for e in events if e.kind == "reload_performed"]
        assert reloads[0].reason == t.RELOAD_REASON_PLACED and not reloads[0].charged
        charged = [r for r in reloads if r.charged]
        assert len(charged) == 70 and all(r.reason == t.RELOAD_REASON_POLICY for r in charged)
        assert [r.budget.used for r in charged] == list(range(1, 71))
        # Every provider call brought a new entry, at the instant the clock reached it.
        changed = [e for e in events if e.kind == "entry_changed"]
        assert not changed[0].entry_changed.HasField("entry")     # the placeholder, at once
        assert len(changed[1:]) == len(reloads)
        assert [e.at.ToSeconds() for e in changed] == sorted(e.at.ToSeconds() for e in changed)
        # The app asks for a reload while the budget is spent: deferred, with the reason.
        answer = stack.widgets.Reload(g.ReloadRequest(placement_id=placed.placement_id), timeout=RPC_TIMEOUT)
        assert answer.placements[0].waiting_for == t.WAIT_REASON_BUDGET
        logged = stack.events.List(g.ListEventsRequest(kinds=["reload_requested"]), timeout=RPC_TIMEOUT).events
        assert "budget spent" in logged[-1].summary and "70/70 used" in logged[-1].summary
    finally:
        stack.stop()
        server.stop(None)


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
    import socket
    from test_timeline_service import Process, _binary

    def free_port():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    ports = {service: free_port() for service in ("timeline", "intent", "activity", "asset")}
    gateway = Process("glimpse-gateway-first", [
        _binary("glimpse-gateway"), "--port", "0", "--data-dir", str(tmp_path / "gateway"),
        "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z",
        *[arg for s, p in ports.items() for arg in (f"--{s}-address", f"127.0.0.1:{p}")]], tmp_path)
    channel = grpc.insecure_channel(f"127.0.0.1:{gateway.port}")
    stack = None
    try:
        from glimpse.gateway.v1 import gateway_pb2_grpc
        device = gateway_pb2_grpc.DeviceStub(channel)
        deadline = time.monotonic() + 5
        while len(device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # It answers with no service up, and says which it cannot reach.
        with pytest.raises(grpc.RpcError) as down:
            gateway_pb2_grpc.AppsStub(channel).Install(g.InstallRequest(manifest=rtl_manifest("127.0.0.1:1")),
                                                       timeout=RPC_TIMEOUT)
        assert down.value.code() == grpc.StatusCode.UNAVAILABLE and "glimpse-timeline" in down.value.details()

        time.sleep(1)
        stack = Stack.__new__(Stack)
        stack.tmp_path, stack.processes, stack.ports = tmp_path, {}, dict(ports)
        stack.activity_args, stack.apns_tls, stack.ca, stack.extra = [], False, None, {}
        for service in ports:
            stack.start(service)
        deadline = time.monotonic() + 10
        while device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services:
            assert time.monotonic() < deadline, device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).unreachable_services
            time.sleep(0.05)
        installed = gateway_pb2_grpc.AppsStub(channel).Install(
            g.InstallRequest(manifest=rtl_manifest(f"127.0.0.1:{provider.port}")), timeout=RPC_TIMEOUT)
        provider.app_group, provider.token = gateway_pb2_grpc.AppGroupStub(channel), installed.app_token
        placed = gateway_pb2_grpc.WidgetsStub(channel).Place(
            g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
        assert "Not checked in" in _shown(placed)
    finally:
        channel.close()
        gateway.stop()
        if stack:
            for process in stack.processes.values():
                process.stop()
