"""A tap travels glimpse-intent → glimpse-timeline → the app's provider, through the real
executables (manual clocks) and a provider written here in Python.

Ride the Lightning Air's flight widget: the provider reads `flightStatus` from the App
Group (glimpse-intent's store, with the app's token) and shows it. A tap on CheckInIntent
(a declarative Set, no declared reloads) writes the value; the tapped widget's own reload
(`ReloadPlacement`, free) makes glimpse-timeline ask the provider again, before Perform
answers. ConfirmGateIntent declares `reloadTimelines(ofKind:)`: every FlightWidget
reloads, also free (reason INTENT_PERFORMED), and the budget shows nothing charged.
"""
import datetime
import threading
from concurrent import futures

import grpc

from glimpse_protos import glimpse_modules
from test_intent_service import GROUP, RTL, _store_intent
from test_timeline_service import (START, Process, RPC_TIMEOUT, _binary, _bearer, _code, _text,
                                   _timestamp)

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2, intent_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as service_pb2, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2, timeline_pb2, view_pb2  # noqa: E402

KIND = "FlightWidget"


class FlightProvider(provider_pb2_grpc.WidgetProviderServicer):
    """Shows the App Group's flightStatus; one entry at the device's now, never reloads
    on its own (so every provider call after the first is a reload someone asked for)."""

    def __init__(self):
        self.intents = None       # the glimpse-intent stub, once it is up
        self.token = None         # the app's token at glimpse-intent
        self.calls = []
        self.lock = threading.Lock()

    def _status(self):
        got = self.intents.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"),
                               metadata=_bearer(self.token), timeout=RPC_TIMEOUT)
        return got.entry.value.string_value if got.HasField("entry") else "scheduled"

    def Placeholder(self, request, context):
        return provider_pb2.PlaceholderResponse()

    def Snapshot(self, request, context):
        return provider_pb2.SnapshotResponse()

    def Timeline(self, request, context):
        status = self._status()
        with self.lock:
            self.calls.append((request.widget.placement_id, status))
        entry = timeline_pb2.TimelineEntry(date=request.now, view=view_pb2.View(
            text=view_pb2.Text(content=f"RTL 1 {status}")))
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(
            entries=[entry], never=timeline_pb2.Timeline.Never()))


def _advance(clocks, minutes):
    """The stack's one clock: every service's manual clock moves to the same instant."""
    target = _timestamp(START + datetime.timedelta(minutes=minutes))
    for clock in clocks:
        clock.AdvanceTo(clock_pb2.AdvanceToRequest(to=target), timeout=RPC_TIMEOUT)


