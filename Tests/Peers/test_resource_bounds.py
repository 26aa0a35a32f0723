"""Bounded against clients that never read: the real gateway and glimpse-asset under the
probes of issue 28, over real sockets, stay under 256 MiB resident and keep answering a
bystander; a follower that falls behind ends with RESOURCE_EXHAUSTED.

- 100 `Events.Follow` streams from event 0 of a log of 60,000 events, never read (each
  follower used to copy the whole log);
- 10 connections of 100 asset `Get` streams of a 9 MB image in 1 MiB chunks, never read
  (each stream used to hold chunks the client never took).
"""
import grpc
import h2.events

from glimpse_protos import glimpse_modules
from process_probes import NeverReadingClient, memory_kib
from test_asset_service import png, put, register
from test_timeline_service import Process, RPC_TIMEOUT, _binary

glimpse_modules()
from glimpse.asset.v1 import asset_pb2 as a, asset_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402

LIMIT_KIB = 256 * 1024
FOLLOW = "/glimpse.gateway.v1.Events/Follow"


def _gateway(tmp_path, *flags):
    return Process("glimpse-gateway", [_binary("glimpse-gateway"), "--port", "0", "--data-dir", str(tmp_path / "gateway"),
                                       "--clock", "manual", *flags], tmp_path)


def _assert_resident_under_limit(process):
    rss, peak = memory_kib(process.process.pid)
    assert peak < LIMIT_KIB, f"{process.name} peaked at {peak // 1024} MiB resident (now {rss // 1024} MiB)"


def _settings_changes(device, count):
    """`count` events in the log: each UpdateSettings without a field is one settings_changed."""
    for start in range(0, count, 2000):
        calls = [device.UpdateSettings.future(g.UpdateSettingsRequest(), timeout=RPC_TIMEOUT)
                 for _ in range(min(2000, count - start))]
        for call in calls:
            call.result()


def test_followers_that_never_read_cost_no_copy_of_the_log(tmp_path):
    gateway = _gateway(tmp_path)
    clients = []
    try:
        with grpc.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
            device = gateway_pb2_grpc.DeviceStub(channel)
            events = gateway_pb2_grpc.EventsStub(channel)
            _settings_changes(device, 60_000)
            request = g.FollowEventsRequest(after_sequence=0).SerializeToString()
            for _ in range(10):
                client = NeverReadingClient(gateway.port)
                for _ in range(10):
                    client.call(FOLLOW, request)
                clients.append(client)
            # A bystander on its own connection: served, and it sees the whole log.
            last = events.List(g.ListEventsRequest(after_sequence=59_990), timeout=RPC_TIMEOUT).last_sequence
            assert last >= 60_000
            # Events keep coming while the followers read nothing.
            _settings_changes(device, 5_000)
            assert device.GetSettings(g.GetSettingsRequest(), timeout=RPC_TIMEOUT).device
            _assert_resident_under_limit(gateway)
    finally:
        for client in clients:
            client.close()
        assert gateway.stop() == 0


def _read_stream(client, stream):
    """Reads the connection until `stream` ends, crediting every byte (the client reads at
    last); returns the gRPC messages' bytes and the trailers."""
    conn, sock = client.conn, client.sock
    data, trailers = b"", None
    while trailers is None:
        received = sock.recv(1 << 16)
        assert received, "the server closed the connection before the stream ended"
        for event in conn.receive_data(received):
            if isinstance(event, h2.events.DataReceived) and event.stream_id == stream:
                data += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, stream)
            elif isinstance(event, h2.events.TrailersReceived) and event.stream_id == stream:
                trailers = dict(event.headers)
            elif isinstance(event, h2.events.StreamReset) and event.stream_id == stream:
                raise AssertionError(f"stream reset ({event.error_code})")
        sock.sendall(conn.data_to_send())
    messages = []
    while data:
        length = int.from_bytes(data[1:5], "big")
        messages.append(data[5:5 + length])
        data = data[5 + length:]
    return messages, trailers


def test_a_follower_that_falls_behind_ends_with_resource_exhausted(tmp_path):
    gateway = _gateway(tmp_path, "--follow-max-lag", "50")
    try:
        with grpc.insecure_channel(f"127.0.0.1:{gateway.port}") as channel:
            device = gateway_pb2_grpc.DeviceStub(channel)
            client = NeverReadingClient(gateway.port)
            stream = client.call(FOLLOW, g.FollowEventsRequest(after_sequence=0).SerializeToString())
            # More than the window, the stream's queue and the lag together, unread.
            _settings_changes(device, 6_000)
            messages, trailers = _read_stream(client, stream)
            client.close()
            assert trailers["grpc-status"] == "8", trailers
            sequences = [g.Event.FromString(m).sequence for m in messages]
            assert sequences == list(range(1, len(sequences) + 1)), "events were skipped"
            assert f"after_sequence {sequences[-1]}" in trailers["grpc-message"], trailers
            # The gateway goes on serving; following again from there works.
            follow = gateway_pb2_grpc.EventsStub(channel).Follow(
                g.FollowEventsRequest(after_sequence=sequences[-1]), timeout=RPC_TIMEOUT)
            assert next(follow).sequence == sequences[-1] + 1
            follow.cancel()
    finally:
        assert gateway.stop() == 0


def test_asset_gets_that_are_never_read_stay_bounded(tmp_path):
    service = Process("glimpse-asset", [_binary("glimpse-asset"), "--port", "0",
                                        "--data-dir", str(tmp_path / "asset")], tmp_path)
    clients = []
    try:
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = asset_pb2_grpc.AssetServiceStub(channel)
            app = register(stub, "com.example.pixartracker")
            poster = png(300, 200, filler=5_000)
            big = png(800, 600, filler=9_000_000)  # 9 MB in one IDAT
            put(stub, "com.example.pixartracker", "posters/big", big, metadata=app, chunk=1 << 20)
            put(stub, "com.example.pixartracker", "posters/small", poster, metadata=app)
            request = a.GetRequest(bundle_id="com.example.pixartracker", name="posters/big",
                                   chunk_size=1 << 20).SerializeToString()
            for _ in range(10):
                client = NeverReadingClient(service.port)
                for _ in range(100):
                    client.call("/glimpse.asset.v1.AssetService/Get", request, metadata=list(app))
                clients.append(client)
            # A bystander's Get on its own connection is answered whole.
            parts = list(stub.Get(a.GetRequest(bundle_id="com.example.pixartracker", name="posters/small"),
                                  metadata=app, timeout=RPC_TIMEOUT))
            assert b"".join(p.chunk for p in parts[1:]) == poster
            _assert_resident_under_limit(service)
    finally:
        for client in clients:
            client.close()
        assert service.stop() == 0

