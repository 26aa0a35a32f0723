"""GlimpseKit as a team uses it: Examples/SeedWidgets, a package of its own that depends on
GlimpseKit by path, holds seed 001's and seed 002's Swift as the articles write it (imports
changed only). Its executables run against a real stack: the manifest comes from the
bundle (`<app> manifest`), `glimpse install` gives the token, and the device shows what the
articles' code draws. Seed 002's ActivityKit calls (`Activity.request`, `update(using:)`,
`end(dismissalPolicy:)`) run in the app process, performed as App Intents through its
IntentHandler by stock grpcio (as Shortcuts would run them)."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import time

import grpc

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_python_sdk import sdk_environment
from test_timeline_service import RPC_TIMEOUT, _binary

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.app.v1 import intent_handler_pb2, intent_handler_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2 as i  # noqa: E402
from glimpse.widget.v1 import intent_pb2 as v  # noqa: E402
from glimpse.widget.v1 import family_pb2 as f  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "Examples" / "SeedWidgets"


def _example(product):
    """The example's executable, built with `swift build` in its own package if missing
    (scripts/test.sh builds it before the peers run)."""
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    bin_path = subprocess.run([swift, "build", "--package-path", str(PACKAGE), "--show-bin-path"], check=True,
                              capture_output=True, text=True).stdout.strip()
    binary = pathlib.Path(bin_path) / product
    if not binary.exists():
        subprocess.run([swift, "build", "--package-path", str(PACKAGE)], check=True, timeout=3600)
    return str(binary)


class App:
    """An example executable serving its bundle on a free port; its token in a file."""

    def __init__(self, tmp_path, product, bundle_id, gateway):
        self.binary = _example(product)
        self.token_file = tmp_path / f"{product}.token"
        # HOME of its own: nothing of the app's may land in the runner's.
        env = dict(os.environ, GLIMPSE_PORT="0", GLIMPSE_GATEWAY=gateway, GLIMPSE_TOKEN_FILE=str(self.token_file),
                   HOME=str(tmp_path))
        self.process = subprocess.Popen([self.binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True)
        line = self.process.stdout.readline()      # readiness: printed once bound
        assert line.startswith("listening on port "), line
        self.port = int(line.split()[-1])
        self.bundle_id = bundle_id

    def manifest(self, tmp_path, assets=(), app_groups=()):
        """`<app> manifest`: the bundle's kinds, families and intents; assets added by hand."""
        groups = [arg for group in app_groups for arg in ("--app-group", group)]
        out = subprocess.run([self.binary, "manifest", "--bundle-id", self.bundle_id,
                              "--endpoint", f"127.0.0.1:{self.port}", *groups], check=True, capture_output=True,
                             text=True, timeout=60).stdout
        manifest = json.loads(out)
        if assets:
            manifest["assets"] = list(assets)
        path = tmp_path / f"{self.bundle_id}.json"
        path.write_text(json.dumps(manifest))
        return manifest, path

    def stop(self):
        self.process.kill()
        self.process.wait(30)


