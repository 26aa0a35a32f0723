"""Silent connections are not kept forever, and a listener out of file descriptors waits
instead of spinning: the real executables over real sockets, with tiny timeouts given by
flag (the test waits on what the server does, never on a clock of its own).

- `--idle-timeout`: a connection with no call open that long is closed (HTTP/2 with a
  GOAWAY; HTTP/1.1 between requests; one that never said a word); one with a call open,
  however quiet, is kept.
- `--apns-tls-handshake-timeout`: a client that connects to the APNs TLS port and never
  completes its handshake is closed (the idle timeout is off there, to tell them apart).
- At the fd limit (`RLIMIT_NOFILE`), the accept loop backs off: idle CPU stays under 5 %,
  and once descriptors are free again the listener accepts.
"""
import resource
import socket
import time

import grpc
import h2.config
import h2.connection
import h2.events

from glimpse_protos import glimpse_modules
from process_probes import cpu_share, open_fds
from test_timeline_service import Process, RPC_TIMEOUT, _binary

glimpse_modules()
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2, intent_pb2_grpc  # noqa: E402

APP = "net.insoc.rtlair"
WAIT = 30  # how long a socket read may block before the test gives up (a guard, not a measure)


def _intent(tmp_path, *flags, **popen):
    return Process("glimpse-intent", [_binary("glimpse-intent"), "--port", "0", "--data-dir", str(tmp_path / "intent"),
                                      "--clock", "manual", *flags], tmp_path, **popen)


def _closed_by_server(sock):
    """Reads until the server closes the connection; returns what it sent."""
    sock.settimeout(WAIT)
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


def test_idle_connections_are_closed_and_busy_ones_kept(tmp_path):
    # The gateway's port serves gRPC, and JSON over HTTP/2 and HTTP/1.1.
    gateway = Process("glimpse-gateway", [_binary("glimpse-gateway"), "--port", "0", "--data-dir", str(tmp_path / "gw"),
                                          "--clock", "manual", "--idle-timeout", "0.5"], tmp_path)
    try:
        with grpc.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
            events = gateway_pb2_grpc.EventsStub(channel)
            device = gateway_pb2_grpc.DeviceStub(channel)
            last = events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).last_sequence
            # A call open and silent for longer than the idle timeout.
            follow = events.Follow(g.FollowEventsRequest(after_sequence=last), timeout=120)

            # A connection that never says a word is closed.
            silent = socket.create_connection(("127.0.0.1", gateway.port))
            assert _closed_by_server(silent) == b""
            # An HTTP/2 connection without a stream gets GOAWAY (NO_ERROR), then is closed.
            assert _goaway_then_closed(gateway.port)
            # An HTTP/1.1 connection is closed between requests.
            http1 = socket.create_connection(("127.0.0.1", gateway.port))
            http1.sendall(b"POST /v1/clock/now HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\n\r\n")
            assert _closed_by_server(http1).startswith(b"HTTP/1.1 200")

            # All that took longer than the idle timeout, and the follower's connection is
            # still there: an event reaches it.
            device.UpdateSettings(g.UpdateSettingsRequest(), timeout=RPC_TIMEOUT)
            assert next(follow).kind == "settings_changed"
            follow.cancel()
    finally:
        assert gateway.stop() == 0
    assert "no call open" in gateway.stderr()


def test_a_grpc_only_port_closes_idle_connections_with_goaway(tmp_path):
    service = _intent(tmp_path, "--idle-timeout", "0.5")
    try:
        assert _goaway_then_closed(service.port)
        silent = socket.create_connection(("127.0.0.1", service.port))
        # The server spoke first (its SETTINGS), then said GOAWAY and closed.
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        events = conn.receive_data(_closed_by_server(silent))
        assert any(isinstance(e, h2.events.ConnectionTerminated) and e.error_code == 0 for e in events), events
    finally:
        assert service.stop() == 0


def _goaway_then_closed(port):
    sock = socket.create_connection(("127.0.0.1", port))
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    events = conn.receive_data(_closed_by_server(sock))
    return any(isinstance(e, h2.events.ConnectionTerminated) and e.error_code == 0 for e in events)


def test_a_tls_handshake_that_never_completes_is_cut(tmp_path):
    argv = [_binary("glimpse-activity"), "--port", "0", "--data-dir", str(tmp_path / "activity"), "--clock", "manual",
            "--apns-tls-port", "auto", "--apns-h2c-port", "0", "--apns-auth", "none",
            "--idle-timeout", "0", "--apns-tls-handshake-timeout", "0.5"]
    service = Process("glimpse-activity", argv, tmp_path)
    try:
        line = service.lines.get(timeout=WAIT)
        assert line.startswith("apns-tls listening on port "), line
        port = int(line.split()[4])
        silent = socket.create_connection(("127.0.0.1", port))
        assert _closed_by_server(silent) == b""
        # Half a handshake (a ClientHello cut short) is no better.
        partial = socket.create_connection(("127.0.0.1", port))
        partial.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")
        assert _closed_by_server(partial) == b""
    finally:
        assert service.stop() == 0
    assert "TLS handshake not done" in service.stderr()


FD_LIMIT = 128


def _low_fd_limit():
    resource.setrlimit(resource.RLIMIT_NOFILE, (FD_LIMIT, FD_LIMIT))


def test_accepting_backs_off_at_the_fd_limit(tmp_path):
    service = _intent(tmp_path, preexec_fn=_low_fd_limit)
    pid = service.process.pid
    extra = []
    try:
        # More connections than descriptors: the kernel queues them, the server runs out.
        for _ in range(200):
            extra.append(socket.create_connection(("127.0.0.1", service.port)))
        deadline = time.monotonic() + WAIT
        while open_fds(pid) < FD_LIMIT:
            assert time.monotonic() < deadline, f"only {open_fds(pid)} of {FD_LIMIT} descriptors in use"
            time.sleep(0.1)
        share = cpu_share(pid, seconds=2)
        assert share < 0.05, f"glimpse-intent used {share:.0%} of a core with its descriptors exhausted"
        assert "accept failed" in service.stderr()
        for sock in extra:
            sock.close()
        extra = []
        # Descriptors free again: a new client is served.
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            intents = intent_pb2_grpc.IntentServiceStub(channel)
            assert intents.RegisterApp(intent_pb2.RegisterAppRequest(
                manifest=manifest_pb2.AppManifest(bundle_id=APP)), timeout=RPC_TIMEOUT).app_token
    finally:
        for sock in extra:
            sock.close()
        assert service.stop() == 0
