"""JSON beside gRPC on one port, with stock Python clients as the peers.

glimpse-interop-server --json serves grpc.testing.TestService as gRPC and, on the same
port, as JSON (`POST /v1/test_service/<method>`, proto3 canonical JSON) over HTTP/1.1 and
HTTP/2. Checked here:

- stock grpcio runs every interop case against it (the connection sniffing in front of
  the gRPC handler changes nothing for gRPC);
- httpx over HTTP/1.1 and HTTP/2 (prior knowledge), and urllib from the standard library;
- one raw HTTP/2 connection (the `h2` package) carrying a gRPC call and JSON calls at once.
"""
import json
import os
import pathlib
import shutil
import socket
import struct
import subprocess
import threading
import urllib.error
import urllib.request

import grpc
import h2.config
import h2.connection
import h2.events
import httpx
import pytest

import interop_client
from grpc_testing import modules

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = list(interop_client.CASES)


def _binary(product):
    """From GLIMPSE_BIN_DIR when set (a build with its own --scratch-path), else from
    `swift build --show-bin-path`, built if missing."""
    bin_dir = os.environ.get("GLIMPSE_BIN_DIR")
    if bin_dir:
        return str(pathlib.Path(bin_dir) / product)
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    binary = pathlib.Path(bin_path) / product
    if not binary.exists():
        subprocess.run([swift, "build", "--product", product], cwd=ROOT, check=True)
    return str(binary)


@pytest.fixture(scope="module")
def port():
    process = subprocess.Popen([_binary("glimpse-interop-server"), "--port", "0", "--json"],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on port "):
        process.kill()
        pytest.fail(f"glimpse-interop-server did not start: {line!r}")
    yield int(line.rsplit(" ", 1)[1])
    process.terminate()
    process.communicate(timeout=30)
    assert process.returncode == 0, f"glimpse-interop-server exited with {process.returncode}"


@pytest.fixture()
def channel(port):
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        grpc.channel_ready_future(channel).result(timeout=60)
        yield channel


@pytest.mark.parametrize("case", CASES)
def test_grpcio_interop_case_with_json_served_too(channel, case):
    interop_client.run_case(channel, case)


@pytest.mark.parametrize("http2", [False, True])
def test_httpx_unary_calls(port, http2):
    with httpx.Client(http1=not http2, http2=http2, base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        response = client.post("/v1/test_service/unary_call", json={"responseSize": 4})
        assert response.http_version == ("HTTP/2" if http2 else "HTTP/1.1")
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/json"
        assert response.json() == {"payload": {"body": "AAAAAA=="}}
        # The same connection again, with an empty body: the empty request.
        empty = client.post("/v1/test_service/empty_call")
        assert empty.status_code == 200 and empty.json() == {}

        missing = client.post("/v1/test_service/unary_call",
                              json={"responseStatus": {"code": 5, "message": "no such widget"}})
        assert missing.status_code == 404
        assert missing.json() == {"code": 5, "status": "NOT_FOUND", "message": "no such widget"}

        broken = client.post("/v1/test_service/unary_call", content=b'{"responseSize": ')
        assert broken.status_code == 400 and broken.json()["status"] == "INVALID_ARGUMENT"
        unknown = client.post("/v1/test_service/unary_call", json={"responseSise": 1})
        assert unknown.status_code == 400 and "responseSise" in unknown.json()["message"]

        route = client.post("/v1/test_service/nothing", json={})
        assert route.status_code == 404 and route.json()["code"] == 5
        method = client.get("/v1/test_service/unary_call")
        assert method.status_code == 405 and method.headers["allow"] == "POST"


@pytest.mark.parametrize("http2", [False, True])
def test_httpx_streams_lines(port, http2):
    body = {"responseParameters": [{"size": 1}, {"size": 2, "intervalUs": 50_000}, {"size": 3}]}
    with httpx.Client(http1=not http2, http2=http2, timeout=60) as client:
        with client.stream("POST", f"http://127.0.0.1:{port}/v1/test_service/streaming_output_call",
                           json=body) as response:
            assert response.status_code == 200
            assert response.headers["content-type"] == "application/x-ndjson"
            lines = [json.loads(line) for line in response.iter_lines() if line]
    assert lines == [{"payload": {"body": "AA=="}}, {"payload": {"body": "AAA="}}, {"payload": {"body": "AAAA"}}]


def test_urllib_from_the_standard_library(port):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/test_service/unary_call",
                                     data=b'{"responseSize": 2}', headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200
        assert json.loads(response.read()) == {"payload": {"body": "AAA="}}
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/test_service/unary_call",
            data=b'{"responseStatus": {"code": 7, "message": "no"}}'), timeout=60)
    assert refused.value.code == 403
    assert json.loads(refused.value.read()) == {"code": 7, "status": "PERMISSION_DENIED", "message": "no"}