def _install(stack, app, manifest_path):
    """`glimpse install`: the token it prints is the one the app process reads."""
    done = subprocess.run([_binary("glimpse"), "install", "--gateway", f"127.0.0.1:{stack.ports['gateway']}",
                           str(manifest_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    app.token_file.write_text(done.stdout.strip())


def _seconds(timestamp):
    return timestamp.seconds + timestamp.nanos / 1e9


def _cli(gateway):
    """`glimpse <args> --gateway …`, its output; a failure fails the test with what it said."""
    glimpse = _binary("glimpse")

    def cli(*args):
        done = subprocess.run([glimpse, *args, "--gateway", gateway], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout
    return cli


def test_seed_001_movie_planner_as_the_article_writes_it(tmp_path):
    # The article dates its entries with Date(): the device follows the system clock.
    stack = Stack(tmp_path, clock="system")
    app = App(tmp_path, "MoviePlanner", "com.example.movieplanner", f"127.0.0.1:{stack.ports['gateway']}")
    try:
        assets = tmp_path / "assets"
        shutil.copytree(ROOT / "Demos" / "movieplanner" / "assets", assets)
        manifest, path = app.manifest(tmp_path, [
            {"name": name, "path": f"assets/{name}.png", "use": "USE_WIDGET"} for name in ("infinity", "endgame", "gog3")])
        assert manifest["widgets"] == [{
            "kind": "MoviePlannerwidget", "displayName": "My Widget", "description": "This is an example widget.",
            "supportedFamilies": ["WIDGET_FAMILY_SYSTEM_SMALL", "WIDGET_FAMILY_SYSTEM_MEDIUM",
                                  "WIDGET_FAMILY_SYSTEM_LARGE"]}]
        _install(stack, app, path)
        widget = stack.widgets.Place(g.PlaceRequest(bundle_id=app.bundle_id, kind="MoviePlannerwidget",
                                                    family=f.WIDGET_FAMILY_SYSTEM_MEDIUM), timeout=RPC_TIMEOUT)
        status = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=widget.placement_id), timeout=RPC_TIMEOUT)
        # getTimeline: one entry per movie, a minute apart, .atEnd.
        entries = status.timeline.entries
        layers = entries[0].view.stack
        assert layers.axis == 2 and len(layers.children) == 3          # the article's ZStack of three
        poster = layers.children[0]
        assert poster.image.asset_name == "infinity" and poster.image.resizable
        assert poster.modifiers[0].mask.corner_radius == 10
        title = layers.children[2].stack.children[1]
        assert title.text.content == "Avengers: Infinity War"
        assert [m.WhichOneof("kind") for m in title.modifiers] == ["padding", "font", "foreground_style"]
        texts = [e.view.stack.children[2].stack.children[1].text.content for e in entries]
        assert texts == ["Avengers: Infinity War", "Avengers: End Game", "Guardians of the Galaxy Volume 3"]
        # A minute apart, each from its own Date(): at least 60 s, plus however long the app
        # took between two Date() calls (never asserted: a busy machine may stall there).
        gaps = [_seconds(entries[i + 1].date) - _seconds(entries[i].date) for i in range(2)]
        assert all(gap >= 60 - 1e-6 for gap in gaps), gaps      # 1e-6: the Date → Timestamp rounding
        assert status.timeline.WhichOneof("reload_policy") == "at_end", status.timeline
        shown = subprocess.run([_binary("glimpse"), "show", str(widget.placement_id), "--gateway",
                                f"127.0.0.1:{stack.ports['gateway']}"], capture_output=True, text=True, timeout=60)
        assert "Avengers: Infinity War" in shown.stdout, shown.stdout + shown.stderr
    finally:
        app.stop()
        stack.stop()


def _perform(app, intent_type):
    with grpc.insecure_channel(f"127.0.0.1:{app.port}") as channel:
        answer = intent_handler_pb2_grpc.IntentHandlerStub(channel).Perform(
            intent_handler_pb2.PerformRequest(intent_type=intent_type), timeout=RPC_TIMEOUT)
    assert answer.WhichOneof("outcome") == "succeeded", answer


def _wait_for(stack, check, what):
    """The article's update and end run in a Task of the app: awaited on the device's list."""
    deadline = time.monotonic() + 120
    while True:
        activities = stack.activities.List(g.ListActivitiesRequest(include_dismissed=True),
                                           timeout=RPC_TIMEOUT).activities
        if check(activities):
            return activities
        assert time.monotonic() < deadline, f"{what}: {activities}"
        time.sleep(0.05)


def test_seed_002_pizza_delivery_live_activity_as_the_article_writes_it(tmp_path):
    stack = Stack(tmp_path, clock="system")
    app = App(tmp_path, "PizzaDelivery", "com.example.pizza", f"127.0.0.1:{stack.ports['gateway']}")
    try:
        manifest, path = app.manifest(tmp_path)
        assert manifest["activityAttributes"] == [{"typeName": "PizzaDeliveryAttributes"}]
        assert sorted(i["type"] for i in manifest["intents"]) == [
            "StartDeliveryIntent", "StopDeliveryIntent", "UpdateDeliveryIntent"]
        _install(stack, app, path)

        # startDeliveryPizza(): Activity<PizzaDeliveryAttributes>.request(attributes:contentState:pushType:)
        _perform(app, "StartDeliveryIntent")
        [started] = _wait_for(stack, lambda acts: len(acts) == 1, "the requested activity")
        activity = started.activity
        assert activity.attributes_type == "PizzaDeliveryAttributes"
        assert json.loads(activity.attributes_json) == {"numberOfPizzas": 1, "totalAmount": "$99"}
        state = json.loads(activity.content.state_json)
        assert state["driverName"] == "Tim"
        low, high = state["estimatedDeliveryTime"]           # ClosedRange<Date>, seconds since 2001
        assert high - low >= 15 * 60 - 1e-6                      # Date()...Date() + 15 min
        # The article's views: the Lock Screen and the Dynamic Island from its closures.
        def render(presentation):
            return stack.device.Render(g.RenderRequest(
                target=g.RenderRequest.TARGET_ACTIVITY, activity_id=activity.activity_id, presentation=presentation,
                text=True, columns=100), timeout=RPC_TIMEOUT).text
        lock = render("lockScreen")
        assert "Tim is on the way!" in lock and "You've already paid: $99 + $9.9 Delivery Fee" in lock, lock
        expanded = render("expanded")
        assert "Pizzas" in expanded and "Tim is on his way!" in expanded and "Contact driver" in expanded, expanded

        # updateDeliveryPizza(): for activity in Activity<…>.activities { await activity.update(using:) }
        _perform(app, "UpdateDeliveryIntent")
        _wait_for(stack, lambda acts: json.loads(acts[0].activity.content.state_json)["driverName"] == "John",
                  "the driver reassigned")
        # stopDeliveryPizza(): end(dismissalPolicy: .immediate)
        _perform(app, "StopDeliveryIntent")
        _wait_for(stack, lambda acts: acts[0].activity.state == a.ACTIVITY_STATE_DISMISSED, "the activity dismissed")
    finally:
        app.stop()
        stack.stop()


def test_the_swift_app_page_runs_as_written(tmp_path):
    """docs/swift-app.md: its Swift is Examples/SeedWidgets' Counter, byte for byte, and its
    shell steps (manifest, install, place, tap) do what the page says on a real stack."""
    page = (ROOT / "docs" / "swift-app.md").read_text()
    blocks = page.split("```swift\n")[1:]
    swift = [block.split("```", 1)[0] for block in blocks]
    assert swift[1] == (PACKAGE / "Sources" / "Counter" / "Counter.swift").read_text()
    manifest_in_page = swift[0]
    assert '.product(name: "GlimpseKit", package: "glimpse")' in manifest_in_page

    stack = Stack(tmp_path, clock="system")
    gateway = f"127.0.0.1:{stack.ports['gateway']}"
    app = App(tmp_path, "Counter", "com.example.counter", gateway)
    try:
        _, path = app.manifest(tmp_path)
        _install(stack, app, path)
        cli = _cli(gateway)
        placed = cli("place", "com.example.counter", "Counter", "--family", "systemMedium")
        assert "Count 0" in placed and "tap to add" in placed, placed
        tapped = cli("tap", "1", "add")
        assert "Count 1" in tapped, tapped
        intents = stack.events.List(g.ListEventsRequest(kinds=["intent_performed"]), timeout=RPC_TIMEOUT).events
        assert [e.kind for e in intents] == ["intent_performed"]
    finally:
        app.stop()
        stack.stop()


def test_seed_003_daily_steps_in_the_three_accessory_families(tmp_path):
    stack = Stack(tmp_path, clock="system")
    gateway = f"127.0.0.1:{stack.ports['gateway']}"
    app = App(tmp_path, "DailySteps", "com.example.steps", gateway)
    try:
        manifest, path = app.manifest(tmp_path)
        assert manifest["widgets"][0]["supportedFamilies"] == [
            "WIDGET_FAMILY_ACCESSORY_CIRCULAR", "WIDGET_FAMILY_ACCESSORY_RECTANGULAR", "WIDGET_FAMILY_ACCESSORY_INLINE"]
        # glimpse verify passes the article's app, as the device takes it.
        verified = subprocess.run([_binary("glimpse"), "verify", str(path)], capture_output=True, text=True,
                                  timeout=300)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        _install(stack, app, path)
        shown = {}
        for family in ("ACCESSORY_CIRCULAR", "ACCESSORY_RECTANGULAR", "ACCESSORY_INLINE"):
            widget = stack.widgets.Place(g.PlaceRequest(
                bundle_id=app.bundle_id, kind="LockScreenWidget", family=getattr(f, f"WIDGET_FAMILY_{family}")),
                timeout=RPC_TIMEOUT)
            drawn = stack.device.Render(g.RenderRequest(
                target=g.RenderRequest.TARGET_WIDGET, placement_id=widget.placement_id, text=True, svg=True),
                timeout=RPC_TIMEOUT)
            shown[family] = drawn.text + drawn.svg      # the one-line inline widget: its text is in the SVG
            status = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=widget.placement_id), timeout=RPC_TIMEOUT)
            # .after(15 minutes from now): the article's refresh.
            after = _seconds(status.timeline.after) - _seconds(status.timeline.entries[0].date)
            assert after >= 15 * 60 - 1e-6, status.timeline     # .now, then .now + 15 minutes
        assert "8k" in shown["ACCESSORY_CIRCULAR"], shown
        assert "8420 steps" in shown["ACCESSORY_RECTANGULAR"] and "Steps" in shown["ACCESSORY_RECTANGULAR"], shown
        assert "8420 steps" in shown["ACCESSORY_INLINE"], shown
    finally:
        app.stop()
        stack.stop()


