"""The seed demo apps end to end: `glimpse-demo <app>` processes (and the Python provider
example) with the five real services on loopback, each manifest installed from Demos/.
"""
import json
import subprocess
import sys
import time

import grpc
import pytest

from demo_apps import DEMOS, DemoApp, PythonProvider, place, state_json, texts, wait_texts
from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.asset.v1 import asset_pb2, asset_pb2_grpc  # noqa: E402
from glimpse.app.v1 import activity_configuration_pb2 as ac, activity_configuration_pb2_grpc  # noqa: E402
from glimpse.app.v1 import provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402
from glimpse.widget.v1 import family_pb2 as f, intent_pb2 as value_pb2  # noqa: E402

FIFTEEN_MINUTES = {"seconds": 15 * 60}


@pytest.fixture
def stack(tmp_path):
    stack = Stack(tmp_path)
    yield stack
    stack.stop()


@pytest.fixture
def apps():
    started = []
    yield started
    for app in started:
        assert app.stop() == 0, f"{app.process.name} did not stop cleanly:\n{app.process.stderr()}"


def render(stack, placement_id=0, activity_id=""):
    """A widget (or an activity's Lock Screen view) drawn as text by the gateway."""
    target = g.RenderRequest.TARGET_ACTIVITY if activity_id else g.RenderRequest.TARGET_WIDGET
    return stack.device.Render(g.RenderRequest(target=target, placement_id=placement_id, activity_id=activity_id,
                                               presentation="lockScreen", text=True, columns=100), timeout=RPC_TIMEOUT)


def start(apps, name, stack):
    app = DemoApp(name, stack)
    apps.append(app)
    return app


def test_pixar_moves_to_the_next_entry_every_fifteen_minutes_and_marks_watched(stack, apps):
    pixar = start(apps, "pixar", stack)
    installed = pixar.install()
    assert installed.widget_kinds == 1 and installed.intents == 2 and installed.assets == 5
    small = place(stack, pixar.bundle_id, "PixarFilmWidget", f.WIDGET_FAMILY_SYSTEM_SMALL)
    assert texts(small.entry.view) == ["Coco", "42% watched"] and small.entry.widget_url == "pixartracker://film/Coco"

    stack.clock.Advance(g.AdvanceRequest(by=FIFTEEN_MINUTES), timeout=60)
    assert texts(stack.widgets.Get(g.GetWidgetRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT).entry.view) \
        == ["Coco", "56% watched"]
    stack.clock.Advance(g.AdvanceRequest(by=FIFTEEN_MINUTES), timeout=60)
    wait_texts(stack, small.placement_id, "70% watched")

    medium = place(stack, pixar.bundle_id, "PixarFilmWidget", f.WIDGET_FAMILY_SYSTEM_MEDIUM)
    assert [e.id for e in medium.elements] == ["markWatched"]
    tapped = stack.widgets.Tap(g.TapRequest(placement_id=medium.placement_id, element="markWatched"), timeout=RPC_TIMEOUT)
    assert tapped.performed.HasField("performed"), tapped
    assert texts(tapped.widget.entry.view) == ["Up", "0% complete"]
    # perform() reloaded the kind (seed 000: reloadTimelines(ofKind:)): the small widget follows
    # the medium with the tap, no clock moved.
    assert sorted(tapped.performed.reloaded_placements) == sorted([small.placement_id, medium.placement_id])
    assert texts(stack.widgets.Get(g.GetWidgetRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT).entry.view)[0] == "Up"

    circular = place(stack, pixar.bundle_id, "PixarFilmWidget", f.WIDGET_FAMILY_ACCESSORY_CIRCULAR)
    assert circular.location.screen == t.SCREEN_LOCK
    gauge = circular.entry.view.stack.children[1].gauge
    assert gauge.label.symbol.system_name == "film" and gauge.value == 0


def test_pixar_playback_pauses_and_plays_from_its_live_activity(stack, apps):
    """The playback Live Activity's play/pause symbol is a Button(intent: TogglePlaybackIntent):
    the app's perform() updates the activity through the gateway's ActivityKit."""
    from google.protobuf import json_format
    pixar = start(apps, "pixar", stack)
    pixar.install()
    request = json_format.Parse((DEMOS / "pixar" / "playback.json").read_text(), a.RequestActivityRequest())
    activity = stack.activity_kit.Request(request, metadata=_bearer(pixar.token), timeout=RPC_TIMEOUT).activity
    assert json.loads(activity.content.state_json)["isPlaying"] is True

    paused = stack.activities.Tap(g.ActivityTapRequest(activity_id=activity.activity_id, element="playPause"), timeout=RPC_TIMEOUT)
    assert paused.performed.HasField("performed"), paused
    assert json.loads(paused.activity.content.state_json)["isPlaying"] is False
    lock = stack.device.Render(g.RenderRequest(target=g.RenderRequest.TARGET_ACTIVITY, activity_id=activity.activity_id,
                                               presentation="lockScreen"), timeout=RPC_TIMEOUT)
    assert "<title>play.fill</title>" in lock.svg

    played = stack.activities.Tap(g.ActivityTapRequest(activity_id=activity.activity_id, presentation="expanded",
                                                       element="playPause"), timeout=RPC_TIMEOUT)
    assert played.performed.HasField("performed"), played
    assert json.loads(played.activity.content.state_json)["isPlaying"] is True
    # Everything else in the content state is as it was.
    assert json.loads(played.activity.content.state_json)["currentScene"] == "The Land of the Dead"


