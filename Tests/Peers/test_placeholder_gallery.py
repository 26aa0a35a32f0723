"""The app's own placeholder and snapshot, where iOS uses them: a new widget shows the app's
placeholder(in:) (drawn redacted) until its first timeline arrives, and the widget gallery
(`Widgets.Gallery`, `glimpse gallery`) previews each kind in each family with the app's
getSnapshot(in:) and `isPreview` true, placing nothing."""
import subprocess
import threading
import time
from concurrent import futures

import grpc

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT, _bearer, _binary

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402
from glimpse.widget.v1 import family_pb2 as f, timeline_pb2, view_pb2  # noqa: E402

APP = "com.example.scores"
BARE = "com.example.bare"           # implements Timeline only, as many providers do
KIND = "ScoreWidget"
FAMILIES = [f.WIDGET_FAMILY_SYSTEM_SMALL, f.WIDGET_FAMILY_SYSTEM_MEDIUM, f.WIDGET_FAMILY_ACCESSORY_CIRCULAR]


def _entry(text, date=None):
    return timeline_pb2.TimelineEntry(date=date, view=view_pb2.View(text=view_pb2.Text(content=text)))


class ScoresProvider(provider_pb2_grpc.WidgetProviderServicer):
    """Placeholder and Snapshot answer at once; Timeline waits until `release` is set."""

    def __init__(self):
        self.release = threading.Event()
        self.snapshots = []

    def Placeholder(self, request, context):
        return provider_pb2.PlaceholderResponse(entry=_entry("Home 0 – Away 0"))

    def Snapshot(self, request, context):
        self.snapshots.append((request.context.is_preview, request.widget.placement_id, request.context.family,
                               request.context.display_size.width, request.context.bundle_id))
        return provider_pb2.SnapshotResponse(entry=_entry(f"sample {f.WidgetFamily.Name(request.context.family)}"))

    def Timeline(self, request, context):
        self.release.wait(60)
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(
            entries=[_entry("Home 2 – Away 1", request.now)], never=timeline_pb2.Timeline.Never()))


class BareProvider(provider_pb2_grpc.WidgetProviderServicer):
    def Timeline(self, request, context):
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(
            entries=[_entry("bare", request.now)], never=timeline_pb2.Timeline.Never()))


def _serve(servicer):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def _install(stack, bundle, port):
    return stack.apps.Install(g.InstallRequest(manifest=manifest_pb2.AppManifest(
        bundle_id=bundle, display_name=bundle, default_endpoint=f"127.0.0.1:{port}",
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=KIND, display_name="Scores", description="Live scores",
                                                   supported_families=FAMILIES)])), timeout=RPC_TIMEOUT).app_token


def test_a_new_widget_shows_the_apps_placeholder_until_its_first_timeline(tmp_path):
    scores, bare = ScoresProvider(), BareProvider()
    servers = [_serve(scores), _serve(bare)]
    # Real time: on a manual clock a provider call takes no device time, so the answers of
    # one instant go in together and the placeholder shows only in the event log.
    stack = Stack(tmp_path, clock="system")
    try:
        _install(stack, APP, servers[0][1])
        _install(stack, BARE, servers[1][1])
        placed = {}
        placing = threading.Thread(target=lambda: placed.setdefault("widget", stack.widgets.Place(
            g.PlaceRequest(bundle_id=APP, kind=KIND, family=f.WIDGET_FAMILY_SYSTEM_SMALL), timeout=120)))
        placing.start()
        deadline = time.monotonic() + 60
        while True:
            widgets = stack.widgets.List(g.ListWidgetsRequest(bundle_id=APP), timeout=RPC_TIMEOUT).widgets
            if widgets:
                shown = stack.widgets.Get(g.GetWidgetRequest(placement_id=widgets[0].placement_id), timeout=RPC_TIMEOUT)
                if shown.entry.view.text.content:
                    break
            assert time.monotonic() < deadline, "the app's placeholder never showed"
            time.sleep(0.02)
        # The app's placeholder, marked as one (drawn redacted), nothing to tap.
        assert shown.placeholder and shown.entry.view.text.content == "Home 0 – Away 0" and not shown.elements
        status = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=shown.placement_id), timeout=RPC_TIMEOUT)
        assert status.placeholder.view.text.content == "Home 0 – Away 0" and not status.HasField("current_entry")
        svg = stack.device.Render(g.RenderRequest(target=g.RenderRequest.TARGET_WIDGET,
                                                  placement_id=shown.placement_id, svg=True), timeout=RPC_TIMEOUT).svg
        assert "Home 0" not in svg, "a placeholder is drawn redacted, not as text"

        scores.release.set()
        placing.join(120)
        widget = placed["widget"]
        assert not widget.placeholder and widget.entry.view.text.content == "Home 2 – Away 1"
        status = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=widget.placement_id), timeout=RPC_TIMEOUT)
        assert not status.HasField("placeholder")
        kinds = [(e.kind, e.entry_changed.HasField("placeholder"), e.entry_changed.HasField("entry"))
                 for e in stack.events.List(g.ListEventsRequest(kinds=["entry_changed"]), timeout=RPC_TIMEOUT).events]
        assert kinds == [("entry_changed", False, False), ("entry_changed", True, False),
                         ("entry_changed", False, True)], kinds

        # An app without Placeholder (UNIMPLEMENTED): the device draws its own.
        plain = stack.widgets.Place(g.PlaceRequest(bundle_id=BARE, kind=KIND, family=f.WIDGET_FAMILY_SYSTEM_SMALL),
                                    timeout=RPC_TIMEOUT)
        assert plain.entry.view.text.content == "bare" and not plain.placeholder
    finally:
        scores.release.set()
        stack.stop()
        for server, _ in servers:
            server.stop(None)


