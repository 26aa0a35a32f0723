"""At least 100,000 mutated requests through the real APNs-compatible endpoint (h2c): random
and mutated headers, paths, methods and JSON bodies, valid and forged provider tokens off.
Every answer must be one of Apple's (status + `{"reason": …}` with a known reason, or 200 /
201 / 204), the server must never crash or stall, the push log must hold every push it
answered, and a valid push must still work afterwards.
"""
import json
import os
import random
import socket

import h2.config
import h2.connection
import h2.events
import grpc

from test_activity_service import APP, TOPIC, install, request_activity, live_payload, pushes  # noqa: F401
from test_timeline_service import Process, RPC_TIMEOUT, _binary

from glimpse.activity.v1 import activity_pb2 as a, activity_pb2_grpc  # noqa: E402

REQUESTS = int(os.environ.get("GLIMPSE_FUZZ_REQUESTS", "100000"))
IN_FLIGHT = 64
REASONS = {
    "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
    "DeviceTokenNotForTopic", "DuplicateHeaders", "InvalidPushType", "MissingDeviceToken", "MissingTopic",
    "PayloadEmpty", "TopicDisallowed", "BadPath", "MethodNotAllowed", "ExpiredToken", "Unregistered",
    "PayloadTooLarge", "TooManyRequests", "InternalServerError", "ServiceUnavailable", "MissingProviderToken",
    "InvalidProviderToken", "ExpiredProviderToken", "MissingChannelId", "BadChannelId", "ChannelNotRegistered",
    "BadRequestParams", "BadRequestPayload", "MissingPushType", "TopicMismatch", "CannotCreateChannelConfig",
}


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        choice = rng.random()
        if not data or choice < 0.2:
            data[rng.randint(0, len(data)):rng.randint(0, len(data))] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
        elif choice < 0.5:
            data[rng.randrange(len(data))] = rng.randrange(256)
        elif choice < 0.7:
            del data[rng.randrange(len(data)):rng.randrange(len(data)) + 1]
        elif choice < 0.85:
            data += data[:rng.randint(0, len(data))]
        else:
            i = rng.randrange(len(data))
            data[i:i] = rng.choice([b"{", b"}", b"[", b"]", b'"', b"\\u0000", b"1e999", b"-0", b"null", b",", b":"])
    return bytes(data)


def random_json(rng, depth=0):
    kinds = ["null", "bool", "int", "float", "str", "obj", "arr"] if depth < 6 else ["int", "str"]
    kind = rng.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return rng.choice([0, -1, 1, 2 ** 63, -(2 ** 64), rng.randint(-10 ** 12, 10 ** 12)])
    if kind == "float":
        return rng.choice([0.5, -1e300, 1.7976931348623157e308, rng.random()])
    if kind == "str":
        return rng.choice(["", "start", "update", "end", "x" * rng.randint(0, 50), "\u00e9\u4e2d\U0001F355", "\u0000"])
    if kind == "obj":
        keys = ["aps", "event", "timestamp", "content-state", "stale-date", "dismissal-date", "relevance-score",
                "alert", "attributes-type", "attributes", "input-push-token", "content-changed", "x"]
        return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randint(0, 5))}
    return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def request(rng, device, ts):
    """One mutated request: (headers, body)."""
    body = json.dumps(live_payload(rng.choice(["update", "end", "start"]), rng.randint(0, 60))).encode()
    headers = [(":method", "POST"), (":scheme", "http"), (":authority", "localhost"),
               (":path", f"/3/device/{device}"), ("apns-push-type", "liveactivity"), ("apns-topic", TOPIC)]
    r = rng.random()
    if r < 0.25:
        body = mutate_bytes(rng, body)
    elif r < 0.45:
        body = json.dumps(random_json(rng)).encode()
    elif r < 0.5:
        body = json.dumps({"aps": random_json(rng)}).encode()
    elif r < 0.52:
        body = b"x" * rng.choice([0, 4095, 4096, 4097, 5121, 9000])
    for _ in range(rng.randint(0, 3)):
        m = rng.random()
        if m < 0.2:
            headers.append((rng.choice(["apns-priority", "apns-expiration", "apns-collapse-id", "apns-id",
                                        "apns-push-type", "apns-topic", "apns-channel-id", "authorization"]),
                            rng.choice(["", "5", "10", "1", "0", "abc", "x" * 70, "bearer a.b.c", "-1",
                                        "123e4567-e89b-12d3-a456-426655440000", "\u00e9"])))
        elif m < 0.4 and len(headers) > 4:
            headers.pop(rng.randrange(4, len(headers)))
        elif m < 0.55:
            headers[3] = (":path", rng.choice([
                "/", "/3/device/", f"/3/device/{device}x", "/3/device/zz", f"/4/broadcasts/apps/{APP}",
                f"/1/apps/{APP}/channels", f"/1/apps/{APP}/all-channels", "/3/device/" + "ab" * 200,
                f"/3/device/{device}?q=1", "/../../etc/passwd", "/%00"]))
        elif m < 0.65:
            headers[0] = (":method", rng.choice(["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]))
        elif m < 0.8 and len(headers) > 4:
            i = rng.randrange(4, len(headers))
            name, value = headers[i]
            headers[i] = (name, mutate_bytes(rng, value.encode()).decode("utf-8", "replace"))
        else:
            headers.append((rng.choice(["x-junk", "apns-topic", "apns-push-type"]), rng.choice(["", TOPIC, "widgets"])))
    # A fresh timestamp now and then keeps some pushes applicable.
    return headers, body


class Connection:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=RPC_TIMEOUT)
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(
            client_side=True, validate_outbound_headers=False, normalize_outbound_headers=False,
            validate_inbound_headers=False))
        self.conn.initiate_connection()
        self.sock.sendall(self.conn.data_to_send())
        self.open = {}
        self.closed = False

    def send(self, headers, body):
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, headers, end_stream=not body)
        if body:
            # Respect flow control: send what the window allows, the rest when it opens.
            self.open[stream] = {"status": None, "body": b"", "pending": body, "head": headers[0][1] == "HEAD",
                                 "push": not headers[3][1].startswith("/1/apps/")}
            self.pump_send(stream)
        else:
            self.open[stream] = {"status": None, "body": b"", "pending": b"", "head": headers[0][1] == "HEAD",
                                 "push": not headers[3][1].startswith("/1/apps/")}
        self.sock.sendall(self.conn.data_to_send())

    def pump_send(self, stream):
        state = self.open[stream]
        while state["pending"]:
            window = min(self.conn.local_flow_control_window(stream), self.conn.max_outbound_frame_size)
            if window <= 0:
                return
            chunk, state["pending"] = state["pending"][:window], state["pending"][window:]
            self.conn.send_data(stream, chunk, end_stream=not state["pending"])

    def receive(self):
        """Reads once; returns finished (status, body) pairs."""
        data = self.sock.recv(65536)
        if not data:
            self.closed = True
            return []
        done = []
        for event in self.conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                state = self.open.get(event.stream_id)
                if state is not None:
                    state["status"] = int(dict(event.headers)[b":status"])
            elif isinstance(event, h2.events.DataReceived):
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                if event.stream_id in self.open:
                    self.open[event.stream_id]["body"] += event.data
            elif isinstance(event, h2.events.StreamEnded):
                state = self.open.pop(event.stream_id, None)
                if state is not None:
                    done.append((state["status"], None if state["head"] else state["body"], state["push"]))
            elif isinstance(event, h2.events.StreamReset):
                state = self.open.pop(event.stream_id, None)
                if state is not None:
                    done.append(("reset", b"", False))
            elif isinstance(event, h2.events.WindowUpdated):
                for stream in list(self.open):
                    if self.open[stream]["pending"]:
                        self.pump_send(stream)
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.closed = True
        self.sock.sendall(self.conn.data_to_send())
        return done


