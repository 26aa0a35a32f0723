"""One app cannot hurt another: an app whose endpoint hangs holds up nothing of the others.

Real processes on a system-clock stack (the way a team runs it by hand): a "slow" app whose
provider (or Live Activity views) answers only when the test lets it, beside a "quick" app.
Nothing here measures time: each test shows that the quick app's work is done *while* the
slow app's call is still held, which a stack with head-of-line blocking never does.
"""
import json
import threading
import time
from concurrent import futures

import grpc
import pytest

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.app.v1 import activity_configuration_pb2 as ac, activity_configuration_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.widget.v1 import activity_views_pb2 as av, family_pb2, timeline_pb2, view_pb2  # noqa: E402

SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
# Bounds on waiting for something that must happen; generous, as a busy CI runner needs.
HELD = 120
SETTLE = 60


def _text(content, view_id=""):
    return view_pb2.View(id=view_id, text=view_pb2.Text(content=content))


class Provider(provider_pb2_grpc.WidgetProviderServicer):
    """A WidgetProvider whose entries say `label 0`, `label 1`, … one second apart; with
    `held`, each call waits for the test to set `release` first."""

    def __init__(self, label, entries=1, held=False):
        self.label, self.entries, self.held = label, entries, held
        self.called = threading.Event()
        self.release = threading.Event()
        self.answered = threading.Event()

    def Timeline(self, request, context):
        self.called.set()
        if self.held:
            assert self.release.wait(HELD), "the test never released the held call"
        entries = []
        for i in range(self.entries):
            date = type(request.now)(seconds=request.now.seconds + i, nanos=request.now.nanos)
            entries.append(timeline_pb2.TimelineEntry(date=date, view=_text(f"{self.label} {i}")))
        self.answered.set()
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=entries, never=timeline_pb2.Timeline.Never()))


def _serve(servicer, add):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    add(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def _install_widget_app(stack, bundle, kind, port):
    manifest = manifest_pb2.AppManifest(
        bundle_id=bundle, display_name=bundle, default_endpoint=f"127.0.0.1:{port}",
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=kind, display_name=kind, supported_families=[SMALL])])
    return stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token


def _shows(stack, placement_id):
    widget = stack.widgets.Get(g.GetWidgetRequest(placement_id=placement_id), timeout=RPC_TIMEOUT)
    return "" if widget.placeholder else widget.entry.view.text.content


def _until(condition, what, bound=SETTLE):
    deadline = time.monotonic() + bound
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


@pytest.fixture
def system_stack(tmp_path):
    stack = Stack(tmp_path, clock="system")
    yield stack
    stack.stop()


def test_a_hanging_provider_holds_up_no_other_apps_widgets(system_stack):
    """The slow app's provider hangs (inside the 30 s provider timeout); meanwhile a quick
    app's new widget shows its first entry, and its entries due later go out on time."""
    stack = system_stack
    slow, quick = Provider("slow", held=True), Provider("quick", entries=3)
    servers = [_serve(p, provider_pb2_grpc.add_WidgetProviderServicer_to_server) for p in (slow, quick)]
    try:
        _install_widget_app(stack, "com.example.slowpoke", "SlowWidget", servers[0][1])
        _install_widget_app(stack, "com.example.quick", "QuickWidget", servers[1][1])
        placing = threading.Thread(target=lambda: stack.widgets.Place(
            g.PlaceRequest(bundle_id="com.example.slowpoke", kind="SlowWidget", family=SMALL), timeout=RPC_TIMEOUT))
        placing.start()
        assert slow.called.wait(SETTLE), "the slow app's provider was never called"

        placed = stack.widgets.Place(g.PlaceRequest(bundle_id="com.example.quick", kind="QuickWidget", family=SMALL),
                                     timeout=RPC_TIMEOUT)
        assert not slow.release.is_set()
        assert not placed.placeholder, "the quick app's new widget waited behind the slow app's provider"
        assert placed.entry.view.text.content == "quick 0"
        # Its entries two seconds on come due while the slow call is still out.
        _until(lambda: _shows(stack, placed.placement_id) == "quick 2", "the quick widget's entries stopped")
        assert not slow.answered.is_set()

        slow.release.set()
        placing.join(SETTLE)
        slow_id = next(w.placement_id for w in stack.widgets.List(g.ListWidgetsRequest(), timeout=RPC_TIMEOUT).widgets
                       if w.bundle_id == "com.example.slowpoke")
        _until(lambda: _shows(stack, slow_id) == "slow 0", "the slow widget never showed its entry")
    finally:
        for server, _ in servers:
            server.stop(None)


class Views(activity_configuration_pb2_grpc.ActivityConfigurationServicer):
    """Live Activity views; every app's first call waits until the other app's call has
    arrived too (a rendezvous), which only calls made side by side ever pass."""

    def __init__(self, name, arrived, everyone):
        self.name, self.arrived, self.everyone = name, arrived, everyone

    def Views(self, request, context):
        self.arrived[self.name].set()
        for event in self.everyone.values():
            event.wait(HELD)
        return ac.ActivityViewsResponse(views=av.ActivityViews(
            lock_screen=_text(f"{self.name} on the way", "headline"),
            dynamic_island=av.DynamicIslandViews(compact_leading=_text(self.name), compact_trailing=_text("·"),
                                                 minimal=_text(self.name[0]))))


def test_one_apps_live_activity_views_are_asked_beside_anothers(tmp_path):
    """The Lock Screen with two apps' Live Activities: the gateway asks both apps for their
    views at once, so each app's slowness costs only its own activity (asked one after the
    other, the first call would wait for the second until the device's deadline)."""
    stack = Stack(tmp_path)
    arrived = {"pizza": threading.Event(), "taxi": threading.Event()}
    servers = {}
    try:
        for name in arrived:
            server, port = _serve(Views(name, arrived, arrived),
                                  activity_configuration_pb2_grpc.add_ActivityConfigurationServicer_to_server)
            servers[name] = server
            bundle = f"com.example.{name}"
            manifest = manifest_pb2.AppManifest(
                bundle_id=bundle, display_name=name, default_endpoint=f"127.0.0.1:{port}",
                activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="TripAttributes")])
            token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
            stack.activity_kit.Request(a.RequestActivityRequest(
                attributes_type="TripAttributes", attributes_json="{}",
                content=a.Content(state_json=json.dumps({"stop": 1}))), metadata=_bearer(token), timeout=RPC_TIMEOUT)
        _until(lambda: len(stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities) == 2,
               "the two activities never reached the Lock Screen")
        rendering = stack.device.Render(g.RenderRequest(target=g.RenderRequest.TARGET_LOCK_SCREEN, text=True),
                                        timeout=RPC_TIMEOUT)
        assert "pizza on the way" in rendering.text and "taxi on the way" in rendering.text, rendering.text
    finally:
        stack.stop()
        for server in servers.values():
            server.stop(None)
