"""The servers and the client work without CAP_NET_ADMIN, as in a container (podman and
docker leave it out). A socket option set at the wrong level (`.socketOption(.tcp_nodelay)`
is SOL_SOCKET/SO_DEBUG, which needs CAP_NET_ADMIN) went unnoticed as root on the host and
closed every connection inside containers: the gRPC server (glimpse-timeline), the APNs
endpoint (glimpse-activity over h2c) and the CLI's client (`glimpse health`) are each run
here with CAP_NET_ADMIN dropped from their bounding set (util-linux's setpriv).
"""
import os
import shutil
import subprocess

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from test_timeline_service import Process, _binary

SETPRIV = shutil.which("setpriv")
pytestmark = pytest.mark.skipif(os.geteuid() != 0 or SETPRIV is None,
                                reason="needs root and setpriv to drop CAP_NET_ADMIN")
WITHOUT_NET_ADMIN = [SETPRIV or "setpriv", "--bounding-set", "-net_admin"]


def test_grpc_server_and_cli_client_without_cap_net_admin(tmp_path):
    timeline = Process("glimpse-timeline", WITHOUT_NET_ADMIN + [
        _binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / "timeline")], tmp_path)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{timeline.port}") as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=60)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
        checked = subprocess.run(WITHOUT_NET_ADMIN + [_binary("glimpse"), "health", "--target", f"127.0.0.1:{timeline.port}"],
                                 capture_output=True, text=True, timeout=30)
        assert (checked.returncode, checked.stdout) == (0, "SERVING\n"), checked.stderr
    finally:
        assert timeline.stop() == 0, timeline.stderr()


def test_apns_endpoint_without_cap_net_admin(tmp_path):
    activity = Process("glimpse-activity", WITHOUT_NET_ADMIN + [
        _binary("glimpse-activity"), "--port", "0", "--data-dir", str(tmp_path / "activity"),
        "--apns-auth", "none", "--apns-tls-port", "0", "--apns-h2c-port", "auto"], tmp_path)
    try:
        line = activity.lines.get(timeout=60)
        assert line.startswith("apns-h2c listening on port "), line
        port = int(line.rsplit(" ", 1)[1])
        answered = subprocess.run(
            ["curl", "-sS", "--http2-prior-knowledge", "-o", "-", "-w", "\n%{http_code}", "-X", "POST",
             "-H", "apns-push-type: liveactivity", "-H", "apns-topic: com.example.app.push-type.liveactivity",
             "-d", '{"aps":{"timestamp":1,"event":"update","content-state":{}}}',
             f"http://127.0.0.1:{port}/3/device/00"], capture_output=True, text=True, timeout=30)
        assert answered.returncode == 0, answered.stderr
        body, status = answered.stdout.rsplit("\n", 1)
        assert status == "400" and "BadDeviceToken" in body, answered.stdout
    finally:
        assert activity.stop() == 0, activity.stderr()
