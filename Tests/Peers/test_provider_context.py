"""What a provider call tells the app: which app the widget is of (`context.bundle_id`), so
one endpoint serves several apps, and two apps may both name a kind alike."""
from concurrent import futures

import grpc

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.widget.v1 import family_pb2, timeline_pb2, view_pb2  # noqa: E402

KIND = "LockScreenWidget"
APPS = ("com.example.trains", "com.example.flights")


class SharedProvider(provider_pb2_grpc.WidgetProviderServicer):
    """One endpoint for both apps: each widget shows the app it was asked for."""

    def __init__(self):
        self.asked = []

    def Timeline(self, request, context):
        self.asked.append((request.context.bundle_id, request.widget.kind))
        text = view_pb2.View(text=view_pb2.Text(content=f"{request.context.bundle_id} {request.widget.kind}"))
        entry = timeline_pb2.TimelineEntry(date=request.now, view=text)
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=[entry], never=timeline_pb2.Timeline.Never()))


def test_one_endpoint_serves_two_apps_that_name_a_kind_alike(tmp_path):
    provider = SharedProvider()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    stack = Stack(tmp_path)
    try:
        family = family_pb2.WIDGET_FAMILY_ACCESSORY_RECTANGULAR
        for bundle in APPS:
            stack.apps.Install(g.InstallRequest(manifest=manifest_pb2.AppManifest(
                bundle_id=bundle, display_name=bundle, default_endpoint=f"127.0.0.1:{port}",
                widgets=[manifest_pb2.WidgetKindDeclaration(kind=KIND, display_name="Lock", supported_families=[family])])),
                timeout=RPC_TIMEOUT)
        placed = {bundle: stack.widgets.Place(g.PlaceRequest(bundle_id=bundle, kind=KIND, family=family),
                                              timeout=RPC_TIMEOUT) for bundle in APPS}
        for bundle, widget in placed.items():
            shown = stack.widgets.Get(g.GetWidgetRequest(placement_id=widget.placement_id), timeout=RPC_TIMEOUT)
            assert shown.entry.view.text.content == f"{bundle} {KIND}", shown
        assert sorted(provider.asked) == sorted((bundle, KIND) for bundle in APPS)
    finally:
        stack.stop()
        server.stop(None)
