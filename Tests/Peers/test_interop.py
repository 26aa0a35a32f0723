"""gRPC interoperability, both directions, with stock grpcio as the peer.

- Python grpcio's interop client (interop_client.py) runs every case against
  glimpse-interop-server.
- The project's Swift client (glimpse-interop-client) runs every case against a grpcio
  TestService server (interop_server.py).
- grpc.health.v1 and server reflection (v1 and v1alpha) checked with
  grpcio-health-checking and grpcio-reflection clients.
"""
import pathlib
import shutil
import subprocess

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

import interop_client
import interop_server
from grpc_testing import modules, reflection_v1

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = list(interop_client.CASES)


def _binary(product):
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    binary = pathlib.Path(bin_path) / product
    if not binary.exists():
        subprocess.run([swift, "build", "--product", product], cwd=ROOT, check=True)
    return str(binary)


@pytest.fixture(scope="module")
def interop_server_address():
    process = subprocess.Popen([_binary("glimpse-interop-server"), "--port", "0"],
                               stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on port "):
        process.kill()
        pytest.fail(f"glimpse-interop-server did not start: {line!r}")
    yield f"127.0.0.1:{int(line.rsplit(' ', 1)[1])}"
    process.terminate()
    process.communicate(timeout=30)
    assert process.returncode == 0, f"glimpse-interop-server exited with {process.returncode}"


@pytest.fixture()
def channel(interop_server_address):
    with grpc.insecure_channel(interop_server_address) as channel:
        grpc.channel_ready_future(channel).result(timeout=60)
        yield channel


@pytest.mark.parametrize("case", CASES)
def test_grpcio_client_against_swift_server(channel, case):
    interop_client.run_case(channel, case)


@pytest.fixture(scope="module")
def grpcio_server_port():
    server = interop_server.serve(0)
    yield server.bound_port
    server.stop(grace=None)


@pytest.mark.parametrize("case", CASES)
def test_swift_client_against_grpcio_server(grpcio_server_port, case):
    done = subprocess.run(
        [_binary("glimpse-interop-client"), "--server_port", str(grpcio_server_port), "--test_case", case],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"PASS {case}" in done.stdout


def test_health_check_and_watch(channel):
    health = health_pb2_grpc.HealthStub(channel)
    serving = health_pb2.HealthCheckResponse.SERVING
    assert health.Check(health_pb2.HealthCheckRequest(service="")).status == serving
    assert health.Check(health_pb2.HealthCheckRequest(service="grpc.testing.TestService")).status == serving
    with pytest.raises(grpc.RpcError) as missing:
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"))
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
    watch = health.Watch(health_pb2.HealthCheckRequest(service="grpc.testing.TestService"))
    assert next(watch).status == serving
    watch.cancel()
    unknown = health.Watch(health_pb2.HealthCheckRequest(service="no.such.Service"))
    assert next(unknown).status == health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
    unknown.cancel()


def test_reflection_v1alpha_with_grpcio_reflection(channel):
    database = ProtoReflectionDescriptorDatabase(channel)
    services = set(database.get_services())
    assert {"grpc.testing.TestService", "grpc.health.v1.Health",
            "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"} <= services
    pool = descriptor_pool.DescriptorPool(database)
    service = pool.FindServiceByName("grpc.testing.TestService")
    assert "UnaryCall" in [m.name for m in service.methods]
    assert pool.FindMessageTypeByName("grpc.testing.SimpleRequest").fields_by_name["response_size"].number == 2
    # Glimpse's own contract travels too.
    assert pool.FindMessageTypeByName("glimpse.widget.v1.Timeline").oneofs_by_name["reload_policy"]
    with pytest.raises(KeyError):
        pool.FindMessageTypeByName("no.such.Message")


def test_reflection_v1(channel):
    reflection, reflection_grpc = reflection_v1()
    stub = reflection_grpc.ServerReflectionStub(channel)
    requests = [
        reflection.ServerReflectionRequest(list_services=""),
        reflection.ServerReflectionRequest(file_containing_symbol="grpc.testing.TestService"),
        reflection.ServerReflectionRequest(file_by_filename="glimpse/widget/v1/view.proto"),
        reflection.ServerReflectionRequest(file_containing_symbol="no.such.Symbol"),
    ]
    answers = list(stub.ServerReflectionInfo(iter(requests)))
    assert len(answers) == 4
    names = {s.name for s in answers[0].list_services_response.service}
    assert "grpc.testing.TestService" in names
    first = descriptor_pb2.FileDescriptorProto.FromString(answers[1].file_descriptor_response.file_descriptor_proto[0])
    assert first.name == "grpc/testing/test.proto"
    assert first.service[0].name == "TestService"
    view = descriptor_pb2.FileDescriptorProto.FromString(answers[2].file_descriptor_response.file_descriptor_proto[0])
    assert "View" in [m.name for m in view.message_type]
    assert answers[3].error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