def test_grpc_and_json_on_one_http2_connection(port):
    messages_pb2, _, _ = modules()
    grpc_request = messages_pb2.SimpleRequest(response_size=5).SerializeToString()
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    connection.initiate_connection()
    base = [(":scheme", "http"), (":authority", f"127.0.0.1:{port}"), (":method", "POST")]
    grpc_stream, json_stream, lines_stream = 1, 3, 5
    connection.send_headers(grpc_stream, base + [(":path", "/grpc.testing.TestService/UnaryCall"),
                                                 ("content-type", "application/grpc"), ("te", "trailers")])
    connection.send_data(grpc_stream, struct.pack(">BI", 0, len(grpc_request)) + grpc_request, end_stream=True)
    connection.send_headers(json_stream, base + [(":path", "/v1/test_service/unary_call"),
                                                 ("content-type", "application/json")])
    connection.send_data(json_stream, b'{"responseSize": 1}', end_stream=True)
    connection.send_headers(lines_stream, base + [(":path", "/v1/test_service/streaming_output_call")])
    connection.send_data(lines_stream, b'{"responseParameters": [{"size": 1}, {"size": 1}]}', end_stream=True)
    sock.sendall(connection.data_to_send())

    headers, data, trailers, ended = {}, {}, {}, set()
    while len(ended) < 3:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        for event in connection.receive_data(chunk):
            if isinstance(event, h2.events.ResponseReceived):
                headers[event.stream_id] = dict((k.decode(), v.decode()) for k, v in event.headers)
            elif isinstance(event, h2.events.TrailersReceived):
                trailers[event.stream_id] = dict((k.decode(), v.decode()) for k, v in event.headers)
            elif isinstance(event, h2.events.DataReceived):
                data[event.stream_id] = data.get(event.stream_id, b"") + event.data
                connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                ended.add(event.stream_id)
        sock.sendall(connection.data_to_send())
    sock.close()

    assert headers[grpc_stream][":status"] == "200"
    assert headers[grpc_stream]["content-type"] == "application/grpc"
    assert trailers[grpc_stream]["grpc-status"] == "0"
    reply = messages_pb2.SimpleResponse.FromString(data[grpc_stream][5:])
    assert reply.payload.body == b"\0" * 5

    assert headers[json_stream][":status"] == "200"
    assert headers[json_stream]["content-type"] == "application/json"
    assert json_stream not in trailers
    assert json.loads(data[json_stream]) == {"payload": {"body": "AA=="}}

    assert headers[lines_stream]["content-type"] == "application/x-ndjson"
    assert data[lines_stream] == b'{"payload":{"body":"AA=="}}\n{"payload":{"body":"AA=="}}\n'


def test_grpcio_and_json_clients_at_once(port, channel):
    messages_pb2, _, test_pb2_grpc = modules()
    stub = test_pb2_grpc.TestServiceStub(channel)
    failures = []

    def grpc_calls():
        try:
            for size in range(1, 50):
                reply = stub.UnaryCall(messages_pb2.SimpleRequest(response_size=size), timeout=60)
                assert len(reply.payload.body) == size
        except Exception as error:  # noqa: BLE001 (reported below)
            failures.append(error)

    threads = [threading.Thread(target=grpc_calls) for _ in range(2)]
    for thread in threads:
        thread.start()
    with httpx.Client(timeout=60) as http1, httpx.Client(http1=False, http2=True, timeout=60) as http2:
        for size in range(1, 50):
            for client in (http1, http2):
                response = client.post(f"http://127.0.0.1:{port}/v1/test_service/unary_call",
                                       json={"responseSize": size})
                assert response.status_code == 200
                assert len(response.json()["payload"]["body"]) == 4 * ((size + 2) // 3)
    for thread in threads:
        thread.join()
    assert not failures, failures
