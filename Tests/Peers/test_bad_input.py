"""Bad input through the real servers, method by method: each refusal has the right gRPC
code and a message naming what was wrong (the field, the id), and the server keeps serving.
Scopes: device calls carry no token; app calls carry `authorization: Bearer <app token>`.
"""
import grpc
import pytest
from google.protobuf import timestamp_pb2

from glimpse_protos import glimpse_modules
from test_timeline_service import Process, RPC_TIMEOUT, _binary, _bearer, _manifest

glimpse_modules()
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2, intent_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2, intent_pb2 as value_pb2  # noqa: E402

APP = "com.example.pixartracker"
OTHER = "com.example.other"
SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
INLINE = family_pb2.WIDGET_FAMILY_ACCESSORY_INLINE
C = grpc.StatusCode


def _refused(call, request, code, *words, metadata=None):
    with pytest.raises(grpc.RpcError) as raised:
        call(request, timeout=RPC_TIMEOUT, metadata=metadata)
    details = raised.value.details() or ""
    assert raised.value.code() == code, (request, raised.value.code(), details)
    for word in words:
        assert word in details, (request, details, word)


def _start(tmp_path, product):
    return Process(product, [_binary(product), "--port", "0", "--data-dir", str(tmp_path / product),
                             "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"], tmp_path)


