"""glimpse-intent end to end: the real executable, on a manual clock, with Ride the
Lightning Air's declarative intents (CheckInIntent / ConfirmGateIntent setting
`flightStatus` in group.net.insoc.rtlair) and an IntentHandler written in Python here.

Scopes as the service defines them: registering, placements and locking are the device's
calls (no token); an app's token reaches only its own taps and App Groups.
"""
import pathlib
import sys
import threading
from concurrent import futures

import grpc
import pytest

from glimpse_protos import glimpse_modules
from test_timeline_service import Process, RPC_TIMEOUT, _binary, _bearer, _code, assert_malformed_protobuf_refused

glimpse_modules()
from glimpse.app.v1 import intent_handler_pb2, intent_handler_pb2_grpc, manifest_pb2  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2, intent_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2, intent_pb2 as value_pb2  # noqa: E402

RTL = "net.insoc.rtlair"
GROUP = "group.net.insoc.rtlair"
OTHER = "com.example.pixartracker"


def _string(s):
    return value_pb2.ParameterValue(string_value=s)


def _store_intent(intent_type, status, reloads=manifest_pb2.ReloadRequest(all_timelines=True)):
    """A declarative intent setting `flightStatus` to `status`, then asking for `reloads`."""
    return manifest_pb2.IntentDeclaration(
        type=intent_type, title=intent_type, widget_kinds=["FlightWidget"],
        store=manifest_pb2.StoreAction(
            app_group=GROUP,
            operations=[manifest_pb2.StoreOperation(set=manifest_pb2.StoreOperation.SetValue(
                key="flightStatus", literal=_string(status)))],
            reloads=reloads))


class Handler(intent_handler_pb2_grpc.IntentHandlerServicer):
    """The app's own perform(): counts calls, answers after `release` is set."""

    def __init__(self):
        self.calls = []
        self.release = threading.Event()

    def Perform(self, request, context):
        self.calls.append((request.intent_type, request.idempotency_key, request.kind, request.placement_id))
        self.release.wait(timeout=60)
        return intent_handler_pb2.PerformResponse(
            succeeded=intent_handler_pb2.PerformResponse.Succeeded(value=_string("seat 14C")))


def _tap(key, placement_id, intent_type="CheckInIntent", bundle=RTL):
    return intent_pb2.PerformRequest(idempotency_key=key, bundle_id=bundle, placement_id=placement_id,
                                     intent_type=intent_type)


