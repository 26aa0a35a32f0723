"""One widget cannot break the screen: the content limits, through the real processes.

Each limit is checked once where content enters (a provider's timeline at glimpse-timeline,
an activity's views at the gateway), its reason a sentence in the event log and in
Widgets.Get, and every answer about the device stays readable by a stock grpcio client (4 MiB
receive limit) whatever one app sends: the deepest and largest content the limits let in
travels through Device.Show, Render, Widgets.List/Get/Timeline and Events.List.
"""
import threading
from concurrent import futures

import grpc
import pytest

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402
from glimpse.widget.v1 import family_pb2, style_pb2, timeline_pb2, view_pb2  # noqa: E402

SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
APP = "com.example.heavy"
LEVELS = 32                   # ContentLimits.viewLevels
ENTRY_BYTES = 256 * 1024      # ContentLimits.entryBytes
ANSWER = 4 * 1024 * 1024      # a stock client's receive limit


def _text(content):
    return view_pb2.View(text=view_pb2.Text(content=content))


def nested(levels, leaf="deep", backgrounds=False):
    """A view tree `levels` deep (each background counting one more), a Text at the bottom."""
    view = _text(leaf)
    depth = 1
    while depth < levels:
        modifiers = []
        if backgrounds and depth + 2 <= levels:
            modifiers = [view_pb2.Modifier(background=style_pb2.ShapeStyle()),
                         view_pb2.Modifier(padding=view_pb2.Padding())]
            depth += 1
        view = view_pb2.View(stack=view_pb2.Stack(children=[view]), modifiers=modifiers)
        depth += 1
    return view


class Provider(provider_pb2_grpc.WidgetProviderServicer):
    """Answers each placement with what `timelines[kind]` makes of the request."""

    def __init__(self):
        self.timelines = {}
        self.lock = threading.Lock()

    def Timeline(self, request, context):
        make = self.timelines[request.widget.kind]
        return provider_pb2.TimelineResponse(timeline=make(request))


def one_entry(view):
    return lambda request: timeline_pb2.Timeline(
        entries=[timeline_pb2.TimelineEntry(date=request.now, view=view)], never=timeline_pb2.Timeline.Never())


def entries(count, size):
    def make(request):
        return timeline_pb2.Timeline(entries=[
            timeline_pb2.TimelineEntry(
                date=type(request.now)(seconds=request.now.seconds + 60 * i),
                view=_text(f"{i:04d}" + "x" * (size - 16)))
            for i in range(count)], never=timeline_pb2.Timeline.Never())
    return make


KINDS = ["Deep", "TooDeep", "Big", "TooBig", "Long", "TooLong"]


@pytest.fixture
def heavy(tmp_path):
    provider = Provider()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8),
                         options=[("grpc.max_send_message_length", 64 * 1024 * 1024)])
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    stack = Stack(tmp_path)
    manifest = manifest_pb2.AppManifest(
        bundle_id=APP, display_name="Heavy", default_endpoint=f"127.0.0.1:{port}",
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=kind, display_name=kind, supported_families=[SMALL])
                 for kind in KINDS])
    stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
    yield stack, provider
    stack.stop()
    server.stop(None)


def place(stack, kind):
    return stack.widgets.Place(g.PlaceRequest(bundle_id=APP, kind=kind, family=SMALL), timeout=RPC_TIMEOUT)


def failures(stack):
    events = stack.events.List(g.ListEventsRequest(kinds=["provider_failed"]), timeout=RPC_TIMEOUT).events
    return [e.provider_failed.error.message for e in events]


def everything_answers(stack):
    """Every answer about the device, through a stock client with its default limits."""
    screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
    for target in (g.RenderRequest.TARGET_HOME_SCREEN, g.RenderRequest.TARGET_UNSPECIFIED):
        stack.device.Render(g.RenderRequest(target=target), timeout=RPC_TIMEOUT)
    listed = stack.widgets.List(g.ListWidgetsRequest(), timeout=RPC_TIMEOUT).widgets
    for widget in listed:
        stack.widgets.Get(g.GetWidgetRequest(placement_id=widget.placement_id), timeout=RPC_TIMEOUT)
        stack.widgets.Timeline(g.GetWidgetRequest(placement_id=widget.placement_id), timeout=RPC_TIMEOUT)
        stack.device.Render(g.RenderRequest(target=g.RenderRequest.TARGET_WIDGET, placement_id=widget.placement_id),
                            timeout=RPC_TIMEOUT)
    after, events = 0, 0
    while True:
        page = stack.events.List(g.ListEventsRequest(after_sequence=after), timeout=RPC_TIMEOUT)
        if not page.events:
            break
        events += len(page.events)
        after = page.last_sequence
    return screen, listed, events


