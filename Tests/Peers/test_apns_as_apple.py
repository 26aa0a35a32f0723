"""glimpse-activity's APNs endpoint where it must behave as Apple's (issue 28, point 9),
over real HTTP/2 (Python's `h2` on a plain socket, h2c) against the real executable:

- the first pushes sent at once on a new connection with the same new provider token are
  never 429 TooManyProviderTokenUpdates;
- with token authentication a connection carries one stream (SETTINGS_MAX_CONCURRENT_STREAMS
  1) until a valid token has been posted, then more; a stream past the limit is refused
  (REFUSED_STREAM, safe to retry); with `--apns-auth none` the limit is the full one at once;
- a duplicated `authorization` header is 400 DuplicateHeaders;
- broadcast bodies up to 5,120 bytes are taken, and a channel with message storage policy 1
  gives its latest message to an activity that subscribes later (within 8 h, on the
  service's manual clock).
"""
import contextlib
import json
import socket

import grpc
import h2.config
import h2.connection
import h2.errors
import h2.events
from h2.settings import SettingCodes

from glimpse_protos import glimpse_modules
from test_activity_service import (  # noqa: F401 (team_key: the fixture)
    APP, TOPIC, Activity, install, live_payload, provider_token, request_activity, team_key)
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from google.protobuf import timestamp_pb2  # noqa: E402

START = 1767258000  # 2026-01-01T09:00:00Z, the manual clock's start
# Connections, and pushes in each one's first flight: the race used to show in some of
# them (it needs two handlers checking the token at the same moment), never in all.
ROUNDS, PER = 40, 12


class Connection:
    """One h2c connection: requests go out as written; `pump` reads until a condition."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=RPC_TIMEOUT)
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        self.max_streams = None       # the server's SETTINGS_MAX_CONCURRENT_STREAMS, as last announced
        self.answers = {}             # stream id -> [status, body] or ["reset", error code]
        self.headers = {}             # stream id -> response headers

    def push(self, path, body, headers, flush=True):
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":authority", "localhost"),
                                        (":path", path), *headers])
        self.conn.send_data(stream, body, end_stream=True)
        if flush:
            self.flush()
        return stream

    def flush(self):
        self.sock.sendall(self.conn.data_to_send())

    def pump(self, done):
        while not done():
            data = self.sock.recv(65536)
            assert data, "the server closed the connection"
            for event in self.conn.receive_data(data):
                if isinstance(event, h2.events.RemoteSettingsChanged):
                    changed = event.changed_settings.get(SettingCodes.MAX_CONCURRENT_STREAMS)
                    if changed is not None:
                        self.max_streams = changed.new_value
                elif isinstance(event, h2.events.ResponseReceived):
                    self.headers[event.stream_id] = dict(event.headers)
                    self.answers[event.stream_id] = [int(self.headers[event.stream_id][":status"]), b""]
                elif isinstance(event, h2.events.DataReceived):
                    self.answers[event.stream_id][1] += event.data
                    self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamReset):
                    self.answers[event.stream_id] = ["reset", event.error_code]
                elif isinstance(event, h2.events.ConnectionTerminated):
                    raise AssertionError(f"GOAWAY {event.error_code}: {event.additional_data}")
            self.flush()

    def answer(self, stream):
        """(status, reason) of a stream once answered, or ("reset", code)."""
        self.pump(lambda: stream in self.answers and (self.answers[stream][0] == "reset" or self._ended(stream)))
        status, body = self.answers[stream]
        if status == "reset":
            return status, body
        return status, json.loads(body)["reason"] if body else ""

    def _ended(self, stream):
        state = self.conn.streams.get(stream)
        return state is None or state.closed

    def close(self):
        self.sock.close()


def update_headers(jwt):
    headers = [("apns-push-type", "liveactivity"), ("apns-topic", TOPIC)]
    return headers + ([("authorization", f"bearer {jwt}")] if jwt else [])


@contextlib.contextmanager
def pushable(tmp_path, key_path):
    """glimpse-activity on h2c checking provider tokens, with an app and one activity:
    the service and the activity's push token."""
    service = Activity(tmp_path, key_path, tls=False)
    try:
        yield service, request_activity(service, install(service)).push_token
    finally:
        assert service.stop() == 0, service.process.stderr()