def test_ride_the_lightning_air_both_widgets_follow_each_tap(stack, apps):
    rtl = start(apps, "rtlair", stack)   # started before the app is installed
    rtl.install(write_token=False)
    # No token yet: the App Group cannot be read, the default state shows.
    stack.app_group.Set(intent_pb2.SetRequest(app_group="group.net.insoc.rtlair", key="flightStatus",
                                              value=value_pb2.ParameterValue(string_value="checkedIn")),
                        metadata=_bearer(rtl.token), timeout=RPC_TIMEOUT)
    early = place(stack, rtl.bundle_id, "MediumWidget", f.WIDGET_FAMILY_SYSTEM_MEDIUM)
    assert "Not Checked In" in texts(early.entry.view) and not early.last_error.message
    rtl.write_token()   # the token arrives: the next reload reads it
    reload = stack.widgets.Reload(g.ReloadRequest(placement_id=early.placement_id), timeout=RPC_TIMEOUT)
    wait = reload.placements[0].next_reload_at.seconds - stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
    stack.clock.Advance(g.AdvanceRequest(by={"seconds": max(wait, 0) + 1}), timeout=60)   # when spacing allows it
    wait_texts(stack, early.placement_id, "Checked In ✓")
    stack.widgets.Remove(g.RemoveRequest(placement_id=early.placement_id), timeout=RPC_TIMEOUT)
    stack.app_group.Remove(intent_pb2.RemoveRequest(app_group="group.net.insoc.rtlair", key="flightStatus"),
                           metadata=_bearer(rtl.token), timeout=RPC_TIMEOUT)

    medium = place(stack, rtl.bundle_id, "MediumWidget", f.WIDGET_FAMILY_SYSTEM_MEDIUM)
    lock = place(stack, rtl.bundle_id, "LockScreenWidget", f.WIDGET_FAMILY_ACCESSORY_RECTANGULAR)
    assert "Not Checked In" in texts(medium.entry.view) and [e.id for e in medium.elements] == ["checkin"]
    assert texts(lock.entry.view)[-1] == "Not Checked In" and not lock.elements

    tapped = stack.widgets.Tap(g.TapRequest(placement_id=medium.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
    assert "Checked In ✓" in texts(tapped.widget.entry.view) and [e.id for e in tapped.widget.elements] == ["gate"]
    wait_texts(stack, lock.placement_id, "Checked In ✓")

    gate = stack.widgets.Tap(g.TapRequest(placement_id=medium.placement_id, element="gate"), timeout=RPC_TIMEOUT)
    assert "Cleared ⚡️" in texts(gate.widget.entry.view) and not gate.widget.elements
    wait_texts(stack, lock.placement_id, "Cleared ⚡️")
    stored = stack.app_group.Get(intent_pb2.GetRequest(app_group="group.net.insoc.rtlair", key="flightStatus"),
                                 metadata=_bearer(rtl.token), timeout=RPC_TIMEOUT)
    assert stored.entry.value.string_value == "gateConfirmed"
    opened = stack.widgets.Tap(g.TapRequest(placement_id=lock.placement_id), timeout=RPC_TIMEOUT)
    assert opened.opened_url == "rtlair://flight/RTL001"

    # A reinstall mints a new token: the app reads the token file again when refused.
    rtl.install()
    stack.app_group.Set(intent_pb2.SetRequest(app_group="group.net.insoc.rtlair", key="flightStatus",
                                              value=value_pb2.ParameterValue(string_value="checkedIn")),
                        metadata=_bearer(rtl.token), timeout=RPC_TIMEOUT)
    again = place(stack, rtl.bundle_id, "MediumWidget", f.WIDGET_FAMILY_SYSTEM_MEDIUM)
    assert "Checked In ✓" in texts(again.entry.view), texts(again.entry.view)


def test_daily_steps_on_the_lock_screen_every_fifteen_minutes(stack, apps):
    steps = start(apps, "steps", stack)
    steps.install()
    families = [f.WIDGET_FAMILY_ACCESSORY_CIRCULAR, f.WIDGET_FAMILY_ACCESSORY_RECTANGULAR, f.WIDGET_FAMILY_ACCESSORY_INLINE]
    placed = [place(stack, steps.bundle_id, "LockScreenWidget", family) for family in families]
    assert all(w.location.screen == t.SCREEN_LOCK for w in placed)
    circular, rectangular, inline = placed
    assert texts(circular.entry.view) == ["1k"]          # 09:00: two hours of walking
    assert texts(rectangular.entry.view) == ["Steps", "1,680 steps"]
    assert texts(inline.entry.view) == ["1,680 steps"]
    screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
    assert {w.placement_id for w in screen.lock_screen.widgets} == {w.placement_id for w in placed}

    stack.clock.Advance(g.AdvanceRequest(by=FIFTEEN_MINUTES), timeout=60)
    wait_texts(stack, rectangular.placement_id, "1,890 steps")
    rendered = render(stack, rectangular.placement_id)
    assert "1,890 steps" in rendered.text, rendered


def test_movieplanner_cycles_its_movies(stack, apps):
    movies = start(apps, "movieplanner", stack)
    assert movies.install().assets == 3
    small = place(stack, movies.bundle_id, "MoviePlannerwidget", f.WIDGET_FAMILY_SYSTEM_SMALL)
    assert texts(small.entry.view) == ["Avengers: Infinity War"]
    stack.clock.Advance(g.AdvanceRequest(by={"seconds": 60}), timeout=60)
    wait_texts(stack, small.placement_id, "Avengers: End Game")
    rendered = render(stack, small.placement_id)
    assert "End Game" in rendered.text, rendered.text   # the title wraps


def test_pizza_delivery_pushed_along_by_its_push_server(tmp_path, apps):
    stack = Stack(tmp_path, apns_tls=True)
    try:
        pizza = start(apps, "pizza", stack)
        pizza.install()
        now = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
        requested = stack.activity_kit.Request(a.RequestActivityRequest(
            attributes_type="PizzaDeliveryAttributes", attributes_json=json.dumps({"numberOfPizzas": 2, "totalAmount": "$99"}),
            content=a.Content(state_json=state_json("Tim", now, 15, "preparing")), token=True),
            metadata=_bearer(pizza.token), timeout=RPC_TIMEOUT)
        activity_id = requested.activity.activity_id
        deadline = time.monotonic() + RPC_TIMEOUT
        while not (device_token := stack.activities.Get(g.GetActivityRequest(activity_id=activity_id),
                                                         timeout=RPC_TIMEOUT).activity.push_token):
            assert time.monotonic() < deadline, "no push token for the activity"
            time.sleep(0.02)

        def push_server(steps):
            return subprocess.run(
                [sys.executable, str(DEMOS / "pizza" / "push_server.py"), "--device-token", device_token,
                 "--apns", f"127.0.0.1:{stack.ports['apns-tls']}", "--ca", stack.ca, "--now", str(now),
                 "--interval", "0", "--steps", steps], capture_output=True, text=True, timeout=60)

        def activity():
            return stack.activities.Get(g.GetActivityRequest(activity_id=activity_id), timeout=RPC_TIMEOUT).activity

        sent = push_server("1-3")   # baking, on the way, driver changed (with an alert)
        assert sent.returncode == 0, sent.stdout + sent.stderr
        assert sent.stdout.count("-> 200") == 3, sent.stdout
        deadline = time.monotonic() + RPC_TIMEOUT
        while json.loads(activity().content.state_json)["driverName"] != "John":
            assert time.monotonic() < deadline, activity()
            time.sleep(0.02)
        current = activity()
        assert current.last_alert.title == "Driver changed"
        assert stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).dynamic_island.mode == g.DynamicIsland.MODE_EXPANDED

        # The app's views of that state, from its ActivityConfiguration (the gateway may not
        # call it yet): the new driver everywhere, a countdown to the new time.
        with grpc.insecure_channel(pizza.endpoint) as channel:
            views = activity_configuration_pb2_grpc.ActivityConfigurationStub(channel).Views(ac.ActivityViewsRequest(
                activity_id=activity_id, attributes_type=current.attributes_type, attributes_json=current.attributes_json,
                state_json=current.content.state_json, now={"seconds": now}), timeout=RPC_TIMEOUT).views
        assert texts(views.lock_screen)[0] == "John is on the way!"
        assert views.lock_screen.stack.children[0].stack.children[0].image.asset_name == "John"
        island = views.dynamic_island
        assert texts(island.expanded_center.view) == ["John is on his way!"]
        assert texts(island.expanded_leading.view) == ["2 Pizzas"]
        for region in (island.compact_leading, island.compact_trailing, island.minimal):
            assert region.WhichOneof("kind")
        trailing = island.compact_trailing.timer_text.timer_interval
        assert trailing.end.seconds == now + 60 * 60

        # The gateway draws the Lock Screen from those views (where it calls the app).
        drawn = render(stack, activity_id=activity_id)
        assert "John is on the way!" in drawn.text, drawn.text

        ended = push_server("4-5")  # almost there, then delivered and dismissed
        assert ended.returncode == 0, ended.stdout + ended.stderr
        deadline = time.monotonic() + RPC_TIMEOUT
        while stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities:
            assert time.monotonic() < deadline, "the delivered pizza stayed on the Lock Screen"
            time.sleep(0.02)
        events = stack.events.List(g.ListEventsRequest(bundle_id=pizza.bundle_id), timeout=RPC_TIMEOUT).events
        pushes = [e.push_received for e in events if e.kind == "push_received"]
        assert [p.event for p in pushes] == ["update"] * 4 + ["end"]
        assert all(p.outcomes[0].kind == a.Outcome.KIND_APPLIED for p in pushes), pushes
        states = [e.activity_changed.state.to for e in events
                  if e.kind == "activity_changed" and e.activity_changed.HasField("state")]
        assert a.ACTIVITY_STATE_ENDED in states and states[-1] == a.ACTIVITY_STATE_DISMISSED
    finally:
        stack.stop()


def test_the_posters_a_widget_shows_are_pinned_at_glimpse_asset(stack, apps):
    """glimpse-timeline pins the images of each widget's current entry at glimpse-asset (so
    the byte budget's LRU never evicts what is on screen) and releases them as the entry
    moves on or the widget goes."""
    movies = start(apps, "movieplanner", stack)
    movies.install()
    small = place(stack, movies.bundle_id, "MoviePlannerwidget", f.WIDGET_FAMILY_SYSTEM_SMALL)
    with grpc.insecure_channel(f"127.0.0.1:{stack.ports['asset']}") as channel:
        assets = asset_pb2_grpc.AssetServiceStub(channel)

        def pinned():
            return {name for name in ("infinity", "endgame", "gog3")
                    if assets.Stat(asset_pb2.StatRequest(bundle_id=movies.bundle_id, name=name),
                                   timeout=RPC_TIMEOUT).asset.pinned}

        def wait_pinned(expected):
            deadline = time.monotonic() + RPC_TIMEOUT
            while (now := pinned()) != expected:
                assert time.monotonic() < deadline, (now, expected)
                time.sleep(0.02)

        wait_pinned({"infinity"})
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 60}), timeout=60)
        wait_texts(stack, small.placement_id, "Avengers: End Game")
        wait_pinned({"endgame"})
        stack.widgets.Remove(g.RemoveRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)
        wait_pinned(set())


