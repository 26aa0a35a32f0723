"""Pushes through glimpse-activity's APNs-compatible endpoint (h2c), from a Python HTTP/2
client (the `h2` library, one connection, many streams), while a gRPC WatchActivities
stream follows the changes.

Phase 1 (latency): RATE pushes/s for SECONDS (priority 5, each an `update` whose
content-state carries its number) spread over ACTIVITIES activities; for each, the time
from its 200 arriving here to its content change arriving on WatchActivities: p50/p99.
Phase 2 (throughput) is run by the shell script with h2load.

    push_bench.py --grpc PORT --h2c PORT [--rate 5000] [--seconds 10] [--activities 5]
Prints one `key: value` line per number, and `token: <hex>` for h2load.
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
from glimpse_protos import glimpse_modules  # noqa: E402

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a, activity_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2  # noqa: E402

APP = "com.example.pizza"
TOPIC = f"{APP}.push-type.liveactivity"


def watch(grpc_port, token, ready, stop, results):
    """In a process of its own: follows WatchActivities, notes when each push's change came."""
    channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
    stub = activity_pb2_grpc.ActivityServiceStub(channel)
    stream = stub.WatchActivities(a.WatchActivitiesRequest(bundle_id=APP), metadata=[("authorization", f"Bearer {token}")])
    delivered = {}

    def follow():
        try:
            for change in stream:
                if change.WhichOneof("change") == "content":
                    n = json.loads(change.content.content.state_json).get("n", 0)
                    delivered.setdefault(n, time.perf_counter())
        except grpc.RpcError:
            pass

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    ready.set()
    stop.wait()
    stream.cancel()
    follower.join(timeout=10)
    results.put(delivered)
    channel.close()


def main():
    # Three threads share the GIL (sender, HTTP/2 reader, gRPC watcher): switch often, or
    # the default 5 ms switch interval shows up as latency that is the client's, not the service's.
    sys.setswitchinterval(0.0002)
    parser = argparse.ArgumentParser()
    parser.add_argument("--grpc", type=int, required=True)
    parser.add_argument("--h2c", type=int, required=True)
    parser.add_argument("--rate", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--activities", type=int, default=5)  # the per-app cap (5)
    args = parser.parse_args()

    channel = grpc.insecure_channel(f"127.0.0.1:{args.grpc}")
    stub = activity_pb2_grpc.ActivityServiceStub(channel)
    token = stub.InstallApp(a.InstallAppRequest(manifest=manifest_pb2.AppManifest(
        bundle_id=APP, activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="Pizza")],
        supports_frequent_updates=True)), timeout=10).app_token
    auth = [("authorization", f"Bearer {token}")]
    devices = []
    for _ in range(args.activities):
        activity = stub.Request(a.RequestActivityRequest(
            bundle_id=APP, attributes_type="Pizza", content=a.Content(state_json='{"n":0}'), token=True),
            metadata=auth, timeout=10).activity
        while not activity.push_token:
            time.sleep(0.005)
            activity = stub.GetActivity(a.GetActivityRequest(activity_id=activity.activity_id), metadata=auth, timeout=10)
        devices.append(activity.push_token)

    # The watcher is its own process (perf_counter is the system's monotonic clock, the
    # same in both), so its timestamps do not wait for this process's GIL.
    context = multiprocessing.get_context("spawn")
    ready, stop = context.Event(), context.Event()
    results = context.Queue()
    watcher = context.Process(target=watch, args=(args.grpc, token, ready, stop, results), daemon=True)
    watcher.start()
    ready.wait(timeout=30)
    time.sleep(0.5)

    sock = socket.create_connection(("127.0.0.1", args.h2c))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    answered = {}
    streams = {}
    statuses = {}
    lock = threading.Lock()
    done = threading.Event()
    total = int(args.rate * args.seconds)

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
                    elif isinstance(event, h2.events.DataReceived):
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                sock.sendall(conn.data_to_send())
            if sum(statuses.values()) >= total:
                done.set()

    threading.Thread(target=reader, daemon=True).start()
    start = time.perf_counter()
    stamp = int(time.time())
    for n in range(1, total + 1):
        due = start + (n - 1) / args.rate
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        body = json.dumps({"aps": {"timestamp": stamp, "event": "update", "content-state": {"n": n}}}).encode()
        while len(streams) >= 900:  # the server's stream limit: the offered rate falls behind
            time.sleep(0.0005)
        with lock:
            stream = conn.get_next_available_stream_id()
            streams[stream] = n
            conn.send_headers(stream, [
                (":method", "POST"), (":scheme", "http"), (":authority", "localhost"),
                (":path", f"/3/device/{devices[n % len(devices)]}"),
                ("apns-push-type", "liveactivity"), ("apns-topic", TOPIC), ("apns-priority", "5"),
                ("content-type", "application/json")])
            conn.send_data(stream, body, end_stream=True)
            sock.sendall(conn.data_to_send())
    sent_in = time.perf_counter() - start
    done.wait(timeout=60)
    time.sleep(1)
    stop.set()
    delivered = results.get(timeout=60)
    watcher.join(timeout=10)
    latencies = sorted((delivered[n] - answered[n]) * 1000 for n in answered if n in delivered)

    def pct(p):
        return latencies[min(len(latencies) - 1, int(len(latencies) * p))] if latencies else float("nan")

    print(f"pushes sent: {total} in {sent_in:.1f} s ({total / sent_in:.0f}/s offered)")
    print(f"answers: {dict(sorted(statuses.items()))}")
    print(f"delivered on WatchActivities: {len(latencies)} of {len(answered)} answered 200")
    print(f"200 -> WatchActivities: p50 {pct(0.5):.2f} ms, p99 {pct(0.99):.2f} ms, max {latencies[-1] if latencies else float('nan'):.2f} ms")
    print(f"token: {devices[0]}")
    channel.close()


if __name__ == "__main__":
    main()