def test_timeline_refusals(tmp_path):
    service = _start(tmp_path, "glimpse-timeline")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            s = timeline_pb2_grpc.TimelineServiceStub(channel)
            clock = clock_pb2_grpc.ClockStub(channel)
            manifest = _manifest(APP, "PixarFilmWidget", [SMALL], "127.0.0.1:1")
            manifest.widgets[0].configuration.append(manifest_pb2.ParameterDeclaration(
                name="film", type=manifest_pb2.VALUE_TYPE_STRING))
            token = s.InstallApp(t.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
            other = s.InstallApp(t.InstallAppRequest(manifest=_manifest(OTHER, "Other", [SMALL], "127.0.0.1:1")),
                                 timeout=RPC_TIMEOUT).app_token
            placed = s.Place(t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget", family=SMALL),
                             timeout=RPC_TIMEOUT).placement.placement_id

            # InstallApp
            _refused(s.InstallApp, t.InstallAppRequest(), C.INVALID_ARGUMENT, "manifest")
            _refused(s.InstallApp, t.InstallAppRequest(manifest=manifest_pb2.AppManifest()), C.INVALID_ARGUMENT,
                     "manifest.bundle_id")
            _refused(s.InstallApp, t.InstallAppRequest(manifest=manifest), C.ALREADY_EXISTS, APP)
            _refused(s.InstallApp, t.InstallAppRequest(manifest=manifest), C.PERMISSION_DENIED,
                     metadata=_bearer(token))
            # UninstallApp
            _refused(s.UninstallApp, t.UninstallAppRequest(bundle_id="com.example.nope"), C.NOT_FOUND, "com.example.nope")
            # Place
            _refused(s.Place, t.PlaceRequest(bundle_id="com.example.nope", kind="PixarFilmWidget", family=SMALL),
                     C.NOT_FOUND, "com.example.nope")
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="Nope", family=SMALL), C.NOT_FOUND, "Nope")
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget", family=INLINE),
                     C.INVALID_ARGUMENT, "accessoryInline")
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget"), C.INVALID_ARGUMENT, "family")
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget", family=SMALL, screen=t.SCREEN_LOCK),
                     C.INVALID_ARGUMENT, "systemSmall")
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget", family=SMALL, configuration={
                "nope": value_pb2.ParameterValue(string_value="x")}), C.INVALID_ARGUMENT, "nope")
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget", family=SMALL, configuration={
                "film": value_pb2.ParameterValue(int_value=3)}), C.INVALID_ARGUMENT, "film")
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget", family=SMALL,
                                             placement_id=placed), C.ALREADY_EXISTS, str(placed))
            _refused(s.Place, t.PlaceRequest(bundle_id=APP, kind="PixarFilmWidget", family=SMALL),
                     C.PERMISSION_DENIED, metadata=_bearer(token))
            # Reconfigure, Remove, GetPlacement, ReloadPlacement: unknown placement, another app's
            _refused(s.Reconfigure, t.ReconfigureRequest(placement_id=999), C.NOT_FOUND, "999")
            _refused(s.Reconfigure, t.ReconfigureRequest(placement_id=placed, configuration={
                "film": value_pb2.ParameterValue(bool_value=True)}), C.INVALID_ARGUMENT, "film")
            _refused(s.Remove, t.RemoveRequest(placement_id=999), C.NOT_FOUND, "999")
            _refused(s.GetPlacement, t.GetPlacementRequest(placement_id=999), C.NOT_FOUND, "999")
            _refused(s.GetPlacement, t.GetPlacementRequest(placement_id=placed), C.PERMISSION_DENIED,
                     metadata=_bearer(other))
            _refused(s.ReloadPlacement, t.ReloadPlacementRequest(placement_id=999), C.NOT_FOUND, "999")
            # Reloads: another app's, a reason an app cannot ask for
            _refused(s.ReloadTimelines, t.ReloadTimelinesRequest(bundle_id=APP, kind="PixarFilmWidget"),
                     C.PERMISSION_DENIED, metadata=_bearer(other))
            _refused(s.ReloadAllTimelines, t.ReloadAllTimelinesRequest(bundle_id=APP, reason=t.RELOAD_REASON_POLICY),
                     C.INVALID_ARGUMENT, "reason", metadata=_bearer(token))
            _refused(s.GetCurrentConfigurations, t.GetCurrentConfigurationsRequest(bundle_id=APP),
                     C.PERMISSION_DENIED, metadata=_bearer(other))
            _refused(s.ListPlacements, t.ListPlacementsRequest(bundle_id=APP), C.PERMISSION_DENIED,
                     metadata=_bearer(other))
            # Tokens: malformed and unknown
            _refused(s.GetPlacement, t.GetPlacementRequest(placement_id=placed), C.UNAUTHENTICATED, "Bearer",
                     metadata=[("authorization", "Basic abc")])
            _refused(s.GetPlacement, t.GetPlacementRequest(placement_id=placed), C.UNAUTHENTICATED,
                     metadata=_bearer("not-a-token"))
            # Clock: backwards, no instant, a malformed instant
            _refused(clock.AdvanceTo, clock_pb2.AdvanceToRequest(to=timestamp_pb2.Timestamp(seconds=0)),
                     C.INVALID_ARGUMENT, "to")
            _refused(clock.AdvanceTo, clock_pb2.AdvanceToRequest(), C.INVALID_ARGUMENT, "to")
            _refused(clock.AdvanceTo, clock_pb2.AdvanceToRequest(
                to=timestamp_pb2.Timestamp(seconds=1_767_258_000, nanos=2_000_000_000)), C.INVALID_ARGUMENT, "to")
            # Still serving, and nothing changed.
            listed = s.ListPlacements(t.ListPlacementsRequest(bundle_id=APP), metadata=_bearer(token),
                                      timeout=RPC_TIMEOUT)
            assert [p.placement_id for p in listed.placements] == [placed]
    finally:
        assert service.stop() == 0, service.stderr()