def test_seed_004_rtl_air_check_in_and_gate_from_the_widget(tmp_path):
    """The article's intents set FlightStore.status, whose setter calls
    WidgetCenter.shared.reloadAllTimelines(): inside perform() that is the tap's reload. Its
    UserDefaults(suiteName: "group.net.insoc.rtlair") is the device's App Group: what the
    intents wrote is there for the app's other processes (and this script) to read, and what
    they write there the widget shows."""
    stack = Stack(tmp_path, clock="system")
    gateway = f"127.0.0.1:{stack.ports['gateway']}"
    app = App(tmp_path, "RTLAir", "net.example.rtlair", gateway)
    group = "group.net.insoc.rtlair"
    try:
        manifest, path = app.manifest(tmp_path, app_groups=[group])
        assert manifest["appGroups"] == [group]
        assert sorted(i["type"] for i in manifest["intents"]) == ["CheckInIntent", "ConfirmGateIntent"]
        assert [w["kind"] for w in manifest["widgets"]] == ["MediumWidget", "LockScreenWidget"]
        _install(stack, app, path)
        cli = _cli(gateway)
        placed = cli("place", "net.example.rtlair", "MediumWidget", "--family", "systemMedium")
        assert "Not Checked In" in placed, placed
        lock = cli("place", "net.example.rtlair", "LockScreenWidget", "--family", "accessoryRectangular")
        assert "RTL 001" in lock, lock
        assert "Checked In ✓" in cli("tap", "1", "checkin")
        # ConfirmGateIntent shows only after the check-in; the process learnt it when it drew it.
        assert "Cleared" in cli("tap", "1", "gate")
        # reloadAllTimelines() in perform(): the Lock Screen widget reloaded with the tap too.
        assert "Cleared" in cli("show", "2")
        kinds = [e.kind for e in stack.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events]
        assert kinds.count("intent_performed") == 2, kinds
        # The App Group on the device holds what the intents wrote ...
        bearer = [("authorization", f"Bearer {app.token_file.read_text().strip()}")]
        got = stack.app_group.Get(i.GetRequest(app_group=group, key="flightStatus"), metadata=bearer,
                                  timeout=RPC_TIMEOUT)
        assert got.entry.value.string_value == "gateConfirmed", got
        # ... and what the app's other process writes there, the widget's next timeline shows
        # (a widget placed anew: its first timeline is asked at once, not spaced as a reload).
        stack.app_group.Set(i.SetRequest(app_group=group, key="flightStatus",
                                          value=v.ParameterValue(string_value="checkedIn")),
                            metadata=bearer, timeout=RPC_TIMEOUT)
        again = cli("place", "net.example.rtlair", "MediumWidget", "--family", "systemMedium")
        assert "Checked In ✓" in again and "Gate M72" in again, again
    finally:
        app.stop()
        stack.stop()


