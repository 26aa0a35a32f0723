"""glimpse-activity with push servers nobody here wrote: the real executable (system clock,
JWT provider tokens with a team key, a local CA) and
- curl over h2c (`--http2-prior-knowledge`),
- aioapns over TLS without ALPN (its APNs host and port overridden),
- pyapns-client (httpx, HTTP/2 over TLS with ALPN; its base URL overridden),
each starting (push-to-start), updating and ending a Live Activity and getting Apple's
answers for bad tokens, bad topics, oversize payloads and expired provider tokens. The push
log (ListPushes) shows every push with its outcome; a kill -9 loses no acknowledged push.
"""
import asyncio
import json
import ssl
import subprocess
import time
import uuid

import grpc
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from glimpse_protos import glimpse_modules
from test_timeline_service import Process, RPC_TIMEOUT, _binary, _bearer, _code

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a, activity_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2  # noqa: E402

APP = "com.example.pizza"
TOPIC = f"{APP}.push-type.liveactivity"
TEAM, KEY_ID = "TEAM123456", "KEY1234567"
LINE_TIMEOUT = 60


class Activity:
    """A running glimpse-activity with its three ports and the team key."""

    def __init__(self, tmp_path, key_path, name="glimpse-activity", tls=True, extra=()):
        self.argv = [_binary("glimpse-activity"), "--port", "0", "--data-dir", str(tmp_path / "activity"),
                     "--apns-tls-port", "auto" if tls else "0", "--apns-h2c-port", "auto",
                     "--apns-key", f"{TEAM}:{KEY_ID}:{key_path}", *extra]
        self.tmp_path = tmp_path
        self.listeners = 2 if tls else 1
        self.start(name)

    def start(self, name="glimpse-activity"):
        self.process = Process(name, self.argv, self.tmp_path)
        self.ports = {}
        self.ca = None
        while len(self.ports) < self.listeners:
            line = self.process.lines.get(timeout=LINE_TIMEOUT)
            assert line is not None, self.process.stderr()
            words = line.split()
            self.ports[words[0]] = int(words[4])
            if "(CA:" in line:
                self.ca = line.split("(CA: ", 1)[1].rstrip(")")
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.process.port}")
        self.stub = activity_pb2_grpc.ActivityServiceStub(self.channel)

    def stop(self):
        self.channel.close()
        return self.process.stop()

    def kill(self):
        self.channel.close()
        self.process.process.kill()
        self.process.process.wait(timeout=60)


