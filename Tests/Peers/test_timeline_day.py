"""One clock for the stack, through the real glimpse-timeline: a scripted day of placements,
budgets, policies and explicit reloads on a manual clock gives the same event log twice.

Each run starts a fresh glimpse-timeline (new data directory) and the Python provider,
follows WatchEntries, and drives the day with Clock.AdvanceTo; after each advance it waits
for the watermark the advance returned, so the log holds everything due up to that instant.
"""
import datetime
import sys
import threading

import grpc

from test_timeline_service import (PEERS, PIXAR, RPC_TIMEOUT, START, Process, _binary, _bearer, _manifest,
                                   _timestamp)
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as service_pb2, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2  # noqa: E402

WATERMARK_TIMEOUT = 10  # seconds for the watcher to catch up with an advance


class Watcher:
    """Follows WatchEntries into a list; `wait_for(sequence)` waits until it has seen it."""

    def __init__(self, channel):
        self.events = []
        self.seen = 0
        self.changed = threading.Condition()
        stub = timeline_pb2_grpc.TimelineServiceStub(channel)
        self.stream = stub.WatchEntries(service_pb2.WatchEntriesRequest())
        threading.Thread(target=self._follow, daemon=True).start()

    def _follow(self):
        try:
            for change in self.stream:
                with self.changed:
                    text = change.entry.view.text.content if change.HasField("entry") else None
                    self.events.append((change.placement_id, change.at.ToSeconds(), text, change.removed))
                    self.seen = max(self.seen, change.sequence)
                    self.changed.notify_all()
        except grpc.RpcError:
            pass  # cancelled at the end

    def wait_for(self, sequence):
        with self.changed:
            assert self.changed.wait_for(lambda: self.seen >= sequence, timeout=WATERMARK_TIMEOUT), \
                f"the watcher saw sequence {self.seen}, the advance reported {sequence}"


def run_day(tmp_path, name):
    provider = service = None
    try:
        provider = Process(f"{name}-provider", [sys.executable, str(PEERS / "pixar_provider.py"), "--port", "0"],
                           tmp_path)
        service = Process(f"{name}-timeline", [
            _binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / name),
            "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"], tmp_path)
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            timeline = timeline_pb2_grpc.TimelineServiceStub(channel)
            clock = clock_pb2_grpc.ClockStub(channel)
            watcher = Watcher(channel)
            families = [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL, family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM,
                        family_pb2.WIDGET_FAMILY_ACCESSORY_CIRCULAR]
            token = timeline.InstallApp(service_pb2.InstallAppRequest(
                manifest=_manifest(PIXAR, "PixarFilmWidget", families, f"127.0.0.1:{provider.port}")),
                timeout=RPC_TIMEOUT).app_token
            for family in families:
                timeline.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget", family=family),
                               timeout=RPC_TIMEOUT)
            budgets = []
            for hour in range(1, 25):
                # The app asks for reloads every 10 minutes of the 7th hour: the budget and the
                # spacing decide which go out and when.
                if hour == 7:
                    for minute in range(0, 60, 10):
                        at = START + datetime.timedelta(hours=6, minutes=minute)
                        advanced = clock.AdvanceTo(clock_pb2.AdvanceToRequest(to=_timestamp(at)), timeout=RPC_TIMEOUT)
                        watcher.wait_for(advanced.watermark)
                        reloaded = timeline.ReloadAllTimelines(service_pb2.ReloadAllTimelinesRequest(bundle_id=PIXAR),
                                                               metadata=_bearer(token), timeout=RPC_TIMEOUT)
                        budgets.append([(b.placement_id, b.used, b.waiting_for, b.next_reload_at.ToSeconds())
                                        for b in reloaded.placements])
                at = START + datetime.timedelta(hours=hour)
                advanced = clock.AdvanceTo(clock_pb2.AdvanceToRequest(to=_timestamp(at)), timeout=RPC_TIMEOUT)
                watcher.wait_for(advanced.watermark)
            watcher.stream.cancel()
            return watcher.events, budgets
    finally:
        for process in (service, provider):
            if process is not None:
                process.stop()


def test_a_scripted_day_gives_the_same_event_log_twice(tmp_path):
    first, first_budgets = run_day(tmp_path, "first")
    second, second_budgets = run_day(tmp_path, "second")
    # A day of .atEnd timelines of five 15-minute entries: many changes on each of the 3 widgets.
    assert len(first) > 3 * 24 * 4
    assert first == second
    assert first_budgets == second_budgets
    # Entry changes come in clock order.
    instants = [at for _, at, _, _ in first]
    assert instants == sorted(instants)