def test_a_tap_reloads_the_tapped_widget_through_glimpse_timeline(tmp_path):
    provider = FlightProvider()
    app_server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, app_server)
    provider_port = app_server.add_insecure_port("127.0.0.1:0")
    app_server.start()
    manual = ["--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"]
    timeline_service = intent_service = None
    try:
        timeline_service = Process("glimpse-timeline", [
            _binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / "timeline"), *manual], tmp_path)
        intent_service = Process("glimpse-intent", [
            _binary("glimpse-intent"), "--port", "0", "--data-dir", str(tmp_path / "intent"), *manual,
            "--timeline-address", f"127.0.0.1:{timeline_service.port}"], tmp_path)
        with grpc.insecure_channel(f"127.0.0.1:{timeline_service.port}") as t_channel, \
                grpc.insecure_channel(f"127.0.0.1:{intent_service.port}") as i_channel:
            timeline = timeline_pb2_grpc.TimelineServiceStub(t_channel)
            intents = intent_pb2_grpc.IntentServiceStub(i_channel)
            clocks = [clock_pb2_grpc.ClockStub(t_channel), clock_pb2_grpc.ClockStub(i_channel)]
            endpoint = f"127.0.0.1:{provider_port}"
            manifest = manifest_pb2.AppManifest(
                bundle_id=RTL, display_name="Ride the Lightning Air", app_groups=[GROUP], default_endpoint=endpoint,
                widgets=[manifest_pb2.WidgetKindDeclaration(kind=KIND, display_name="Flight")],
                intents=[_store_intent("CheckInIntent", "checkedIn", reloads=None),
                         _store_intent("ConfirmGateIntent", "gateConfirmed", manifest_pb2.ReloadRequest(
                             kinds=manifest_pb2.ReloadRequest.KindList(kinds=[KIND])))])
            timeline_token = timeline.InstallApp(service_pb2.InstallAppRequest(manifest=manifest),
                                                 timeout=RPC_TIMEOUT).app_token
            provider.intents = intents
            provider.token = intents.RegisterApp(intent_pb2.RegisterAppRequest(manifest=manifest),
                                                 timeout=RPC_TIMEOUT).app_token

            placed = []
            for family in (family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM, family_pb2.WIDGET_FAMILY_SYSTEM_SMALL):
                status = timeline.Place(service_pb2.PlaceRequest(bundle_id=RTL, kind=KIND, family=family),
                                        timeout=RPC_TIMEOUT).placement
                intents.PlacementAdded(intent_pb2.PlacementAddedRequest(
                    placement_id=status.placement_id, bundle_id=RTL, kind=KIND, family=family), timeout=RPC_TIMEOUT)
                placed.append(status.placement_id)
            tapped, other = placed

            def shown(placement_id):
                status = timeline.GetPlacement(service_pb2.GetPlacementRequest(placement_id=placement_id),
                                               metadata=_bearer(timeline_token), timeout=RPC_TIMEOUT)
                return _text(status.current_entry), status.budget

            assert shown(tapped)[0] == "RTL 1 scheduled"
            assert sorted(provider.calls) == sorted([(tapped, "scheduled"), (other, "scheduled")])
            _advance(clocks, 10)

            # The tap: written, then the tapped widget alone reloads, before Perform answers.
            answer = intents.Perform(intent_pb2.PerformRequest(
                idempotency_key="tap-1", bundle_id=RTL, placement_id=tapped, intent_type="CheckInIntent"),
                metadata=_bearer(provider.token), timeout=RPC_TIMEOUT)
            assert answer.WhichOneof("result") == "performed"
            assert list(answer.reloaded_placements) == [tapped]
            assert provider.calls[2:] == [(tapped, "checkedIn")]
            text, budget = shown(tapped)
            assert text == "RTL 1 checkedIn"
            assert budget.used == 0, "a tap's reload is free"
            assert shown(other)[0] == "RTL 1 scheduled"

            # A retry of the same tap runs nothing and reloads nothing.
            again = intents.Perform(intent_pb2.PerformRequest(
                idempotency_key="tap-1", bundle_id=RTL, placement_id=tapped, intent_type="CheckInIntent"),
                metadata=_bearer(provider.token), timeout=RPC_TIMEOUT)
            assert again.replayed and len(provider.calls) == 3

            # Declared reloads by kind: every FlightWidget, free.
            _advance(clocks, 20)
            gate = intents.Perform(intent_pb2.PerformRequest(
                idempotency_key="tap-2", bundle_id=RTL, placement_id=tapped, intent_type="ConfirmGateIntent"),
                metadata=_bearer(provider.token), timeout=RPC_TIMEOUT)
            assert gate.WhichOneof("result") == "performed"
            for placement_id in placed:
                text, budget = shown(placement_id)
                assert text == "RTL 1 gateConfirmed"
                assert budget.used == 0
            assert sorted(provider.calls[3:]) == sorted([(tapped, "gateConfirmed"), (other, "gateConfirmed")])

            # The single-placement reload is the device's: an app token is refused, and an
            # unknown placement is NOT_FOUND.
            assert _code(timeline.ReloadPlacement, service_pb2.ReloadPlacementRequest(placement_id=tapped),
                         metadata=_bearer(timeline_token)) == grpc.StatusCode.PERMISSION_DENIED
            assert _code(timeline.ReloadPlacement,
                         service_pb2.ReloadPlacementRequest(placement_id=999)) == grpc.StatusCode.NOT_FOUND
            assert _code(timeline.ReloadPlacement, service_pb2.ReloadPlacementRequest(
                placement_id=tapped, reason=service_pb2.RELOAD_REASON_POLICY)) == grpc.StatusCode.INVALID_ARGUMENT
    finally:
        codes = [p.stop() for p in (intent_service, timeline_service) if p is not None]
        app_server.stop(grace=None)
    assert codes == [0, 0], f"{intent_service.stderr()}\n{timeline_service.stderr()}"