def test_seed_000_pixar_mark_watched_moves_to_the_next_film(tmp_path):
    """The article's MarkFilmWatchedIntent (its @Parameters set by the Button) marks the film
    watched through FilmStore, whose reloadTimelines(ofKind:) is part of the tap."""
    stack = Stack(tmp_path, clock="system")
    gateway = f"127.0.0.1:{stack.ports['gateway']}"
    app = App(tmp_path, "PixarTracker", "com.example.pixar", gateway)
    try:
        manifest, path = app.manifest(tmp_path)
        assert manifest["widgets"][0]["kind"] == "PixarFilmWidget"
        assert manifest["activityAttributes"] == [{"typeName": "FilmPlaybackAttributes"}]
        assert [i["type"] for i in manifest["intents"]] == ["MarkFilmWatchedIntent"]
        _install(stack, app, path)
        cli = _cli(gateway)
        placed = cli("place", "com.example.pixar", "PixarFilmWidget", "--family", "systemMedium")
        assert "Coco" in placed and "42% complete" in placed, placed
        status = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=1), timeout=RPC_TIMEOUT)
        assert len(status.timeline.entries) == 5          # the next hour in 15-minute increments
        tapped = cli("tap", "1", "MarkFilmWatchedIntent")
        assert "Up" in tapped and "Coco" not in tapped, tapped
        performed = stack.events.List(g.ListEventsRequest(kinds=["intent_performed"]), timeout=RPC_TIMEOUT).events
        assert len(performed) == 1 and performed[0].intent_performed, performed
    finally:
        app.stop()
        stack.stop()


