"""Live Activities through glimpse-gateway: the Pizza delivery flow (seed 002) with a stock
APNs client.
"""
import time


from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.app.v1 import manifest_pb2  # noqa: E402


PIZZA = "com.example.pizza"
PIZZA_TOPIC = f"{PIZZA}.push-type.liveactivity"


def test_pizza_delivery_with_a_stock_apns_client(tmp_path):
    """Seed 002: the app requests the activity through the gateway (ActivityKit); the push
    server (aioapns, over TLS) changes the driver with an alert, then ends it immediately.
    The Dynamic Island expands for the alert, then shows the compact presentation; the
    end takes it off the Lock Screen at once."""
    import asyncio
    import json
    import ssl
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.connection import APNsProductionClientProtocol
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from glimpse.activity.v1 import activity_pb2 as a

    stack = Stack(tmp_path, apns_tls=True)
    try:
        manifest = manifest_pb2.AppManifest(
            bundle_id=PIZZA, display_name="Pizza", push_topics=[PIZZA_TOPIC],
            activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
        token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        now = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
        tim = {"driverName": "Tim", "estimatedDeliveryTime": now + 15 * 60}
        requested = stack.activity_kit.Request(a.RequestActivityRequest(
            attributes_type="PizzaDeliveryAttributes", attributes_json=json.dumps({"numberOfPizzas": 2}),
            content=a.Content(state_json=json.dumps(tim)), token=True), metadata=_bearer(token), timeout=RPC_TIMEOUT)
        activity_id = requested.activity.activity_id
        deadline = time.monotonic() + RPC_TIMEOUT
        while not (device_token := stack.activities.Get(g.GetActivityRequest(activity_id=activity_id),
                                                         timeout=RPC_TIMEOUT).activity.push_token):
            assert time.monotonic() < deadline, "no pushTokenUpdates for the activity"
            time.sleep(0.02)

        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        assert [v.activity.activity_id for v in screen.lock_screen.activities] == [activity_id]
        assert screen.dynamic_island.mode == g.DynamicIsland.MODE_COMPACT

        key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
        APNsProductionClientProtocol.APNS_SERVER = "127.0.0.1"
        APNsProductionClientProtocol.APNS_PORT = stack.ports["apns-tls"]
        context = ssl.create_default_context(cafile=stack.ca)

        def push(aps):
            async def send():
                client = APNs(key=key, key_id="KEY1234567", team_id="TEAM123456", topic=PIZZA_TOPIC, ssl_context=context)
                return await client.send_notification(NotificationRequest(
                    device_token=device_token, push_type=PushType.LIVEACTIVITY, message={"aps": aps}))
            return asyncio.run(send())

        john = {"driverName": "John", "estimatedDeliveryTime": now + 60 * 60}
        sent = push({"timestamp": now + 1, "event": "update", "content-state": john,
                     "alert": {"title": "Driver changed", "body": "John is on the way"}})
        assert sent.is_successful, sent.description
        deadline = time.monotonic() + RPC_TIMEOUT
        while True:
            view = stack.activities.Get(g.GetActivityRequest(activity_id=activity_id), timeout=RPC_TIMEOUT)
            if json.loads(view.activity.content.state_json)["driverName"] == "John":
                break
            assert time.monotonic() < deadline, view
            time.sleep(0.02)
        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        assert screen.dynamic_island.mode == g.DynamicIsland.MODE_EXPANDED and screen.dynamic_island.reason == "alert"
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 60}), timeout=60)
        assert stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).dynamic_island.mode == g.DynamicIsland.MODE_COMPACT

        stale = push({"timestamp": now - 60, "event": "update", "content-state": tim})
        assert stale.is_successful   # Apple answers 200; the device drops it as older
        ended = push({"timestamp": now + 120, "event": "end", "content-state": john,
                      "dismissal-date": now + 60})
        assert ended.is_successful, ended.description
        deadline = time.monotonic() + RPC_TIMEOUT
        while stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities:
            assert time.monotonic() < deadline, "the ended activity stayed on the Lock Screen"
            time.sleep(0.02)
        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        assert screen.dynamic_island.mode == g.DynamicIsland.MODE_NONE

        events = stack.events.List(g.ListEventsRequest(bundle_id=PIZZA), timeout=RPC_TIMEOUT).events
        pushes = [e.push_received for e in events if e.kind == "push_received"]
        assert [p.event for p in pushes] == ["update", "update", "end"]
        assert pushes[1].outcomes[0].kind == a.Outcome.KIND_DROPPED_AS_OLDER
        states = [(e.activity_changed.state.to) for e in events
                  if e.kind == "activity_changed" and e.activity_changed.HasField("state")]
        assert a.ACTIVITY_STATE_ENDED in states and states[-1] == a.ACTIVITY_STATE_DISMISSED, \
            "\n".join(f"{e.kind} {e.bundle_id} {e.summary}" for e in stack.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events[5:])
    finally:
        stack.stop()