def test_a_hundred_thousand_mutated_requests(tmp_path):
    service = Process("glimpse-activity", [
        _binary("glimpse-activity"), "--port", "0", "--data-dir", str(tmp_path / "activity"), "--apns-auth", "none",
        "--apns-tls-port", "0", "--apns-h2c-port", "auto", "--clock", "system"], tmp_path)
    h2c = int(service.lines.get(timeout=RPC_TIMEOUT).split()[4])
    channel = grpc.insecure_channel(f"127.0.0.1:{service.port}")
    stub = activity_pb2_grpc.ActivityServiceStub(channel)

    class Handle:
        pass

    handle = Handle()
    handle.stub = stub
    try:
        token = install(handle)
        device = request_activity(handle, token).push_token
        rng = random.Random(20261124)
        statuses = {}
        answered = answered_pushes = resets = reconnects = 0
        conn = Connection(h2c)
        sent = 0
        while answered + resets < REQUESTS:
            while sent < REQUESTS and len(conn.open) < IN_FLIGHT and not conn.closed:
                headers, body = request(rng, device, None)
                try:
                    conn.send(headers, body)
                except Exception:  # h2 itself refused to frame it: not sent
                    conn.open.pop(conn.conn.highest_outbound_stream_id, None)
                    resets += 1
                sent += 1
            for status, body, is_push in conn.receive():
                if status == "reset":
                    resets += 1
                    continue
                answered += 1
                answered_pushes += is_push
                statuses[status] = statuses.get(status, 0) + 1
                if status not in (200, 201, 204) and body is not None:  # HEAD answers carry no body
                    assert body, f"status {status} without a reason"
                    reason = json.loads(body)["reason"]
                    assert reason in REASONS, (status, reason)
                    assert 400 <= status < 600
            if conn.closed:
                # A protocol error closed the connection: what was in flight is lost, not hung.
                resets += len(conn.open)
                conn.sock.close()
                conn = Connection(h2c)
                reconnects += 1
        print(f"fuzz: {answered} answered {statuses}, {resets} reset or unsendable, {reconnects} reconnects")
        assert answered >= REQUESTS * 0.9
        assert statuses.get(200, 0) > 0 and statuses.get(400, 0) > 0 and statuses.get(413, 0) > 0
        # Still serving, and a valid push still works.
        conn.sock.close()
        conn = Connection(h2c)
        conn.send([(":method", "POST"), (":scheme", "http"), (":authority", "localhost"),
                   (":path", f"/3/device/{device}"), ("apns-push-type", "liveactivity"), ("apns-topic", TOPIC)],
                  json.dumps(live_payload("update", 1)).encode())
        result = []
        while not result:
            result = conn.receive()
        assert result[0][0] == 200
        # Every push answered is in the log, the valid one last.
        log = []
        while True:
            page = stub.ListPushes(a.ListPushesRequest(limit=100_000, after_sequence=log[-1].sequence if log else 0),
                                   timeout=RPC_TIMEOUT).pushes
            if not page:
                break
            log += page
        assert len(log) == answered_pushes + 1
        assert log[-1].status == 200
    finally:
        channel.close()
        assert service.stop() == 0, service.stderr()