def test_the_writing_an_app_page_tests_the_swift_counter_as_written(tmp_path):
    """docs/writing-an-app.md's pytest file, as the page has it, in a fresh environment with
    the SDK installed, against the Counter example the Swift page builds: green; with another
    app in the Counter's place it goes red (it tests the app, not itself)."""
    page = (ROOT / "docs" / "writing-an-app.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert len(blocks) == 1, blocks
    python = sdk_environment(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    (project / "test_counter.py").write_text(blocks[0])
    bin_dir = str(pathlib.Path(_binary("glimpse")).parent)

    def pytest_run(app):
        env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "COUNTER_BIN": app}
        return subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--glimpse-bin", bin_dir],
                              cwd=project, capture_output=True, text=True, env=env, timeout=600)

    green = pytest_run(_example("Counter"))
    assert green.returncode == 0 and "1 passed" in green.stdout, green.stdout[-4000:] + green.stderr[-2000:]
    # Another app (no Counter kind) where the Counter should be: the page's test goes red.
    (tmp_path / "stuck").write_text(f"#!/bin/sh\nexec {_example('MoviePlanner')} \"$@\"\n")
    (tmp_path / "stuck").chmod(0o755)
    red = pytest_run(str(tmp_path / "stuck"))
    assert red.returncode != 0, red.stdout[-4000:]