def test_glimpse_push_signs_its_provider_token_with_the_wall_clock_on_a_manual_stack(tmp_path):
    """A push server signs its provider token with the time of day, whatever the device's
    clock says, and glimpse-activity checks it against the time of day (Apple's one hour).
    On a manual stack months away from today `glimpse push --key` is accepted (it signed with
    the gateway's clock before and got 403 ExpiredProviderToken)."""
    import json
    import subprocess
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from glimpse.activity.v1 import activity_pb2 as a
    from test_timeline_service import _binary

    key = ec.generate_private_key(ec.SECP256R1())
    p8 = tmp_path / "AuthKey_KEY1234567.p8"
    p8.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    team_key = f"TEAM123456:KEY1234567:{p8}"
    stack = Stack(tmp_path, activity_args=["--apns-auth", "jwt", "--apns-key", team_key])
    try:
        now = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
        assert abs(now - time.time()) > 2 * 3600, "the test stack's manual clock must be far from today"
        manifest = manifest_pb2.AppManifest(
            bundle_id=PIZZA, display_name="Pizza", push_topics=[PIZZA_TOPIC],
            activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
        token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        requested = stack.activity_kit.Request(a.RequestActivityRequest(
            attributes_type="PizzaDeliveryAttributes", attributes_json="{}",
            content=a.Content(state_json=json.dumps({"eta": 20})), token=True), metadata=_bearer(token),
            timeout=RPC_TIMEOUT)
        deadline = time.monotonic() + RPC_TIMEOUT
        while not (device_token := stack.activities.Get(g.GetActivityRequest(activity_id=requested.activity.activity_id),
                                                         timeout=RPC_TIMEOUT).activity.push_token):
            assert time.monotonic() < deadline, "no pushTokenUpdates for the activity"
            time.sleep(0.02)
        payload = tmp_path / "update.json"
        payload.write_text(json.dumps({"aps": {"timestamp": now + 60, "event": "update", "content-state": {"eta": 10}}}))
        env = {"GLIMPSE_GATEWAY": f"127.0.0.1:{stack.ports['gateway']}", "PATH": "/usr/bin:/bin"}
        done = subprocess.run(
            [_binary("glimpse"), "push", device_token, str(payload), "--key", team_key,
             "--apns-address", f"127.0.0.1:{stack.ports['apns-h2c']}", "--topic", PIZZA_TOPIC],
            capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0 and done.stdout.startswith("200"), f"{done.stdout}\n{done.stderr}"
    finally:
        stack.stop()


def test_an_ended_activity_shows_its_dismissal_date_at_the_gateway(tmp_path):
    """ActivityKit reports an ended activity's dismissal date; the device keeps it too
    (Activities.Get, Device.Show), not only glimpse-activity."""
    import json
    from glimpse.activity.v1 import activity_pb2 as a

    stack = Stack(tmp_path)
    try:
        manifest = manifest_pb2.AppManifest(
            bundle_id=PIZZA, display_name="Pizza",
            activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
        token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        now = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
        activity_id = stack.activity_kit.Request(a.RequestActivityRequest(
            attributes_type="PizzaDeliveryAttributes", attributes_json="{}",
            content=a.Content(state_json=json.dumps({"eta": 20}))), metadata=_bearer(token),
            timeout=RPC_TIMEOUT).activity.activity_id
        dismissal = now + 3600
        stack.activity_kit.End(a.EndActivityRequest(
            activity_id=activity_id, dismissal_policy=a.DismissalPolicy(after={"seconds": dismissal})),
            metadata=_bearer(token), timeout=RPC_TIMEOUT)
        shown = stack.activities.Get(g.GetActivityRequest(activity_id=activity_id), timeout=RPC_TIMEOUT).activity
        assert shown.state == a.ACTIVITY_STATE_ENDED
        assert shown.dismissal_date.seconds == dismissal, shown
        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        [view] = [v for v in screen.lock_screen.activities if v.activity.activity_id == activity_id]
        assert view.activity.dismissal_date.seconds == dismissal
    finally:
        stack.stop()


def test_dismissed_activities_are_listed_for_an_hour_and_a_push_to_one_gets_410(tmp_path):
    """A dismissed activity leaves the device at once, but glimpse-activity keeps it, as it was
    last, for an hour: Activities.List and ActivityKit.List with include_dismissed, Activities.Get
    and `glimpse activities --include-dismissed` find it, and `glimpse push <activity id>` reaches
    APNs with its retired token (410 Unregistered, as a push server sees it). An hour later it is
    gone from every list."""
    import json
    import subprocess
    from glimpse.activity.v1 import activity_pb2 as a
    from test_timeline_service import _binary

    stack = Stack(tmp_path)
    try:
        manifest = manifest_pb2.AppManifest(
            bundle_id=PIZZA, display_name="Pizza", push_topics=[PIZZA_TOPIC],
            activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
        token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        activity_id = stack.activity_kit.Request(a.RequestActivityRequest(
            attributes_type="PizzaDeliveryAttributes", attributes_json="{}",
            content=a.Content(state_json=json.dumps({"eta": 20})), token=True), metadata=_bearer(token),
            timeout=RPC_TIMEOUT).activity.activity_id
        deadline = time.monotonic() + RPC_TIMEOUT
        while not stack.activities.Get(g.GetActivityRequest(activity_id=activity_id),
                                       timeout=RPC_TIMEOUT).activity.push_token:
            assert time.monotonic() < deadline, "no pushTokenUpdates for the activity"
            time.sleep(0.02)
        stack.activities.Dismiss(g.DismissRequest(activity_id=activity_id), timeout=RPC_TIMEOUT)

        def listed(include_dismissed):
            views = stack.activities.List(g.ListActivitiesRequest(include_dismissed=include_dismissed),
                                          timeout=RPC_TIMEOUT).activities
            return [v.activity for v in views if v.activity.activity_id == activity_id]

        assert listed(False) == []
        [kept] = listed(True)
        assert kept.state == a.ACTIVITY_STATE_DISMISSED and kept.push_token and kept.dismissal_date.seconds
        own = stack.activity_kit.List(a.ListActivitiesRequest(include_dismissed=True), metadata=_bearer(token),
                                      timeout=RPC_TIMEOUT).activities
        assert [x.state for x in own if x.activity_id == activity_id] == [a.ACTIVITY_STATE_DISMISSED]
        assert not [x for x in stack.activity_kit.List(a.ListActivitiesRequest(), metadata=_bearer(token),
                                                       timeout=RPC_TIMEOUT).activities if x.activity_id == activity_id]
        got = stack.activities.Get(g.GetActivityRequest(activity_id=activity_id), timeout=RPC_TIMEOUT).activity
        assert got.state == a.ACTIVITY_STATE_DISMISSED

        env = {"GLIMPSE_GATEWAY": f"127.0.0.1:{stack.ports['gateway']}", "PATH": "/usr/bin:/bin"}

        def glimpse(*argv):
            return subprocess.run([_binary("glimpse"), *argv], capture_output=True, text=True, env=env, timeout=60)

        shown = glimpse("activities", "--include-dismissed")
        assert shown.returncode == 0 and activity_id in shown.stdout and "dismissed" in shown.stdout, shown
        assert activity_id not in glimpse("activities").stdout
        payload = tmp_path / "update.json"
        now = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
        payload.write_text(json.dumps({"aps": {"timestamp": now, "event": "update", "content-state": {"eta": 5}}}))
        pushed = glimpse("push", activity_id, str(payload), "--apns-address", f"127.0.0.1:{stack.ports['apns-h2c']}")
        assert pushed.returncode == 1 and pushed.stdout.startswith("410") and "Unregistered" in pushed.stdout, pushed

        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 3601}), timeout=RPC_TIMEOUT)
        assert listed(True) == []
        gone = glimpse("push", activity_id, str(payload), "--apns-address", f"127.0.0.1:{stack.ports['apns-h2c']}")
        assert gone.returncode != 0 and "no activity" in gone.stderr, gone
    finally:
        stack.stop()
