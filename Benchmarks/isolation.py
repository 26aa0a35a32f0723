"""Lateness of a normal app's widget entries, with and without another app whose provider hangs.

Two fresh system-clock stacks (release binaries from GLIMPSE_BIN_DIR), one after the other:
  - alone:   a "quick" app's widget with an entry every 100 ms for SECONDS;
  - hanging: the same, beside a "slowpoke" app whose provider takes 12 s on every call
             (inside the 30 s provider timeout), three of its widgets placed so that one of
             its calls is always out while the quick app's entries come due.
Lateness of an entry = when its `entry_changed` event reached a follower of the gateway's
event log (Events.Follow) minus the entry's date. Prints p50/p99/max for both side by side.

    Benchmarks/isolation.sh            # 25 s per phase
    Benchmarks/isolation.sh 10
"""
import pathlib
import statistics
import sys
import tempfile
import threading
import time
from concurrent import futures

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Peers"))

import grpc  # noqa: E402

from glimpse_protos import glimpse_modules  # noqa: E402
from glimpse_stack import Stack  # noqa: E402

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.widget.v1 import family_pb2, timeline_pb2, view_pb2  # noqa: E402

SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
STEP = 0.1
HANG = 12.0


class Quick(provider_pb2_grpc.WidgetProviderServicer):
    def __init__(self, seconds):
        self.count = int(seconds / STEP)

    def Timeline(self, request, context):
        start = request.now.seconds + request.now.nanos / 1e9 + 1.0
        entries = []
        for i in range(self.count):
            at = start + i * STEP
            date = type(request.now)(seconds=int(at), nanos=int((at % 1) * 1e9))
            entries.append(timeline_pb2.TimelineEntry(date=date, view=view_pb2.View(text=view_pb2.Text(content=f"q{i}"))))
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=entries, never=timeline_pb2.Timeline.Never()))


class Hanging(provider_pb2_grpc.WidgetProviderServicer):
    def __init__(self):
        self.stop = threading.Event()

    def Timeline(self, request, context):
        self.stop.wait(HANG)
        entry = timeline_pb2.TimelineEntry(date=request.now, view=view_pb2.View(text=view_pb2.Text(content="late")))
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=[entry], never=timeline_pb2.Timeline.Never()))


def serve(servicer):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def install(stack, bundle, kind, port):
    manifest = manifest_pb2.AppManifest(
        bundle_id=bundle, display_name=bundle, default_endpoint=f"127.0.0.1:{port}",
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=kind, display_name=kind, supported_families=[SMALL])])
    stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=30)


def phase(seconds, hanging):
    lateness = []
    with tempfile.TemporaryDirectory() as directory:
        stack = Stack(pathlib.Path(directory), clock="system")
        quick_server, quick_port = serve(Quick(seconds))
        slow = Hanging()
        slow_server, slow_port = serve(slow)
        try:
            install(stack, "com.example.quick", "QuickWidget", quick_port)
            install(stack, "com.example.slowpoke", "SlowWidget", slow_port)
            follow = stack.events.Follow(g.FollowEventsRequest(kinds=["entry_changed"], bundle_id="com.example.quick"))
            placers = []
            if hanging:
                def place_slow(delay):
                    time.sleep(delay)
                    try:
                        stack.widgets.Place(g.PlaceRequest(bundle_id="com.example.slowpoke", kind="SlowWidget", family=SMALL),
                                            timeout=60)
                    except grpc.RpcError:
                        pass  # the phase ended (the stack stops) before the slow provider answered
                for delay in (0.0, HANG * 2 / 3, HANG * 4 / 3):
                    thread = threading.Thread(target=place_slow, args=(delay,), daemon=True)
                    thread.start()
                    placers.append(thread)
                time.sleep(0.5)
            stack.widgets.Place(g.PlaceRequest(bundle_id="com.example.quick", kind="QuickWidget", family=SMALL), timeout=60)
            expected = int(seconds / STEP)
            for event in follow:
                entry = event.entry_changed.entry
                if not entry.HasField("date"):
                    continue
                received = time.time()
                text = entry.view.text.content
                if text != "q0":
                    lateness.append((received - (entry.date.seconds + entry.date.nanos / 1e9)) * 1000)
                if text == f"q{expected - 1}":
                    break
            follow.cancel()
        finally:
            slow.stop.set()
            stack.stop()
            quick_server.stop(None)
            slow_server.stop(None)
    return lateness


def summary(values):
    ordered = sorted(values)
    if not ordered:
        return "no entries"
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return f"n={len(ordered):4d}  p50 {statistics.median(ordered):7.1f} ms  p99 {p(0.99):7.1f} ms  max {ordered[-1]:7.1f} ms"


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 25.0
    alone = phase(seconds, hanging=False)
    beside = phase(seconds, hanging=True)
    print(f"lateness of the quick app's entries (an entry every {int(STEP * 1000)} ms for {seconds:g} s), event log follower")
    print(f"  alone                          {summary(alone)}")
    print(f"  beside a provider hanging {HANG:g} s  {summary(beside)}")
    if alone and beside:
        difference = statistics.median(beside) - statistics.median(alone)
        print(f"  p50 difference: {difference:+.1f} ms (goal: within 50 ms)")


if __name__ == "__main__":
    main()
