"""200 -> state change across a fleet: pushes through a stack's APNs endpoint (h2c, provider
token) to the Live Activities of a sample of the fleet's devices, at a steady rate, while each
sampled device's event log is followed at the gateway (`Events.Follow`, activity_changed):
for each push, the time from its 200 arriving here to the change arriving in its device's
log, the way a test watching the device sees it. With --service (glimpse-activity's gRPC
address, the sample's shard), the same pushes are also followed on its `WatchActivities`, per
device: 200 -> the change leaving the service, beside 200 -> the gateway's log, which tells the
service's part from the gateway's. The rest of the fleet stays in the stack.

    fleet_push_latency.py --gateway HOST:PORT --h2c HOST:PORT --key AuthKey.p8 --timestamp SECONDS \
        [--prefix fleet-] [--sample 50] [--shard a] [--service HOST:PORT] [--rate 1000] [--seconds 10]

The sample: the first --sample devices whose ids start with --prefix (on --shard, whose APNs
endpoint --h2c must be).

Prints one `key: value` line per number. Numbers, not a pass/fail test.
"""
import argparse
import json
import multiprocessing
import pathlib
import socket
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "Peers"))
import grpc  # noqa: E402
import h2.config  # noqa: E402
import h2.connection  # noqa: E402
import h2.events  # noqa: E402
import jwt  # noqa: E402
from glimpse_protos import glimpse_modules  # noqa: E402

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a, activity_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402

TEAM, KEY_ID = "GLIMPSEDEV", "DEMOKEY001"


def follow(address, devices, ready, stop, results, probes_seen, delivered_count, at_service=False):
    """In a process of its own: follows each device's event log at the gateway (or its
    WatchActivities at glimpse-activity), noting when each numbered push's change arrived
    (perf_counter: the system's monotonic clock)."""
    channel = grpc.insecure_channel(address)
    if at_service:
        watch = activity_pb2_grpc.ActivityServiceStub(channel).WatchActivities
    else:
        watch = gateway_pb2_grpc.EventsStub(channel).Follow
    delivered = {}
    lock = threading.Lock()
    streams = []

    def one(device):
        # From the log's start: the set-up's changes come first, none named p<n>.
        metadata = [("glimpse-device", device)]
        asked = a.WatchActivitiesRequest() if at_service else g.FollowEventsRequest(kinds=["activity_changed"])
        stream = watch(asked, metadata=metadata)
        streams.append(stream)
        try:
            for event in stream:
                change = event if at_service else event.activity_changed
                if change.WhichOneof("change") != "content":
                    continue
                name = json.loads(change.content.content.state_json).get("driverName", "")
                if name == f"probe-{device}":
                    with probes_seen.get_lock():
                        probes_seen.value += 1
                elif name.startswith("p"):
                    with lock:
                        if int(name[1:]) not in delivered:
                            delivered[int(name[1:])] = time.perf_counter()
                            with delivered_count.get_lock():
                                delivered_count.value += 1
        except grpc.RpcError:
            pass

    threads = [threading.Thread(target=one, args=(device,), daemon=True) for device in devices]
    for thread in threads:
        thread.start()
    while len(streams) < len(devices):
        time.sleep(0.01)
    ready.set()
    stop.wait()
    for stream in streams:
        stream.cancel()
    with lock:
        results.put(dict(delivered))
    channel.close()