@pytest.fixture
def team_key(tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    path = tmp_path / f"AuthKey_{KEY_ID}.p8"
    path.write_bytes(pem)
    return path, pem


def provider_token(pem, iat=None):
    return jwt.encode({"iss": TEAM, "iat": int(time.time()) if iat is None else iat}, pem, algorithm="ES256",
                      headers={"kid": KEY_ID})


def install(service):
    manifest = manifest_pb2.AppManifest(
        bundle_id=APP, activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
    return service.stub.InstallApp(a.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token


def request_activity(service, token, state='{"eta":20}', attributes="{}"):
    """Requests a .token activity; waits for its push token (ActivityKit hands it out
    asynchronously, as `pushTokenUpdates`)."""
    activity = service.stub.Request(a.RequestActivityRequest(
        bundle_id=APP, attributes_type="PizzaDeliveryAttributes", attributes_json=attributes,
        content=a.Content(state_json=state), token=True), metadata=_bearer(token), timeout=RPC_TIMEOUT).activity
    deadline = time.monotonic() + RPC_TIMEOUT
    while not activity.push_token and time.monotonic() < deadline:
        time.sleep(0.01)
        activity = service.stub.GetActivity(a.GetActivityRequest(activity_id=activity.activity_id),
                                            metadata=_bearer(token), timeout=RPC_TIMEOUT)
    assert activity.push_token, "no push token was issued"
    return activity


def live_payload(event, eta, **extra):
    aps = {"timestamp": int(time.time()), "event": event, "content-state": {"eta": eta}, **extra}
    return {"aps": aps}


def curl(service, path, body, headers, pem=None):
    """curl over h2c with prior knowledge; returns (status, headers, body)."""
    argv = ["curl", "-s", "-i", "--http2-prior-knowledge", "-X", "POST",
            f"http://127.0.0.1:{service.ports['apns-h2c']}{path}", "--data-binary", "@-"]
    for name, value in headers.items():
        argv += ["-H", f"{name}: {value}"]
    if pem is not None:
        argv += ["-H", f"authorization: bearer {provider_token(pem)}"]
    out = subprocess.run(argv, input=body.encode(), capture_output=True, timeout=RPC_TIMEOUT, check=True).stdout.decode()
    head, _, payload = out.partition("\r\n\r\n")
    lines = head.split("\r\n")
    status = int(lines[0].split()[1])
    response_headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return status, response_headers, payload


def pushes(service):
    return service.stub.ListPushes(a.ListPushesRequest(), timeout=RPC_TIMEOUT).pushes


def test_curl_over_h2c(tmp_path, team_key):
    key_path, pem = team_key
    service = Activity(tmp_path, key_path)
    try:
        token = install(service)
        activity = request_activity(service, token, attributes='{"order":"42"}')
        device = activity.push_token
        la = {"apns-push-type": "liveactivity", "apns-topic": TOPIC}

        status, headers, body = curl(service, f"/3/device/{device}", json.dumps(live_payload("update", 10)), la, pem)
        assert status == 200 and body == "" and headers.get("apns-id")
        got = service.stub.GetActivity(a.GetActivityRequest(activity_id=activity.activity_id), metadata=_bearer(token),
                                       timeout=RPC_TIMEOUT)
        assert json.loads(got.content.state_json) == {"eta": 10}

        # Apple's answers.
        cases = [
            (f"/3/device/{'ab' * 32}", json.dumps(live_payload("update", 9)), la, 400, "BadDeviceToken"),
            (f"/3/device/{device}", json.dumps(live_payload("update", 9)),
             {**la, "apns-topic": APP}, 400, "BadTopic"),
            (f"/3/device/{device}", json.dumps({"aps": {"event": "update", "pad": "x" * 4100}}), la, 413, "PayloadTooLarge"),
        ]
        for path, payload, hdrs, want_status, want_reason in cases:
            status, _, body = curl(service, path, payload, hdrs, pem)
            assert (status, json.loads(body)["reason"]) == (want_status, want_reason)
        expired = subprocess.run(
            ["curl", "-s", "--http2-prior-knowledge", "-X", "POST", "-H", "apns-push-type: liveactivity",
             "-H", f"apns-topic: {TOPIC}", "-H", f"authorization: bearer {provider_token(pem, iat=int(time.time()) - 3700)}",
             "--data-binary", json.dumps(live_payload("update", 8)), "-w", "\n%{http_code}",
             f"http://127.0.0.1:{service.ports['apns-h2c']}/3/device/{device}"],
            capture_output=True, timeout=RPC_TIMEOUT, check=True).stdout.decode().rsplit("\n", 1)
        assert expired[1] == "403" and json.loads(expired[0])["reason"] == "ExpiredProviderToken"

        status, _, _ = curl(service, f"/3/device/{device}", json.dumps(live_payload("end", 0)), la, pem)
        assert status == 200
        log = pushes(service)
        assert [(p.status, p.reason) for p in log] == [
            (200, ""), (400, "BadDeviceToken"), (400, "BadTopic"), (413, "PayloadTooLarge"),
            (403, "ExpiredProviderToken"), (200, "")]
        assert log[-1].states[0].before == a.ACTIVITY_STATE_ACTIVE and log[-1].states[0].after == a.ACTIVITY_STATE_ENDED
    finally:
        assert service.stop() == 0, service.process.stderr()


def test_aioapns_over_tls_without_alpn(tmp_path, team_key):
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.connection import APNsProductionClientProtocol

    key_path, pem = team_key
    service = Activity(tmp_path, key_path)
    try:
        token = install(service)
        start_token = service.stub.GetPushToStartToken(a.PushToStartTokenRequest(
            bundle_id=APP, attributes_type="PizzaDeliveryAttributes"), metadata=_bearer(token), timeout=RPC_TIMEOUT).push_token
        APNsProductionClientProtocol.APNS_SERVER = "127.0.0.1"
        APNsProductionClientProtocol.APNS_PORT = service.ports["apns-tls"]
        context = ssl.create_default_context(cafile=service.ca)  # no ALPN offered, as aioapns does

        async def run():
            client = APNs(key=pem.decode(), key_id=KEY_ID, team_id=TEAM, topic=TOPIC, ssl_context=context)
            started = await client.send_notification(NotificationRequest(
                device_token=start_token, push_type=PushType.LIVEACTIVITY,
                message=live_payload("start", 30, **{"attributes-type": "PizzaDeliveryAttributes",
                                                      "attributes": {"order": "7"}, "input-push-token": 1,
                                                      "alert": {"title": "Pizza", "body": "Order placed"}})))
            bad = await client.send_notification(NotificationRequest(
                device_token="cd" * 32, push_type=PushType.LIVEACTIVITY, message=live_payload("update", 1)))
            return started, bad, client

        started, bad, client = asyncio.run(run())
        assert started.is_successful, started.description
        assert not bad.is_successful and bad.description == "BadDeviceToken" and bad.status == "400"
        listed = service.stub.ListActivities(a.ListActivitiesRequest(bundle_id=APP), metadata=_bearer(token),
                                             timeout=RPC_TIMEOUT).activities
        assert len(listed) == 1 and listed[0].attributes_type == "PizzaDeliveryAttributes"
        device = listed[0].push_token
        assert device

        async def update_and_end():
            client = APNs(key=pem.decode(), key_id=KEY_ID, team_id=TEAM, topic=TOPIC, ssl_context=context)
            updated = await client.send_notification(NotificationRequest(
                device_token=device, push_type=PushType.LIVEACTIVITY, message=live_payload("update", 15)))
            ended = await client.send_notification(NotificationRequest(
                device_token=device, push_type=PushType.LIVEACTIVITY, message=live_payload("end", 0)))
            return updated, ended

        updated, ended = asyncio.run(update_and_end())
        assert updated.is_successful and ended.is_successful
        log = pushes(service)
        assert [p.event for p in log if p.status == 200] == ["start", "update", "end"]
        assert log[-1].states[0].after == a.ACTIVITY_STATE_ENDED
    finally:
        assert service.stop() == 0, service.process.stderr()


def test_pyapns_client_over_tls_with_alpn_and_kill_9(tmp_path, team_key):
    from pyapns_client import APNSClient, IOSNotification
    from pyapns_client import exceptions as apns_errors

    class LivePayload:
        def __init__(self, body):
            self.body = body

        def to_json(self):
            return json.dumps(self.body).encode()

    key_path, pem = team_key
    service = Activity(tmp_path, key_path)
    try:
        token = install(service)
        activity = request_activity(service, token)
        client = APNSClient(mode=APNSClient.MODE_PROD, root_cert_path=service.ca, auth_key_path=str(key_path),
                            auth_key_id=KEY_ID, team_id=TEAM)
        client._base_url = f"https://127.0.0.1:{service.ports['apns-tls']}"

        def send(device, body, topic=TOPIC):
            client.push(IOSNotification(payload=LivePayload(body), topic=topic, push_type="liveactivity"), device)

        send(activity.push_token, live_payload("update", 12))
        with pytest.raises(apns_errors.BadDeviceTokenException):
            send("ef" * 32, live_payload("update", 11))
        with pytest.raises(apns_errors.BadTopicException):
            send(activity.push_token, live_payload("update", 11), topic=f"{APP}.push-type.widgets.x")
        with pytest.raises(apns_errors.PayloadTooLargeException):
            send(activity.push_token, {"aps": {"event": "update", "pad": "x" * 4100}})
        client.close()
        acknowledged = [p.apns_id for p in pushes(service)]

        # kill -9: every acknowledged push and its effect are still there after a restart.
        service.kill()
        service.start("glimpse-activity-again")
        assert [p.apns_id for p in pushes(service)] == acknowledged
        got = service.stub.GetActivity(a.GetActivityRequest(activity_id=activity.activity_id), metadata=_bearer(token),
                                       timeout=RPC_TIMEOUT)
        assert json.loads(got.content.state_json) == {"eta": 12}
        assert got.push_token == activity.push_token
        # The restarted endpoint takes the same stock client again.
        client = APNSClient(mode=APNSClient.MODE_PROD, root_cert_path=service.ca, auth_key_path=str(key_path),
                            auth_key_id=KEY_ID, team_id=TEAM)
        client._base_url = f"https://127.0.0.1:{service.ports['apns-tls']}"
        send(activity.push_token, live_payload("end", 0))
        client.close()
        assert pushes(service)[-1].states[0].after == a.ACTIVITY_STATE_ENDED
    finally:
        assert service.stop() == 0, service.process.stderr()


def test_isolation_faults_and_refusals_over_grpc(tmp_path, team_key):
    key_path, pem = team_key
    service = Activity(tmp_path, key_path)
    try:
        token = install(service)
        other = service.stub.InstallApp(a.InstallAppRequest(manifest=manifest_pb2.AppManifest(
            bundle_id="com.example.other")), timeout=RPC_TIMEOUT).app_token
        activity = request_activity(service, token, state='{"eta":5}')
        # Another app reaches nothing of this one.
        assert _code(service.stub.GetActivity, a.GetActivityRequest(activity_id=activity.activity_id),
                     metadata=_bearer(other)) == grpc.StatusCode.PERMISSION_DENIED
        assert _code(service.stub.ListPushes, a.ListPushesRequest(bundle_id=APP),
                     metadata=_bearer(other)) == grpc.StatusCode.PERMISSION_DENIED
        # ActivityKit's refusals are FAILED_PRECONDITION naming ActivityAuthorizationError.
        with pytest.raises(grpc.RpcError) as refused:
            service.stub.Request(a.RequestActivityRequest(
                bundle_id=APP, attributes_type="Undeclared", content=a.Content(state_json="{}")),
                metadata=_bearer(token), timeout=RPC_TIMEOUT)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "unsupportedTarget" in refused.value.details()
        assert _code(service.stub.Request, a.RequestActivityRequest(
            bundle_id=APP, attributes_type="PizzaDeliveryAttributes", content=a.Content(state_json="[1]")),
            metadata=_bearer(token)) == grpc.StatusCode.INVALID_ARGUMENT
        # A fault: the next push for the token answers 410 Unregistered, then pushes go through.
        service.stub.InjectFault(a.InjectFaultRequest(device_token=activity.push_token, count=1, status=410,
                                                      reason="Unregistered"), timeout=RPC_TIMEOUT)
        la = {"apns-push-type": "liveactivity", "apns-topic": TOPIC}
        status, _, body = curl(service, f"/3/device/{activity.push_token}", json.dumps(live_payload("update", 4)), la, pem)
        assert status == 410 and json.loads(body)["reason"] == "Unregistered"
        status, _, _ = curl(service, f"/3/device/{activity.push_token}", json.dumps(live_payload("update", 4)), la, pem)
        assert status == 200
    finally:
        assert service.stop() == 0, service.process.stderr()


def test_a_widget_push_reloads_the_apps_widgets_at_glimpse_timeline(tmp_path):
    """iOS 26 widget push: `{"aps":{"content-changed":true}}` to the app's widget push token
    acts as `reloadAllTimelines()` at glimpse-timeline, charged to the budget as an app's
    request is."""
    import sys as _sys
    from test_timeline_service import PEERS, PIXAR, _manifest
    from glimpse.timeline.v1 import timeline_pb2 as t, timeline_pb2_grpc
    from glimpse.widget.v1 import family_pb2

    provider = Process("provider", [_sys.executable, str(PEERS / "pixar_provider.py"), "--port", "0"], tmp_path)
    manual = ["--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"]
    timeline = Process("glimpse-timeline", [_binary("glimpse-timeline"), "--port", "0",
                                            "--data-dir", str(tmp_path / "timeline"), *manual], tmp_path)
    activity = Process("glimpse-activity", [
        _binary("glimpse-activity"), "--port", "0", "--data-dir", str(tmp_path / "activity"), *manual,
        "--apns-auth", "none", "--apns-tls-port", "0", "--apns-h2c-port", "auto",
        "--timeline-address", f"127.0.0.1:{timeline.port}"], tmp_path)
    h2c = int(activity.lines.get(timeout=LINE_TIMEOUT).split()[4])
    try:
        with grpc.insecure_channel(f"127.0.0.1:{timeline.port}") as t_channel, \
                grpc.insecure_channel(f"127.0.0.1:{activity.port}") as a_channel:
            widgets = timeline_pb2_grpc.TimelineServiceStub(t_channel)
            activities = activity_pb2_grpc.ActivityServiceStub(a_channel)
            manifest = _manifest(PIXAR, "PixarFilmWidget", [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL],
                                 f"127.0.0.1:{provider.port}")
            t_token = widgets.InstallApp(t.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
            a_token = activities.InstallApp(a.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
            placed = widgets.Place(t.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget",
                                                  family=family_pb2.WIDGET_FAMILY_SYSTEM_SMALL), timeout=RPC_TIMEOUT)
            placement = placed.placement.placement_id

            def used():
                return widgets.GetPlacement(t.GetPlacementRequest(placement_id=placement), metadata=_bearer(t_token),
                                            timeout=RPC_TIMEOUT).budget.used

            # Past the spacing after the placement's first reload, on the stack's one clock.
            from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc
            from google.protobuf import timestamp_pb2
            later = timestamp_pb2.Timestamp(seconds=1767258000 + 600)
            for channel in (t_channel, a_channel):
                clock_pb2_grpc.ClockStub(channel).AdvanceTo(clock_pb2.AdvanceToRequest(to=later), timeout=RPC_TIMEOUT)
            before = used()
            widget_token = activities.GetWidgetPushToken(a.WidgetPushTokenRequest(bundle_id=PIXAR),
                                                         metadata=_bearer(a_token), timeout=RPC_TIMEOUT).push_token
            out = subprocess.run(
                ["curl", "-s", "--http2-prior-knowledge", "-X", "POST", "-w", "%{http_code}",
                 "-H", "apns-push-type: widgets", "-H", f"apns-topic: {PIXAR}.push-type.widgets",
                 "--data-binary", '{"aps":{"content-changed":true}}',
                 f"http://127.0.0.1:{h2c}/3/device/{widget_token}"],
                capture_output=True, timeout=RPC_TIMEOUT, check=True).stdout.decode()
            assert out == "200"
            # The reload was asked of glimpse-timeline (and charged) before the 200.
            assert used() == before + 1
            log = activities.ListPushes(a.ListPushesRequest(bundle_id=PIXAR), metadata=_bearer(a_token),
                                        timeout=RPC_TIMEOUT).pushes
            assert log[-1].push_type == "widgets" and log[-1].outcomes[0].kind == a.Outcome.KIND_APPLIED
    finally:
        codes = [p.stop() for p in (activity, timeline, provider)]
    assert codes[:2] == [0, 0], activity.stderr() + timeline.stderr()


def test_token_refresh_rule_is_a_setting(tmp_path, team_key):
    """A new provider token on a connection sooner than --apns-token-refresh seconds after
    the last is 429 TooManyProviderTokenUpdates; with 0, any refresh is taken."""
    import h2.config
    import h2.connection
    import h2.events
    import socket

    key_path, pem = team_key

    def two_tokens(port, device):
        sock = socket.create_connection(("127.0.0.1", port), timeout=RPC_TIMEOUT)
        conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        conn.initiate_connection()
        statuses = []
        now = int(time.time())
        for iat in (now - 60, now):  # one minute apart, on one connection
            stream = conn.get_next_available_stream_id()
            conn.send_headers(stream, [
                (":method", "POST"), (":scheme", "http"), (":authority", "localhost"), (":path", f"/3/device/{device}"),
                ("apns-push-type", "liveactivity"), ("apns-topic", TOPIC),
                ("authorization", f"bearer {provider_token(pem, iat=iat)}")])
            conn.send_data(stream, json.dumps(live_payload("update", iat % 60)).encode(), end_stream=True)
            sock.sendall(conn.data_to_send())
            status = None
            while status is None:
                for event in conn.receive_data(sock.recv(65536)):
                    if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                        status = int(dict(event.headers)[b":status"])
                sock.sendall(conn.data_to_send())
            statuses.append(status)
        sock.close()
        return statuses

    for refresh, expected in (("1200", [200, 429]), ("0", [200, 200])):
        (tmp_path / refresh).mkdir()
        service = Activity(tmp_path / refresh, key_path, tls=False, extra=["--apns-token-refresh", refresh])
        try:
            device = request_activity(service, install(service)).push_token
            assert two_tokens(service.ports["apns-h2c"], device) == expected, refresh
        finally:
            assert service.stop() == 0, service.process.stderr()


def test_a_seed_gives_the_same_activity_ids_and_push_tokens_every_run(tmp_path, team_key):
    """`--seed`: two fresh stores on the same manual clock hand out the same ids and tokens for
    the same requests (a scripted run's event log does not differ by them); another seed, or
    none, gives others."""
    key_path, _ = team_key
    clock = ["--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"]

    def run(name, seed):
        extra = clock + (["--seed", seed] if seed else [])
        (tmp_path / name).mkdir()
        service = Activity(tmp_path / name, key_path, tls=False, extra=extra)
        try:
            token = install(service)
            activity = request_activity(service, token)
            return activity.activity_id, activity.push_token
        finally:
            service.stop()

    first, again = run("a", "scripted-day"), run("b", "scripted-day")
    assert first == again and all(first)
    assert run("c", "another-day") != first
    assert run("d", None) != first


def test_the_activity_caps_are_settings_a_journal_keeps(tmp_path, team_key, monkeypatch):
    """`--max-activities-per-app 7`: seven ongoing activities, the eighth refused as ActivityKit
    refuses it (targetMaximumExceeded); kill -9 and a start with the default cap does not
    start (its entries would replay under 5), naming both; the same cap from GLIMPSE_… starts
    with all seven. A bad value fails fast naming the flag."""
    key_path, _ = team_key
    service = Activity(tmp_path, key_path, tls=False, extra=["--max-activities-per-app", "7"])
    try:
        token = install(service)
        ids = [request_activity(service, token).activity_id for _ in range(7)]
        with pytest.raises(grpc.RpcError) as refused:
            service.stub.Request(a.RequestActivityRequest(
                bundle_id=APP, attributes_type="PizzaDeliveryAttributes", attributes_json="{}",
                content=a.Content(state_json='{"eta":20}')), metadata=_bearer(token), timeout=RPC_TIMEOUT)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert "targetMaximumExceeded" in refused.value.details(), refused.value.details()
    finally:
        service.kill()
    argv = service.argv[:-2]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "listening on port" not in result.stdout
    assert "--max-activities-per-app 7" in result.stderr and "started with --max-activities-per-app 5" in result.stderr, \
        result.stderr
    monkeypatch.setenv("GLIMPSE_MAX_ACTIVITIES_PER_APP", "7")
    again = Activity(tmp_path, key_path, tls=False)
    try:
        listed = again.stub.ListActivities(a.ListActivitiesRequest(bundle_id=APP), metadata=_bearer(token),
                                           timeout=RPC_TIMEOUT).activities
        assert sorted(x.activity_id for x in listed) == sorted(ids)
    finally:
        assert again.stop() == 0, again.process.stderr()
    bad = subprocess.run([*argv, "--max-activities-per-app", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--max-activities-per-app: expected a number, 1 to 100000" in bad.stderr, bad.stderr
