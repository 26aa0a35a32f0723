"""The demo device's simulated week for Benchmarks/snapshots_bench.py: a test stack on ports
at an offset, the seed apps set up as Demos/device.json says, a week of taps, App Group
writes, pizza deliveries pushed over APNs h2c and 15-minute clock steps, and the state a
restart must keep."""
import hashlib
import json
import socket
import sys
import time

import h2.config
import h2.connection
import h2.events
from google.protobuf import json_format

from demo_apps import DEMOS, DemoApp
from glimpse_protos import glimpse_modules
from glimpse_stack import Stack

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402

CALL = 120  # seconds: generous, the machine is shared
SINCE_2001 = 978_307_200
RTL_GROUP = "group.net.insoc.rtlair"
PIZZA_TOPIC = "com.you.pizza.push-type.liveactivity"


def log(message):
    print(message, file=sys.stderr, flush=True)


def bearer(token):
    return [("authorization", f"Bearer {token}")]


def push_log_digest(page):
    """(records, SHA-256 of them) over every page of a push log."""
    digest, count, after = hashlib.sha256(), 0, 0
    while True:
        pushes = page(after)
        if not pushes:
            return (count, digest.hexdigest())
        for record in pushes:
            digest.update(record.SerializeToString(deterministic=True))
        count += len(pushes)
        after = pushes[-1].sequence


class OffsetStack(Stack):
    """The test stack with every port at its default plus an offset (gateway 7700+offset,
    services 7701-7704+offset, APNs h2c 7444+offset), so it runs beside other stacks."""

    def __init__(self, tmp_path, offset, **kwargs):
        self.preset = {"gateway": 7700 + offset, "timeline": 7701 + offset, "intent": 7702 + offset,
                       "activity": 7703 + offset, "asset": 7704 + offset, "apns-h2c": 7444 + offset}
        super().__init__(tmp_path, **kwargs)

    def start(self, service, extra=()):
        self.ports.update({name: port for name, port in self.preset.items() if name not in self.ports})
        return super().start(service, extra)


# ---- the demo device's week -------------------------------------------------------------

def swift_date(unix_seconds):
    return unix_seconds - SINCE_2001


def pizza_state(driver, now, minutes, status):
    return {"driverName": driver, "status": status,
            "estimatedDeliveryTime": [swift_date(now), swift_date(now + minutes * 60)]}


class H2Pusher:
    """One h2c connection to the APNs endpoint; `push` sends one request and returns its status."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=CALL)
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        self.conn.initiate_connection()
        self.sock.sendall(self.conn.data_to_send())

    def push(self, token, body, priority):
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [
            (":method", "POST"), (":scheme", "http"), (":authority", "localhost"), (":path", f"/3/device/{token}"),
            ("apns-push-type", "liveactivity"), ("apns-topic", PIZZA_TOPIC), ("apns-priority", str(priority)),
            ("content-type", "application/json")])
        self.conn.send_data(stream, json.dumps(body).encode(), end_stream=True)
        self.sock.sendall(self.conn.data_to_send())
        status = None
        while True:
            data = self.sock.recv(65536)
            if not data:
                raise RuntimeError("the APNs endpoint closed the connection")
            for event in self.conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                    status = int(dict(event.headers)[b":status"])
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == stream:
                    self.sock.sendall(self.conn.data_to_send())
                    return status
            self.sock.sendall(self.conn.data_to_send())

    def close(self):
        self.sock.close()


def set_up_device(stack, run_dir):
    """Demos/device.json on the stack: the apps' processes, installs, placements, activities."""
    device = json.loads((DEMOS / "device.json").read_text())
    apps, placements = {}, {}
    for entry in device["apps"]:
        app = DemoApp(entry["name"], stack)
        app.install()
        apps[entry["name"]] = app
        for widget in entry.get("widgets", []):
            request = json_format.ParseDict(widget, g.PlaceRequest())
            request.bundle_id = app.bundle_id
            placed = stack.widgets.Place(request, timeout=CALL)
            placements.setdefault(entry["name"], []).append(placed.placement_id)
        for template in entry.get("activities", []):
            now = stack.clock.Now(g.NowRequest(), timeout=CALL).now.seconds
            text = json.dumps(template).replace('\\"$now+30m\\"', str(swift_date(now + 1800))) \
                .replace('\\"$now\\"', str(swift_date(now)))
            request = json_format.Parse(text, a.RequestActivityRequest())
            stack.activity_kit.Request(request, metadata=bearer(app.token), timeout=CALL)
    return apps, placements


def pizza_delivery(stack, pizza, pusher, advance):
    """ActivityKit.Request at the device's now, then the push server's five pushes, 5-10
    minutes apart (the clock advanced between them), the last one ending the delivery."""
    now = stack.clock.Now(g.NowRequest(), timeout=CALL).now.seconds
    activity = stack.activity_kit.Request(a.RequestActivityRequest(
        attributes_type="PizzaDeliveryAttributes", attributes_json=json.dumps({"numberOfPizzas": 2, "totalAmount": "$24.99"}),
        content=a.Content(state_json=json.dumps(pizza_state("Tim", now, 30, "preparing"))), token=True),
        metadata=bearer(pizza.token), timeout=CALL).activity
    token = activity.push_token
    deadline = time.monotonic() + CALL
    while not token:
        assert time.monotonic() < deadline, "no push token for the pizza activity"
        time.sleep(0.01)
        token = stack.activities.Get(g.GetActivityRequest(activity_id=activity.activity_id), timeout=CALL).activity.push_token
    steps = [("update", "Tim", 20, "baking", None), ("update", "Tim", 15, "onTheWay", "Your pizza is on the way"),
             ("update", "John", 40, "onTheWay", "Driver changed"), ("update", "John", 5, "onTheWay", None),
             ("end", "John", 0, "delivered", None)]
    statuses = []
    for event, driver, minutes, status, alert in steps:
        advance(7 * 60)
        now = stack.clock.Now(g.NowRequest(), timeout=CALL).now.seconds
        aps = {"timestamp": now, "event": event, "content-state": pizza_state(driver, now, minutes, status)}
        if alert:
            aps["alert"] = {"title": alert, "body": f"{driver} is on the way!"}
        if event == "end":
            aps["dismissal-date"] = now
        statuses.append(pusher.push(token, {"aps": aps}, 10 if alert else 5))
    return statuses