def test_ride_the_lightning_air(tmp_path):
    handler = Handler()
    app_server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    intent_handler_pb2_grpc.add_IntentHandlerServicer_to_server(handler, app_server)
    handler_port = app_server.add_insecure_port("127.0.0.1:0")
    app_server.start()
    data = tmp_path / "intent"
    argv = [_binary("glimpse-intent"), "--port", "0", "--data-dir", str(data),
            "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"]
    service = None
    try:
        service = Process("glimpse-intent", argv, tmp_path)
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            intents = intent_pb2_grpc.IntentServiceStub(channel)
            clock = clock_pb2_grpc.ClockStub(channel)
            assert clock.Now(clock_pb2.NowRequest(), timeout=RPC_TIMEOUT).manual

            manifest = manifest_pb2.AppManifest(
                bundle_id=RTL, display_name="Ride the Lightning Air", app_groups=[GROUP],
                default_endpoint=f"127.0.0.1:{handler_port}",
                intents=[_store_intent("CheckInIntent", "checkedIn"),
                         _store_intent("ConfirmGateIntent", "gateConfirmed"),
                         manifest_pb2.IntentDeclaration(type="ChooseSeatIntent", widget_kinds=["FlightWidget"],
                                                        handler_endpoint="default")])
            token = intents.RegisterApp(intent_pb2.RegisterAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
            assert token
            rtl = _bearer(token)
            other = intents.RegisterApp(intent_pb2.RegisterAppRequest(
                manifest=manifest_pb2.AppManifest(bundle_id=OTHER, app_groups=["group.com.example.pixar"])),
                timeout=RPC_TIMEOUT).app_token
            # Placements are the device's to announce, not an app's.
            assert _code(intents.PlacementAdded, intent_pb2.PlacementAddedRequest(
                placement_id=1, bundle_id=RTL, kind="FlightWidget", family=family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM),
                metadata=rtl) == grpc.StatusCode.PERMISSION_DENIED
            for placement_id, family in ((1, family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM),
                                         (2, family_pb2.WIDGET_FAMILY_ACCESSORY_INLINE),
                                         (3, family_pb2.WIDGET_FAMILY_SYSTEM_SMALL)):
                intents.PlacementAdded(intent_pb2.PlacementAddedRequest(
                    placement_id=placement_id, bundle_id=RTL, kind="FlightWidget", family=family), timeout=RPC_TIMEOUT)

            watch = intents.Watch(intent_pb2.WatchRequest(app_group=GROUP), metadata=rtl, timeout=RPC_TIMEOUT)

            # A tap, then its retry: the second answer is the first, and nothing is written twice.
            first = intents.Perform(_tap("tap-1", 1), metadata=rtl, timeout=RPC_TIMEOUT)
            assert first.WhichOneof("result") == "performed" and not first.replayed
            # CheckInIntent reloads every timeline of the app: all three of its placements.
            assert list(first.reloaded_placements) == [1, 2, 3]
            again = intents.Perform(_tap("tap-1", 1), metadata=rtl, timeout=RPC_TIMEOUT)
            assert again.WhichOneof("result") == "performed" and again.replayed
            got = intents.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"), metadata=rtl,
                              timeout=RPC_TIMEOUT)
            assert got.entry.value.string_value == "checkedIn" and got.entry.version == 1
            change = next(watch)
            assert (change.sequence, change.key, change.value.string_value) == (1, "flightStatus", "checkedIn")

            gate = intents.Perform(_tap("tap-2", 1, "ConfirmGateIntent"), metadata=rtl, timeout=RPC_TIMEOUT)
            assert gate.WhichOneof("result") == "performed"
            change = next(watch)
            assert (change.sequence, change.value.string_value) == (2, "gateConfirmed")
            watch.cancel()

            # Refusals: accessoryInline and a locked device are FAILED_PRECONDITION; an
            # unknown intent is an answer, `refused`.
            assert _code(intents.Perform, _tap("inline", 2), metadata=rtl) == grpc.StatusCode.FAILED_PRECONDITION
            unknown = intents.Perform(_tap("unknown", 1, "BoardIntent"), metadata=rtl, timeout=RPC_TIMEOUT)
            assert unknown.WhichOneof("result") == "refused"
            assert unknown.refused.reason == intent_pb2.REFUSAL_UNKNOWN_INTENT
            intents.SetDeviceLocked(intent_pb2.SetDeviceLockedRequest(locked=True), timeout=RPC_TIMEOUT)
            assert _code(intents.Perform, _tap("locked", 1), metadata=rtl) == grpc.StatusCode.FAILED_PRECONDITION
            intents.SetDeviceLocked(intent_pb2.SetDeviceLockedRequest(locked=False), timeout=RPC_TIMEOUT)

            # Isolation: another app's token reaches neither the tap nor the App Group.
            assert _code(intents.Perform, _tap("x", 1), metadata=_bearer(other)) == grpc.StatusCode.PERMISSION_DENIED
            assert _code(intents.Get, intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"),
                         metadata=_bearer(other)) == grpc.StatusCode.PERMISSION_DENIED
            assert _code(intents.Set, intent_pb2.SetRequest(app_group=GROUP, key="k", value=_string("v")),
                         metadata=_bearer(other)) == grpc.StatusCode.PERMISSION_DENIED

            # The app's own writes: versions, compare-and-set.
            written = intents.Set(intent_pb2.SetRequest(app_group=GROUP, key="seat", value=_string("14C")),
                                  metadata=rtl, timeout=RPC_TIMEOUT)
            assert written.sequence == 3
            assert _code(intents.CompareAndSet, intent_pb2.CompareAndSetRequest(
                app_group=GROUP, key="seat", value=_string("2A"), expected_version=1),
                metadata=rtl) == grpc.StatusCode.ABORTED
            cas = intents.CompareAndSet(intent_pb2.CompareAndSetRequest(
                app_group=GROUP, key="seat", value=_string("2A"), expected_version=3), metadata=rtl, timeout=RPC_TIMEOUT)
            assert cas.sequence == 4
            listed = intents.List(intent_pb2.ListRequest(app_group=GROUP), metadata=rtl, timeout=RPC_TIMEOUT)
            assert {e.key: e.value.string_value for e in listed.entries} == {"flightStatus": "gateConfirmed", "seat": "2A"}

            # A handler intent: the app's IntentHandler is called once; a retry with the same
            # key while it runs waits for the first answer.
            pending = intents.Perform.future(_tap("seat-1", 3, "ChooseSeatIntent"), metadata=rtl, timeout=RPC_TIMEOUT)
            retry = intents.Perform.future(_tap("seat-1", 3, "ChooseSeatIntent"), metadata=rtl, timeout=RPC_TIMEOUT)
            handler.release.set()
            answers = [pending.result(), retry.result()]
            assert all(a.WhichOneof("result") == "performed" for a in answers), answers
            assert all(a.performed.value.string_value == "seat 14C" for a in answers)
            assert handler.calls == [("ChooseSeatIntent", "seat-1", "FlightWidget", 3)]

        # Restart on the same data directory: the value, the token and the idempotency
        # record are still there.
        assert service.stop() == 0, service.stderr()
        service = Process("glimpse-intent", argv, tmp_path)
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            intents = intent_pb2_grpc.IntentServiceStub(channel)
            got = intents.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"), metadata=rtl,
                              timeout=RPC_TIMEOUT)
            assert got.entry.value.string_value == "gateConfirmed"
            replay = intents.Perform(_tap("tap-1", 1), metadata=rtl, timeout=RPC_TIMEOUT)
            assert replay.replayed and replay.WhichOneof("result") == "performed"
            listed = intents.List(intent_pb2.ListRequest(app_group=GROUP), metadata=rtl, timeout=RPC_TIMEOUT)
            assert listed.sequence == 4  # the replay wrote nothing
    finally:
        code = service.stop() if service is not None else None
        app_server.stop(grace=None)
    assert code == 0, f"glimpse-intent exited with {code}: {service.stderr()}"


def test_malformed_protobuf_on_every_intent_method_is_refused_clearly(tmp_path):
    service = Process("glimpse-intent", [
        _binary("glimpse-intent"), "--port", "0", "--data-dir", str(tmp_path / "intent"), "--clock", "manual"], tmp_path)
    try:
        assert_malformed_protobuf_refused(service, intent_pb2.DESCRIPTOR.services_by_name["IntentService"], 15)
    finally:
        assert service.stop() == 0, service.stderr()
