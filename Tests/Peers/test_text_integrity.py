"""Text is never cut: a string holding U+0000 is refused (INVALID_ARGUMENT naming the field,
HTTP 400 on the JSON front), never stored as what came before it; and a status message no
header may carry as it is (a space at its end) still reaches a strict HTTP/2 peer.

The real executables over real sockets: glimpse-intent and glimpse-timeline over gRPC
(grpcio), glimpse-gateway's JSON front over HTTP/1.1 (urllib), and the Swift test server
read by the `h2` library, which refuses header values that end in whitespace as nghttp2 does.
"""
import base64
import json
import socket
import urllib.error
import urllib.request

import grpc
import h2.config
import h2.connection
import h2.events
import pytest

from glimpse_protos import glimpse_modules
from test_timeline_service import Process, RPC_TIMEOUT, _binary, _bearer

glimpse_modules()
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.intent.v1 import intent_pb2, intent_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import intent_pb2 as value_pb2  # noqa: E402

APP = "net.insoc.rtlair"
GROUP = "group.net.insoc.rtlair"


def _start(tmp_path, product):
    return Process(product, [_binary(product), "--port", "0", "--data-dir", str(tmp_path / product),
                             "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"], tmp_path)


def _refused(call, request, *words, metadata=None):
    with pytest.raises(grpc.RpcError) as raised:
        call(request, timeout=RPC_TIMEOUT, metadata=metadata)
    details = raised.value.details() or ""
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (raised.value.code(), details)
    for word in words:
        assert word in details, (details, word)
    return details


def test_app_group_keys_and_group_names_holding_nul_are_refused_not_cut(tmp_path):
    service = _start(tmp_path, "glimpse-intent")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            intents = intent_pb2_grpc.IntentServiceStub(channel)
            token = intents.RegisterApp(intent_pb2.RegisterAppRequest(
                manifest=manifest_pb2.AppManifest(bundle_id=APP, app_groups=[GROUP])), timeout=RPC_TIMEOUT).app_token
            app = _bearer(token)
            value = value_pb2.ParameterValue(string_value="kept")
            intents.Set(intent_pb2.SetRequest(app_group=GROUP, key="nul", value=value), metadata=app, timeout=RPC_TIMEOUT)

            # Cut at the NUL, this write would overwrite "nul"; it is refused, naming the field.
            _refused(intents.Set, intent_pb2.SetRequest(
                app_group=GROUP, key="nul\0suffix", value=value_pb2.ParameterValue(string_value="overwritten")),
                "key", "U+0000", metadata=app)
            got = intents.Get(intent_pb2.GetRequest(app_group=GROUP, key="nul"), metadata=app, timeout=RPC_TIMEOUT)
            assert got.entry.value.string_value == "kept"
            # Cut, this group name would be the app's own.
            _refused(intents.Set, intent_pb2.SetRequest(app_group=GROUP + "\0evil", key="k", value=value),
                     "app_group", metadata=app)
            # Deep inside a message: the path names it.
            _refused(intents.Set, intent_pb2.SetRequest(
                app_group=GROUP, key="k", value=value_pb2.ParameterValue(string_value="a\0b")),
                "value.string_value", metadata=app)
            listed = intents.List(intent_pb2.ListRequest(app_group=GROUP), metadata=app, timeout=RPC_TIMEOUT)
            assert [entry.key for entry in listed.entries] == ["nul"]
    finally:
        assert service.stop() == 0


def test_a_refused_string_is_named_by_its_path(tmp_path):
    service = _start(tmp_path, "glimpse-timeline")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            timeline = timeline_pb2_grpc.TimelineServiceStub(channel)
            manifest = manifest_pb2.AppManifest(bundle_id=APP, widgets=[
                manifest_pb2.WidgetKindDeclaration(kind="FlightWidget"),
                manifest_pb2.WidgetKindDeclaration(kind="Flight\0Widget")])
            _refused(timeline.InstallApp, timeline_pb2.InstallAppRequest(manifest=manifest), "manifest.widgets[1].kind")
            # Nothing of it was installed: the same manifest without the NUL installs.
            del manifest.widgets[1]
            assert timeline.InstallApp(timeline_pb2.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
    finally:
        assert service.stop() == 0


def test_the_json_front_answers_400_naming_the_field(tmp_path):
    gateway = _start(tmp_path, "glimpse-gateway")
    try:
        body = json.dumps({"appGroup": GROUP, "key": "nul\0suffix", "value": {"stringValue": "x"}}).encode()
        assert b"\\u0000" in body
        request = urllib.request.Request(f"http://127.0.0.1:{gateway.port}/v1/app_group/set", data=body,
                                         headers={"content-type": "application/json", "authorization": "Bearer x"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=RPC_TIMEOUT)
        assert refused.value.code == 400
        answer = json.loads(refused.value.read())
        assert answer["status"] == "INVALID_ARGUMENT", answer
        assert answer["message"].startswith("key:"), answer

        # The same through the gateway over gRPC.
        with grpc.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
            call = channel.unary_unary("/glimpse.gateway.v1.AppGroup/Set",
                                       request_serializer=intent_pb2.SetRequest.SerializeToString,
                                       response_deserializer=intent_pb2.WriteResponse.FromString)
            _refused(call, intent_pb2.SetRequest(app_group=GROUP, key="nul\0suffix"), "key", metadata=_bearer("x"))
    finally:
        assert gateway.stop() == 0


def _grpc_status_over_h2(port, metadata):
    """One unary call to the steered test service over `h2` (which validates every header it
    receives, as nghttp2 does); returns the trailers, or raises h2's ProtocolError."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=RPC_TIMEOUT)
    try:
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        conn.initiate_connection()
        conn.send_headers(1, [(":method", "POST"), (":scheme", "http"), (":path", "/glimpse.test.Steered/Unary"),
                              (":authority", "localhost"), ("content-type", "application/grpc"), ("te", "trailers"),
                              *metadata])
        conn.send_data(1, b"\x00\x00\x00\x00\x00", end_stream=True)
        sock.sendall(conn.data_to_send())
        while True:
            data = sock.recv(65536)
            assert data, "the server closed the connection without answering"
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.StreamReset):
                    raise AssertionError(f"stream reset: {event.error_code}")
                if isinstance(event, h2.events.ResponseReceived) and event.stream_ended:
                    return dict(event.headers)
                if isinstance(event, h2.events.TrailersReceived):
                    return dict(event.headers)
            sock.sendall(conn.data_to_send())
    finally:
        sock.close()


def test_a_status_message_ending_in_a_space_reaches_a_strict_peer(swift_server):
    port = int(swift_server.rsplit(":", 1)[1])
    message = base64.b64encode(b"try again later ").decode()
    trailers = _grpc_status_over_h2(port, [("x-fail-code", "14"), ("x-fail-message-bin", message)])
    assert trailers["grpc-status"] == "14"
    assert trailers["grpc-message"] == "try again later%20"
    # grpcio decodes it back to the message as sent.
    with grpc.insecure_channel(swift_server) as channel:
        call = channel.unary_unary("/glimpse.test.Steered/Unary")
        with pytest.raises(grpc.RpcError) as raised:
            call(b"", timeout=RPC_TIMEOUT, metadata=[("x-fail-code", "14"), ("x-fail-message-bin", b"try again later ")])
        assert raised.value.code() == grpc.StatusCode.UNAVAILABLE
        assert raised.value.details() == "try again later "