def test_a_provider_that_fails_is_a_typed_failure_with_its_grpc_status(heavy):
    stack, provider = heavy

    def broken(request):
        raise RuntimeError("the provider's own bug")
    provider.timelines["Long"] = broken     # grpcio answers UNKNOWN for an exception
    failed = place(stack, "Long")
    assert failed.placeholder
    error = failed.last_error
    assert error.failure == t.PROVIDER_FAILURE_CALL_FAILED, error
    assert error.grpc_status == grpc.StatusCode.UNKNOWN.value[0] and error.code == "UNKNOWN"


def test_view_depth_is_checked_at_intake_and_the_deepest_allowed_tree_travels_everywhere(heavy):
    stack, provider = heavy
    provider.timelines["Deep"] = one_entry(nested(LEVELS, backgrounds=True))
    provider.timelines["TooDeep"] = one_entry(nested(47))
    deep, too_deep = place(stack, "Deep"), place(stack, "TooDeep")
    assert not deep.placeholder and deep.entry.HasField("view")
    assert too_deep.placeholder
    reason = "the view tree nests 47 levels; the limit is 32"
    assert too_deep.last_error.failure == t.PROVIDER_FAILURE_INVALID_TIMELINE and reason in too_deep.last_error.message
    assert too_deep.last_error.code == "INVALID_TIMELINE"    # the text, for its readers
    assert any(reason in message for message in failures(stack))
    screen, _, _ = everything_answers(stack)
    assert any(w.entry.HasField("view") for w in screen.home_pages[0].slots[0].widgets)


def test_entry_size_is_checked_at_intake_and_answers_listing_many_stay_under_4_mib(heavy):
    stack, provider = heavy
    provider.timelines["Big"] = entries(1, ENTRY_BYTES - 64)
    provider.timelines["TooBig"] = entries(1, ENTRY_BYTES + 1024)
    too_big = place(stack, "TooBig")
    assert too_big.placeholder and "bytes; the limit is 262144 (256 KiB)" in too_big.last_error.message
    # Twenty widgets each at the entry limit: 5 MiB of content on one Home Screen.
    placed = [place(stack, "Big") for _ in range(20)]
    assert all(not w.placeholder for w in placed)
    screen, listed, events = everything_answers(stack)
    shown = [w for page in screen.home_pages for slot in page.slots for w in slot.widgets]
    assert len(shown) == 21 and screen.ByteSize() < ANSWER
    left_out = [w for w in shown if w.entry_left_out]
    assert left_out and all(not w.HasField("entry") for w in left_out)
    # A widget left out of the screen is still there, whole, on its own.
    alone = stack.widgets.Get(g.GetWidgetRequest(placement_id=left_out[0].placement_id), timeout=RPC_TIMEOUT)
    assert not alone.entry_left_out and len(alone.entry.view.text.content) > ENTRY_BYTES - 100
    assert len(listed) == 21 and events > 40


def test_the_10_mib_timeline_cap_is_reachable_and_its_answers_fit(heavy):
    stack, provider = heavy
    # 400 entries of 25,000 bytes: just under the 10 MiB cap, over gRPC's 4 MiB default.
    provider.timelines["Long"] = entries(400, 25_000)
    provider.timelines["TooLong"] = entries(401, 100)
    long = place(stack, "Long")
    assert not long.placeholder, long.last_error
    assert long.entry.view.text.content.startswith("0000")
    timeline = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=long.placement_id), timeout=RPC_TIMEOUT)
    assert len(timeline.timeline.entries) == 400 and timeline.views_left_out > 0
    assert timeline.ByteSize() < ANSWER
    assert stack.widgets.Get(g.GetWidgetRequest(placement_id=long.placement_id), timeout=RPC_TIMEOUT).budget.limit == 70
    too_long = place(stack, "TooLong")
    assert too_long.placeholder
    assert too_long.last_error.message == "the timeline has 401 entries; the limit is 400"
    assert "the timeline has 401 entries; the limit is 400" in failures(stack)
    everything_answers(stack)
