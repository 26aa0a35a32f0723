"""One clock for the stack, through the real glimpse-timeline and glimpse-intent: a scripted
day of placements, budgets, policies, explicit reloads and taps on manual clocks gives the
same event log twice.

Each run starts a fresh glimpse-timeline and glimpse-intent (new data directories, the intent
service pointed at the timeline service) and the Python provider, follows WatchEntries, and
drives the day with Clock.AdvanceTo on both services (the stack's one clock); after each
advance it waits for the watermark the advance returned, so the log holds everything due up
to that instant. A tap's reloads have been requested when Perform answers, so the provider
call it causes is in the log before the next step.
"""
import datetime
import sys
import threading

import grpc

from test_timeline_service import (PEERS, PIXAR, RPC_TIMEOUT, START, Process, _binary, _bearer, _manifest,
                                   _timestamp)
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2, intent_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as service_pb2, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2  # noqa: E402

WATERMARK_TIMEOUT = 60  # seconds for the watcher to catch up with an advance
TAP_HOURS = (3, 9, 15)  # a tap on the first two widgets at these hours (and a retry of each)
FAVORITE = manifest_pb2.IntentDeclaration(
    type="FavoriteFilmIntent", title="Favorite", widget_kinds=["PixarFilmWidget"],
    store=manifest_pb2.StoreAction(app_group="group.com.example.pixartracker", operations=[
        manifest_pb2.StoreOperation(increment=manifest_pb2.StoreOperation.Increment(key="favorites", by=1))]))


class Watcher:
    """Follows WatchEntries into a list; `wait_for(sequence)` waits until it has seen it."""

    def __init__(self, channel):
        self.events = []
        self.seen = 0
        self.calls = 0    # provider calls that went out (`reload`)
        self.answers = 0  # changes that ended one (`answer`: an entry, unchanged, or a failure)
        self.changed = threading.Condition()
        stub = timeline_pb2_grpc.TimelineServiceStub(channel)
        # The watermark counts provider calls too: ask for them, log only entry changes.
        self.stream = stub.WatchEntries(service_pb2.WatchEntriesRequest(include_reloads=True))
        threading.Thread(target=self._follow, daemon=True).start()

    def _follow(self):
        try:
            for change in self.stream:
                with self.changed:
                    self.calls += change.HasField("reload")
                    self.answers += change.answer
                    if not (change.HasField("reload") or change.HasField("provider_error")):
                        text = change.entry.view.text.content if change.HasField("entry") else None
                        self.events.append((change.placement_id, change.at.ToSeconds(), text, change.removed,
                                            change.answer))
                    self.seen = max(self.seen, change.sequence)
                    self.changed.notify_all()
        except grpc.RpcError:
            pass  # cancelled at the end

    def wait_for(self, sequence):
        with self.changed:
            assert self.changed.wait_for(lambda: self.seen >= sequence, timeout=WATERMARK_TIMEOUT), \
                f"the watcher saw sequence {self.seen}, the advance reported {sequence}"