def test_first_pushes_at_once_with_a_new_token_are_never_429(tmp_path, team_key):
    key_path, pem = team_key
    with pushable(tmp_path, key_path) as (service, device):
        port = service.ports["apns-h2c"]
        statuses = []
        for round_ in range(ROUNDS):
            jwt = provider_token(pem)
            connection = Connection(port)
            # PER pushes in the first flight, before the server's SETTINGS is read.
            streams = [connection.push(f"/3/device/{device}", json.dumps(live_payload("update", round_ * 10 + i)).encode(),
                                       update_headers(jwt), flush=False) for i in range(PER)]
            connection.flush()
            answers = [connection.answer(stream) for stream in streams]
            statuses += [status for status, _ in answers]
            refused = [stream for stream, answer in zip(streams, answers) if answer[0] == "reset"]
            assert all(answer == ("reset", h2.errors.ErrorCodes.REFUSED_STREAM)
                       for answer in answers if answer[0] == "reset"), answers
            # Refused streams were never processed: sent again once the token is in, they go through.
            for stream in refused:
                retried = connection.push(f"/3/device/{device}", json.dumps(live_payload("update", 1)).encode(),
                                          update_headers(jwt))
                assert connection.answer(retried) == (200, "")
            connection.close()
        assert 429 not in statuses, statuses
        assert statuses.count(200) >= ROUNDS


def test_one_stream_until_a_valid_provider_token(tmp_path, team_key):
    key_path, pem = team_key
    with pushable(tmp_path, key_path) as (service, device):
        connection = Connection(service.ports["apns-h2c"])
        connection.pump(lambda: connection.max_streams is not None)
        assert connection.max_streams == 1
        body = json.dumps(live_payload("update", 5)).encode()
        refused = connection.push(f"/3/device/{device}", body, update_headers(None))
        assert connection.answer(refused) == (403, "MissingProviderToken")
        assert connection.max_streams == 1  # a refused token earns nothing
        jwt = provider_token(pem)  # one token: a new one within 20 minutes would be 429
        accepted = connection.push(f"/3/device/{device}", body, update_headers(jwt))
        assert connection.answer(accepted) == (200, "")
        assert connection.max_streams == 1000  # announced before the answer that earned it
        many = [connection.push(f"/3/device/{device}", body, update_headers(jwt), flush=False) for _ in range(20)]
        connection.flush()
        assert [connection.answer(stream) for stream in many] == [(200, "")] * 20
        connection.close()

    (tmp_path / "none").mkdir()
    open_service = Activity(tmp_path / "none", key_path, tls=False, extra=["--apns-auth", "none"])
    try:
        connection = Connection(open_service.ports["apns-h2c"])
        connection.pump(lambda: connection.max_streams is not None)
        assert connection.max_streams == 1000  # no token to wait for
        connection.close()
    finally:
        assert open_service.stop() == 0, open_service.process.stderr()


def test_a_duplicated_authorization_header_is_400_duplicate_headers(tmp_path, team_key):
    key_path, pem = team_key
    with pushable(tmp_path, key_path) as (service, device):
        connection = Connection(service.ports["apns-h2c"])
        good = provider_token(pem)
        body = json.dumps(live_payload("update", 5)).encode()
        for second in (good, "not.a.jwt"):
            stream = connection.push(f"/3/device/{device}", body,
                                     update_headers(good) + [("authorization", f"bearer {second}")])
            assert connection.answer(stream) == (400, "DuplicateHeaders"), second
        connection.close()
        log = service.stub.ListPushes(a.ListPushesRequest(), timeout=RPC_TIMEOUT).pushes
        assert [(p.status, p.reason) for p in log] == [(400, "DuplicateHeaders")] * 2