def test_the_gallery_previews_each_kind_in_each_family_with_the_apps_snapshot(tmp_path):
    scores, bare = ScoresProvider(), BareProvider()
    servers = [_serve(scores), _serve(bare)]
    stack = Stack(tmp_path)
    try:
        token = _install(stack, APP, servers[0][1])
        _install(stack, BARE, servers[1][1])
        gallery = stack.widgets.Gallery(g.GalleryRequest(bundle_id=APP, text=True), timeout=RPC_TIMEOUT).previews
        assert [(p.kind, p.family) for p in gallery] == [(KIND, family) for family in FAMILIES]
        for preview in gallery:
            name = f.WidgetFamily.Name(preview.family)
            assert preview.entry.view.text.content == f"sample {name}", preview
            assert preview.display_name == "Scores" and preview.description == "Live scores"
            assert preview.display_size.width > 0 and "sample" in preview.text
        # getSnapshot(in:) with isPreview, no placement, at each family's size, for this app.
        assert [s[0] for s in scores.snapshots] == [True] * 3 and {s[1] for s in scores.snapshots} == {0}
        assert sorted(s[2] for s in scores.snapshots) == sorted(FAMILIES) and {s[4] for s in scores.snapshots} == {APP}
        # Nothing was placed, and no provider Timeline call was made.
        assert not stack.widgets.List(g.ListWidgetsRequest(), timeout=RPC_TIMEOUT).widgets

        # A provider without Snapshot: each preview says why.
        [first, *_] = stack.widgets.Gallery(g.GalleryRequest(bundle_id=BARE), timeout=RPC_TIMEOUT).previews
        assert first.error.failure == t.PROVIDER_FAILURE_CALL_FAILED
        assert first.error.grpc_status == grpc.StatusCode.UNIMPLEMENTED.value[0], first

        env = {"GLIMPSE_GATEWAY": f"127.0.0.1:{stack.ports['gateway']}", "PATH": "/usr/bin:/bin"}
        shown = subprocess.run([_binary("glimpse"), "gallery", APP], capture_output=True, text=True, env=env, timeout=60)
        assert shown.returncode == 0 and "ScoreWidget · systemMedium" in shown.stdout, shown
        assert "sample" in shown.stdout, shown.stdout

        for request, code in [(g.GalleryRequest(bundle_id="com.example.none"), grpc.StatusCode.NOT_FOUND),
                              (g.GalleryRequest(bundle_id=APP, kind="Nope"), grpc.StatusCode.NOT_FOUND)]:
            try:
                stack.widgets.Gallery(request, timeout=RPC_TIMEOUT)
                raise AssertionError(f"{request} was answered")
            except grpc.RpcError as error:
                assert error.code() == code, error
        try:
            stack.widgets.Gallery(g.GalleryRequest(bundle_id=APP), metadata=_bearer(token), timeout=RPC_TIMEOUT)
            raise AssertionError("an app opened the gallery")
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.PERMISSION_DENIED, error
    finally:
        stack.stop()
        for server, _ in servers:
            server.stop(None)