def test_the_python_provider_answers_a_placement_as_the_swift_one_does(stack, apps, tmp_path):
    python = PythonProvider(tmp_path)
    try:
        swift = start(apps, "steps", stack)
        swift.install(endpoint=python.endpoint)   # the same manifest, pointed at the Python process
        rectangular = place(stack, swift.bundle_id, "LockScreenWidget", f.WIDGET_FAMILY_ACCESSORY_RECTANGULAR)
        assert texts(rectangular.entry.view) == ["Steps", "1,680 steps"] and not rectangular.last_error.message
        stack.clock.Advance(g.AdvanceRequest(by=FIFTEEN_MINUTES), timeout=60)
        wait_texts(stack, rectangular.placement_id, "1,890 steps")

        # Contract: for every family, the Python provider's answer is the Swift one's.
        for family in (f.WIDGET_FAMILY_ACCESSORY_CIRCULAR, f.WIDGET_FAMILY_ACCESSORY_RECTANGULAR, f.WIDGET_FAMILY_ACCESSORY_INLINE):
            request = provider_pb2.TimelineRequest(widget=provider_pb2.WidgetRef(kind="LockScreenWidget", placement_id=1),
                                                   context=provider_pb2.TimelineProviderContext(family=family),
                                                   now={"seconds": 1_767_258_000})
            answers = []
            for endpoint in (python.endpoint, f"127.0.0.1:{swift.port}"):
                with grpc.insecure_channel(endpoint) as channel:
                    answers.append(provider_pb2_grpc.WidgetProviderStub(channel).Timeline(request, timeout=RPC_TIMEOUT))
            assert answers[0] == answers[1], f"family {family}:\n{answers[0]}\n!=\n{answers[1]}"
    finally:
        assert python.stop() == 0