def main():
    sys.setswitchinterval(0.0002)
    parser = argparse.ArgumentParser()
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--h2c", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--prefix", default="fleet-")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--shard", default="")
    parser.add_argument("--service", default="", help="glimpse-activity's gRPC address: also follow WatchActivities")
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--timestamp", type=int, required=True, help="the pushes' aps.timestamp (device time)")
    args = parser.parse_args()
    channel = grpc.insecure_channel(args.gateway)
    listed = gateway_pb2_grpc.DevicesStub(channel).List(g.ListDevicesRequest(), timeout=60).devices
    devices = sorted(d.device_id for d in listed
                     if d.device_id.startswith(args.prefix) and (not args.shard or d.shard == args.shard))
    devices = devices[: args.sample]
    activities = gateway_pb2_grpc.ActivitiesStub(channel)
    tokens, owned = [], {}
    for device in devices:
        listed = activities.List(g.ListActivitiesRequest(), metadata=[("glimpse-device", device)], timeout=60)
        mine = [(view.activity.push_token, view.activity.bundle_id) for view in listed.activities
                if view.activity.push_token]
        if mine:
            owned[device] = mine[0]
            tokens += mine
    devices = [device for device in devices if device in owned]
    channel.close()

    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    results = context.Queue()
    probes_seen, delivered_count = context.Value("i", 0), context.Value("i", 0)
    follower = context.Process(target=follow,
                               args=(args.gateway, devices, ready, stop, results, probes_seen, delivered_count),
                               daemon=True)
    follower.start()
    ready.wait(timeout=120)
    at_service = None
    if args.service:
        # Kept here until the end: a spawned process unpickles them after start() returns.
        service_ready, service_results = context.Event(), context.Queue()
        service_counts = context.Value("i", 0), context.Value("i", 0)
        at_service = (context.Process(target=follow, args=(args.service, devices, service_ready, stop, service_results,
                                                           *service_counts, True),
                                      daemon=True), service_results)
        at_service[0].start()
        service_ready.wait(timeout=120)

    host, port = args.h2c.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    bearer = jwt.encode({"iss": TEAM, "iat": int(time.time())}, open(args.key).read(), algorithm="ES256",
                        headers={"kid": KEY_ID})
    answered, streams, statuses = {}, {}, {}
    lock = threading.Lock()
    done = threading.Event()
    first = threading.Event()
    total = int(args.rate * args.seconds)
    expected = total + len(devices)  # the measured pushes and one probe per device

    def reader():
        while not done.is_set():
            data = sock.recv(65536)
            if not data:
                break
            now = time.perf_counter()
            with lock:
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.ResponseReceived):
                        status = int(dict(event.headers)[b":status"])
                        statuses[status] = statuses.get(status, 0) + 1
                        n = streams.pop(event.stream_id, None)
                        if n is not None and status == 200:
                            answered[n] = now
                        first.set()
                    elif isinstance(event, h2.events.DataReceived):
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                sock.sendall(conn.data_to_send())
            if sum(statuses.values()) >= expected:
                done.set()

    def send(n, name=None, token=None):
        token, bundle = token or tokens[n % len(tokens)]
        state = {"driverName": name or f"p{n}", "status": "onTheWay", "estimatedDeliveryTime": [0, 60]}
        body = json.dumps({"aps": {"timestamp": args.timestamp, "event": "update", "content-state": state}}).encode()
        with lock:
            stream = conn.get_next_available_stream_id()
            if name is None:
                streams[stream] = n
            conn.send_headers(stream, [
                (":method", "POST"), (":scheme", "http"), (":authority", "localhost"),
                (":path", f"/3/device/{token}"), ("authorization", f"bearer {bearer}"),
                ("apns-push-type", "liveactivity"), ("apns-topic", f"{bundle}.push-type.liveactivity"),
                ("apns-priority", "5"), ("content-type", "application/json")])
            conn.send_data(stream, body, end_stream=True)
            sock.sendall(conn.data_to_send())

    threading.Thread(target=reader, daemon=True).start()
    # A connection may carry one stream until its provider token is verified (as Apple's).
    send(0, name=f"probe-{devices[0]}", token=owned[devices[0]])
    first.wait(timeout=60)
    # Whatever came before (a load run's pushes) must have reached the gateway first: one probe
    # per device, then the clock starts once every device's log shows its probe.
    caught_up = time.perf_counter()
    for device in devices[1:]:
        send(0, name=f"probe-{device}", token=owned[device])
    while probes_seen.value < len(devices) and time.perf_counter() - caught_up < 600:
        time.sleep(0.05)
    print(f"the sampled devices' logs caught up in: {time.perf_counter() - caught_up:.1f} s "
          f"({probes_seen.value} of {len(devices)} probes)")
    start = time.perf_counter()
    for n in range(1, total + 1):
        due = start + (n - 1) / args.rate
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        while len(streams) >= 900:
            time.sleep(0.0005)
        send(n)
    sent_in = time.perf_counter() - start
    done.wait(timeout=120)
    # Until every answered push's change is in, or 30 s without one more.
    seen, still = -1, 0.0
    while delivered_count.value < len(answered) and still < 30:
        time.sleep(0.5)
        still = 0.0 if delivered_count.value != seen else still + 0.5
        seen = delivered_count.value
    stop.set()
    delivered = results.get(timeout=120)
    follower.join(timeout=30)
    latencies = sorted((delivered[n] - answered[n]) * 1000 for n in answered if n in delivered)
    left = []
    if at_service:
        left_at = at_service[1].get(timeout=120)
        at_service[0].join(timeout=30)
        left = sorted((left_at[n] - answered[n]) * 1000 for n in answered if n in left_at)

    def pct(p, values=latencies):
        return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")

    print(f"sampled devices: {len(devices)}, their Live Activities: {len(tokens)}")
    print(f"pushes sent: {total} in {sent_in:.1f} s ({total / max(sent_in, 1e-9):.0f}/s offered)")
    print(f"answers: {dict(sorted(statuses.items()))}")
    print(f"changes in the event logs: {len(latencies)} of {len(answered)} answered 200")
    print(f"200 -> device event log: p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms, "
          f"max {latencies[-1] if latencies else float('nan'):.1f} ms")
    if at_service:
        print(f"200 -> WatchActivities at glimpse-activity: p50 {pct(0.5, left):.1f} ms, p99 {pct(0.99, left):.1f} ms, "
              f"max {left[-1] if left else float('nan'):.1f} ms ({len(left)} of {len(answered)})")


if __name__ == "__main__":
    main()