class Broadcaster:
    """glimpse-activity on a manual clock without provider tokens, an app, and an h2c
    connection for channel management and broadcasts."""

    def __init__(self, tmp_path, key_path):
        self.service = Activity(tmp_path, key_path, tls=False,
                                extra=["--apns-auth", "none", "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"])
        self.token = install(self.service)
        self.connection = Connection(self.service.ports["apns-h2c"])

    def channel(self, policy):
        """Channel management: POST /1/apps/<bundle>/channels; the new channel's id."""
        stream = self.connection.push(
            f"/1/apps/{APP}/channels", json.dumps({"message-storage-policy": policy, "push-type": "LiveActivity"}).encode(), [])
        assert self.connection.answer(stream) == (201, "")
        return self.connection.headers[stream]["apns-channel-id"]

    def broadcast(self, channel_id, body):
        stream = self.connection.push(f"/4/broadcasts/apps/{APP}", body,
                                      [("apns-push-type", "LiveActivity"), ("apns-channel-id", channel_id)])
        return self.connection.answer(stream)

    def subscribe(self, channel_id):
        """A new activity following the channel (its own content: eta 20); its content now."""
        activity = self.service.stub.Request(a.RequestActivityRequest(
            bundle_id=APP, attributes_type="PizzaDeliveryAttributes", content=a.Content(state_json='{"eta":20}'),
            channel_id=channel_id), metadata=_bearer(self.token), timeout=RPC_TIMEOUT).activity
        return activity.activity_id, json.loads(activity.content.state_json)

    def content(self, activity_id):
        return json.loads(self.service.stub.GetActivity(a.GetActivityRequest(activity_id=activity_id),
                                                        timeout=RPC_TIMEOUT).content.state_json)

    def advance_to(self, seconds):
        clock_pb2_grpc.ClockStub(self.service.channel).AdvanceTo(
            clock_pb2.AdvanceToRequest(to=timestamp_pb2.Timestamp(seconds=seconds)), timeout=RPC_TIMEOUT)

    def stop(self):
        self.connection.close()
        assert self.service.stop() == 0, self.service.process.stderr()


UPDATE = json.dumps({"aps": {"timestamp": START, "event": "update", "content-state": {"eta": 7}}}, separators=(",", ":"))


def test_broadcast_bodies_up_to_5120_bytes(tmp_path, team_key):
    apns = Broadcaster(tmp_path, team_key[0])
    try:
        channel = apns.channel(0)
        follower, _ = apns.subscribe(channel)
        padded = UPDATE[:-1] + ',"p":"' + "x" * (5120 - len(UPDATE) - 7) + '"}'
        assert len(padded) == 5120
        assert apns.broadcast(channel, padded.encode()) == (200, "")
        assert apns.content(follower) == {"eta": 7}
        assert apns.broadcast(channel, (padded[:-2] + 'x"}').encode()) == (413, "PayloadTooLarge")
    finally:
        apns.stop()


def test_a_channel_with_storage_policy_1_gives_its_latest_message_to_later_subscribers(tmp_path, team_key):
    apns = Broadcaster(tmp_path, team_key[0])
    try:
        kept, plain = apns.channel(1), apns.channel(0)
        # Nobody follows either yet; Apple takes both.
        assert apns.broadcast(kept, UPDATE.encode()) == (200, "")
        assert apns.broadcast(plain, UPDATE.encode()) == (200, "")
        apns.advance_to(START + 8 * 3600)
        assert apns.subscribe(kept)[1] == {"eta": 7}
        assert apns.subscribe(plain)[1] == {"eta": 20}  # policy 0 keeps nothing
        apns.advance_to(START + 8 * 3600 + 1)
        assert apns.subscribe(kept)[1] == {"eta": 20}  # past 8 h: gone
    finally:
        apns.stop()