def run_day(tmp_path, name):
    provider = service = intent_service = None
    try:
        provider = Process(f"{name}-provider", [sys.executable, str(PEERS / "pixar_provider.py"), "--port", "0"],
                           tmp_path)
        service = Process(f"{name}-timeline", [
            _binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / name),
            "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"], tmp_path)
        intent_service = Process(f"{name}-intent", [
            _binary("glimpse-intent"), "--port", "0", "--data-dir", str(tmp_path / f"{name}-intent"),
            "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z",
            "--timeline-address", f"127.0.0.1:{service.port}"], tmp_path)
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel, \
                grpc.insecure_channel(f"127.0.0.1:{intent_service.port}") as intent_channel:
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            timeline = timeline_pb2_grpc.TimelineServiceStub(channel)
            intents = intent_pb2_grpc.IntentServiceStub(intent_channel)
            clocks = [clock_pb2_grpc.ClockStub(intent_channel), clock_pb2_grpc.ClockStub(channel)]

            def advance_to(at):
                """Every service's clock to `at`; then the watcher has seen what that made."""
                for clock in clocks:
                    advanced = clock.AdvanceTo(clock_pb2.AdvanceToRequest(to=_timestamp(at)), timeout=RPC_TIMEOUT)
                watcher.wait_for(advanced.watermark)  # the last clock is glimpse-timeline's

            watcher = Watcher(channel)
            families = [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL, family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM,
                        family_pb2.WIDGET_FAMILY_ACCESSORY_CIRCULAR]
            manifest = _manifest(PIXAR, "PixarFilmWidget", families, f"127.0.0.1:{provider.port}")
            manifest.app_groups.append("group.com.example.pixartracker")
            manifest.intents.append(FAVORITE)
            token = timeline.InstallApp(service_pb2.InstallAppRequest(manifest=manifest),
                                        timeout=RPC_TIMEOUT).app_token
            intent_token = intents.RegisterApp(intent_pb2.RegisterAppRequest(manifest=manifest),
                                               timeout=RPC_TIMEOUT).app_token
            placements = []
            for family in families:
                placed = timeline.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget",
                                                                 family=family), timeout=RPC_TIMEOUT).placement
                intents.PlacementAdded(intent_pb2.PlacementAddedRequest(
                    placement_id=placed.placement_id, bundle_id=PIXAR, kind="PixarFilmWidget", family=family),
                    timeout=RPC_TIMEOUT)
                placements.append(placed.placement_id)
            budgets = []
            taps = []
            for hour in range(1, 25):
                if hour in TAP_HOURS:
                    advance_to(START + datetime.timedelta(hours=hour - 1, minutes=20))
                    used_before = timeline.GetPlacement(service_pb2.GetPlacementRequest(
                        placement_id=placements[0]), metadata=_bearer(token), timeout=RPC_TIMEOUT).budget.used
                    for placement_id in placements[:2]:
                        for _attempt in range(2):  # the tap and its retry: one perform, one reload
                            answer = intents.Perform(intent_pb2.PerformRequest(
                                idempotency_key=f"tap-{hour}-{placement_id}", bundle_id=PIXAR,
                                placement_id=placement_id, intent_type="FavoriteFilmIntent"),
                                metadata=_bearer(intent_token), timeout=RPC_TIMEOUT)
                            taps.append((hour, placement_id, answer.WhichOneof("result"), answer.replayed,
                                         list(answer.reloaded_placements)))
                    status = timeline.GetPlacement(service_pb2.GetPlacementRequest(placement_id=placements[0]),
                                                   metadata=_bearer(token), timeout=RPC_TIMEOUT)
                    budgets.append(("after taps", hour, used_before, status.budget.used,
                                    status.current_entry.date.ToSeconds()))
                # The app asks for reloads every 10 minutes of the 7th hour: the budget and the
                # spacing decide which go out and when.
                if hour == 7:
                    for minute in range(0, 60, 10):
                        advance_to(START + datetime.timedelta(hours=6, minutes=minute))
                        reloaded = timeline.ReloadAllTimelines(service_pb2.ReloadAllTimelinesRequest(bundle_id=PIXAR),
                                                               metadata=_bearer(token), timeout=RPC_TIMEOUT)
                        budgets.append([(b.placement_id, b.used, b.waiting_for, b.next_reload_at.ToSeconds())
                                        for b in reloaded.placements])
                advance_to(START + datetime.timedelta(hours=hour))
            watcher.stream.cancel()
            assert 0 < watcher.answers <= watcher.calls, (watcher.answers, watcher.calls)
            return watcher.events, budgets, taps
    finally:
        for process in (intent_service, service, provider):
            if process is not None:
                process.stop()


def test_a_scripted_day_gives_the_same_event_log_twice(tmp_path):
    first, first_budgets, first_taps = run_day(tmp_path, "first")
    second, second_budgets, second_taps = run_day(tmp_path, "second")
    # A day of .atEnd timelines of five 15-minute entries: many changes on each of the 3 widgets.
    assert len(first) > 3 * 24 * 4
    assert first == second
    # An entry a provider answered with is marked as the answer; one that came due on the
    # clock is not (a tap's wait for its reload's answer must not stop at it).
    answered = [event for event in first if event[4]]
    came_due = [event for event in first if not event[4] and event[2] is not None]
    assert answered and came_due, (len(answered), len(came_due))
    assert first_budgets == second_budgets
    assert first_taps == second_taps
    # Each tap performed once and reloaded the tapped widget (its retry replayed and reloaded
    # nothing); the reload is free, and the tapped widget's timeline starts at the tap.
    assert [(performed, replayed) for _, _, performed, replayed, _ in first_taps] == \
        [("performed", False), ("performed", True)] * (2 * len(TAP_HOURS))
    assert all(reloaded == ([] if replayed else [placement]) for _, placement, _, replayed, reloaded in first_taps)
    after_taps = [b for b in first_budgets if b[0] == "after taps"]
    assert len(after_taps) == len(TAP_HOURS)
    for _, hour, used_before, used_after, shown_from in after_taps:
        assert used_after == used_before
        assert shown_from == int((START + datetime.timedelta(hours=hour - 1, minutes=20)).timestamp())
    # Entry changes come in clock order.
    instants = [at for _, at, _, _, _ in first]
    assert instants == sorted(instants)
