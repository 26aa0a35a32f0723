"""Reloads asked for inside `perform()` are part of the tap (seed 004): Ride the Lightning
Air's CheckInIntent as the app's own code — its IntentHandler writes the App Group and calls
`WidgetCenter.reloadAllTimelines()`, which it says in its answer — and both widgets, the
tapped one and the Lock Screen's, follow at once, neither charged."""
from concurrent import futures

import grpc

from glimpse_protos import glimpse_modules
from rtl_air import KIND, LABELS, RECTANGULAR, RTL, SMALL, FlightProvider, _shown, stack  # noqa: F401 (fixture)
from test_intent_service import GROUP
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.app.v1 import intent_handler_pb2 as h, intent_handler_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.widget.v1 import intent_pb2 as value_pb2  # noqa: E402


class CheckIn(intent_handler_pb2_grpc.IntentHandlerServicer):
    """CheckInIntent.perform(): `FlightStore.status = .checkedIn`, then
    `WidgetCenter.shared.reloadAllTimelines()`, as seed 004 writes it."""

    def __init__(self, provider, reloads):
        self.provider, self.reloads = provider, reloads

    def Perform(self, request, context):
        self.provider.app_group.Set(intent_pb2.SetRequest(
            app_group=GROUP, key="flightStatus", value=value_pb2.ParameterValue(string_value="checkedIn")),
            metadata=_bearer(self.provider.token), timeout=RPC_TIMEOUT)
        return h.PerformResponse(succeeded=h.PerformResponse.Succeeded(), reloads=self.reloads)


def _serve(reloads):
    provider = FlightProvider()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, server)
    intent_handler_pb2_grpc.add_IntentHandlerServicer_to_server(CheckIn(provider, reloads), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return provider, server, port


def _install_and_place(stack, provider, port):
    manifest = manifest_pb2.AppManifest(
        bundle_id=RTL, display_name="Ride the Lightning Air", app_groups=[GROUP], default_endpoint=f"127.0.0.1:{port}",
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=KIND, display_name="Flight", supported_families=[SMALL, RECTANGULAR])],
        intents=[manifest_pb2.IntentDeclaration(type="CheckInIntent", title="Check In", widget_kinds=[KIND],
                                                handler_endpoint="default")])
    installed = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
    provider.app_group, provider.token = stack.app_group, installed.app_token
    small = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    lock = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=RECTANGULAR), timeout=RPC_TIMEOUT)
    return small, lock


def _used(stack, placement_id):
    return stack.widgets.Get(g.GetWidgetRequest(placement_id=placement_id), timeout=RPC_TIMEOUT).budget.used


def test_reload_all_timelines_inside_perform_updates_both_widgets_with_the_tap(stack):
    provider, server, port = _serve(h.PerformResponse.Reloads(all_timelines=True))
    try:
        small, lock = _install_and_place(stack, provider, port)
        used = (_used(stack, small.placement_id), _used(stack, lock.placement_id))
        tapped = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        assert sorted(tapped.performed.reloaded_placements) == sorted([small.placement_id, lock.placement_id])
        # No clock moved: the Lock Screen widget already shows the new state, as the tapped one does.
        for placement in (small, lock):
            shown = stack.widgets.Get(g.GetWidgetRequest(placement_id=placement.placement_id), timeout=RPC_TIMEOUT)
            assert LABELS["checkedIn"] in _shown(shown), (placement.placement_id, _shown(shown))
        assert (_used(stack, small.placement_id), _used(stack, lock.placement_id)) == used   # free, as a tap's
    finally:
        server.stop(None)


def test_without_asking_only_the_tapped_widget_follows(stack):
    provider, server, port = _serve(None)
    try:
        small, lock = _install_and_place(stack, provider, port)
        tapped = stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        assert list(tapped.performed.reloaded_placements) == [small.placement_id]
        shown = stack.widgets.Get(g.GetWidgetRequest(placement_id=lock.placement_id), timeout=RPC_TIMEOUT)
        assert LABELS["notCheckedIn"] in _shown(shown)
    finally:
        server.stop(None)