def run_week(stack, days, run_dir):
    apps, placements = set_up_device(stack, run_dir)
    pusher = H2Pusher(stack.ports["apns-h2c"])
    counts = {"advances": 0, "taps": 0, "taps_not_shown": 0, "app_group_writes": 0, "pushes": 0, "pushes_200": 0, "deliveries": 0}

    elapsed_seconds = [0]   # since the week began, on the device's clock

    def advance(seconds):
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": seconds}), timeout=CALL)
        elapsed_seconds[0] += seconds
        counts["advances"] += 1

    def tap(placement_id, element):
        """A tap on `element` when the widget shows it (a reload the budget held back may
        not have brought it yet: then the user sees nothing to tap, and nothing happens)."""
        shown = stack.widgets.Get(g.GetWidgetRequest(placement_id=placement_id), timeout=CALL).elements
        if element not in [e.id for e in shown]:
            counts["taps_not_shown"] += 1
            return
        stack.widgets.Tap(g.TapRequest(placement_id=placement_id, element=element), timeout=CALL)
        counts["taps"] += 1

    rtl = apps["rtlair"]
    pixar_medium = placements["pixar"][1]
    rtl_medium = placements["rtlair"][0]
    began = time.monotonic()
    for day in range(days):
        # 09:00 … 09:00 the next day in 15-minute steps; the day's doings at their quarter.
        for quarter in range(96):
            if quarter == 0:
                # A new flight: the app sets its App Group back to "not checked in" and asks
                # WidgetCenter for new timelines, as the app would.
                stack.app_group.Remove(intent_pb2.RemoveRequest(app_group=RTL_GROUP, key="flightStatus"),
                                       metadata=bearer(rtl.token), timeout=CALL)
                counts["app_group_writes"] += 1
                stack.widget_center.ReloadAllTimelines(t.ReloadAllTimelinesRequest(bundle_id=rtl.bundle_id),
                                                       metadata=bearer(rtl.token), timeout=CALL)
            elif quarter in (4, 36):
                tap(pixar_medium, "markWatched")
            elif quarter == 8:
                tap(rtl_medium, "checkin")
            elif quarter == 14:
                tap(rtl_medium, "gate")
            elif quarter == 40:  # 19:00: dinner; the clock moves on inside the delivery
                statuses = pizza_delivery(stack, apps["pizza"], pusher, advance)
                counts["pushes"] += len(statuses)
                counts["pushes_200"] += statuses.count(200)
                counts["deliveries"] += 1
            boundary = (day * 96 + quarter + 1) * 15 * 60
            if boundary > elapsed_seconds[0]:
                advance(boundary - elapsed_seconds[0])
        log(f"    day {day + 1}/{days} done ({time.monotonic() - began:.0f} s)")
    pusher.close()
    counts["seconds"] = round(time.monotonic() - began, 1)
    return apps, placements, counts


def stable(message):
    """The message without the gateway's `entry_sequence`: its position on glimpse-timeline's
    WatchEntries stream, a connection's, not state (0 until an entry changes after a restart)."""
    for field, value in message.ListFields():
        if field.name == "entry_sequence":
            message.ClearField(field.name)
        elif field.message_type is not None:
            if field.is_repeated and not field.message_type.GetOptions().map_entry:
                for item in value:
                    stable(item)
            elif not field.is_repeated:
                stable(value)
    return message.SerializeToString(deterministic=True)


def device_state(stack, apps, placements):
    """Everything the device shows and the services keep that a restart must not change."""
    state = {"now": stack.clock.Now(g.NowRequest(), timeout=CALL).now.seconds}
    widgets = stack.widgets.List(g.ListWidgetsRequest(), timeout=CALL).widgets
    state["widgets"] = [stable(w) for w in sorted(widgets, key=lambda w: w.placement_id)]
    for placement_id in sorted(p for ids in placements.values() for p in ids):
        status = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=placement_id), timeout=CALL)
        state[f"timeline {placement_id}"] = status.SerializeToString(deterministic=True)
    activities = stack.activities.List(g.ListActivitiesRequest(include_dismissed=True), timeout=CALL).activities
    state["activities"] = [v.SerializeToString(deterministic=True) for v in activities]
    state["app group"] = stack.app_group.List(intent_pb2.ListRequest(app_group=RTL_GROUP), metadata=bearer(apps["rtlair"].token),
                                              timeout=CALL).SerializeToString(deterministic=True)
    state["pushes"] = push_log_digest(lambda after: stack.activities.Pushes(g.PushesRequest(after_sequence=after, limit=1000),
                                                                           timeout=CALL).pushes)
    state["screen"] = stable(stack.device.Show(g.ShowRequest(), timeout=CALL))
    return state