def test_intent_refusals(tmp_path):
    service = _start(tmp_path, "glimpse-intent")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            s = intent_pb2_grpc.IntentServiceStub(channel)
            group = "group.com.example.pixar"
            manifest = manifest_pb2.AppManifest(bundle_id=APP, app_groups=[group], intents=[
                manifest_pb2.IntentDeclaration(type="Fav", widget_kinds=["PixarFilmWidget"], store=manifest_pb2.StoreAction(
                    app_group=group, operations=[manifest_pb2.StoreOperation(toggle="fav")]))])
            token = s.RegisterApp(intent_pb2.RegisterAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
            other = s.RegisterApp(intent_pb2.RegisterAppRequest(manifest=manifest_pb2.AppManifest(
                bundle_id=OTHER, app_groups=["group.com.example.other"])), timeout=RPC_TIMEOUT).app_token
            app = _bearer(token)
            s.PlacementAdded(intent_pb2.PlacementAddedRequest(placement_id=1, bundle_id=APP, kind="PixarFilmWidget",
                                                              family=SMALL), timeout=RPC_TIMEOUT)

            _refused(s.RegisterApp, intent_pb2.RegisterAppRequest(), C.INVALID_ARGUMENT, "manifest")
            _refused(s.RegisterApp, intent_pb2.RegisterAppRequest(manifest=manifest), C.ALREADY_EXISTS, APP)
            _refused(s.UnregisterApp, intent_pb2.UnregisterAppRequest(bundle_id="com.example.nope"), C.NOT_FOUND,
                     "com.example.nope")
            _refused(s.PlacementAdded, intent_pb2.PlacementAddedRequest(placement_id=2, bundle_id="com.example.nope",
                                                                        kind="K", family=SMALL), C.NOT_FOUND)
            _refused(s.PlacementAdded, intent_pb2.PlacementAddedRequest(placement_id=2, bundle_id=APP,
                                                                        kind="PixarFilmWidget"), C.INVALID_ARGUMENT,
                     "family")
            # Perform: no key, unknown placement, another app's placement
            _refused(s.Perform, intent_pb2.PerformRequest(bundle_id=APP, placement_id=1, intent_type="Fav"),
                     C.INVALID_ARGUMENT, "idempotency_key", metadata=app)
            _refused(s.Perform, intent_pb2.PerformRequest(idempotency_key="k", bundle_id=APP, placement_id=9,
                                                          intent_type="Fav"), C.NOT_FOUND, "9", metadata=app)
            _refused(s.Perform, intent_pb2.PerformRequest(idempotency_key="k", bundle_id=APP, placement_id=1,
                                                          intent_type="Fav"), C.PERMISSION_DENIED,
                     metadata=_bearer(other))
            # The store: no group, another app's group, a bad expected version, no key
            _refused(s.Get, intent_pb2.GetRequest(key="fav"), C.INVALID_ARGUMENT, "app_group", metadata=app)
            _refused(s.Get, intent_pb2.GetRequest(app_group="group.com.example.other", key="fav"),
                     C.PERMISSION_DENIED, metadata=app)
            _refused(s.Set, intent_pb2.SetRequest(app_group=group, value=value_pb2.ParameterValue(bool_value=True)),
                     C.INVALID_ARGUMENT, "key", metadata=app)
            _refused(s.Set, intent_pb2.SetRequest(app_group=group, key="fav"), C.INVALID_ARGUMENT, "value",
                     metadata=app)
            _refused(s.CompareAndSet, intent_pb2.CompareAndSetRequest(
                app_group=group, key="fav", value=value_pb2.ParameterValue(bool_value=True), expected_version=7),
                C.ABORTED, "fav", metadata=app)
            _refused(s.Remove, intent_pb2.RemoveRequest(app_group="group.com.example.other", key="x"),
                     C.PERMISSION_DENIED, metadata=app)
            _refused(s.List, intent_pb2.ListRequest(app_group=group), C.PERMISSION_DENIED, metadata=_bearer(other))
            # Still serving.
            answer = s.Perform(intent_pb2.PerformRequest(idempotency_key="ok", bundle_id=APP, placement_id=1,
                                                         intent_type="Fav"), metadata=app, timeout=RPC_TIMEOUT)
            assert answer.WhichOneof("result") == "performed"
    finally:
        assert service.stop() == 0, service.stderr()
