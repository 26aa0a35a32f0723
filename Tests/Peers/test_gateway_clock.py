"""One clock for the stack through glimpse-gateway: the same scripted day gives the same
event log twice; a day of reload budgets with `Clock.Advance`.
"""
import contextlib
from concurrent import futures


import grpc

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from rtl_air import SMALL, _install, _place_both, _text, _wait_shows, provider  # noqa: F401 (fixtures)
from test_timeline_service import RPC_TIMEOUT

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t  # noqa: E402
from glimpse.widget.v1 import timeline_pb2  # noqa: E402


def _scripted_day(tmp_path, provider):
    """Placements, taps and advances over a day; returns the event log as (at, kind, summary)."""
    stack = Stack(tmp_path)
    try:
        _install(stack, provider)
        small, lock = _place_both(stack)
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 6 * 3600}), timeout=60)
        stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
        _wait_shows(stack, lock.placement_id, "Checked in")
        stack.widgets.Reload(g.ReloadRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 12 * 3600}), timeout=60)
        stack.widgets.Tap(g.TapRequest(placement_id=lock.placement_id, element="gate"), timeout=RPC_TIMEOUT)
        _wait_shows(stack, small.placement_id, "Cleared ⚡️")
        state = stack.clock.Advance(g.AdvanceRequest(by={"seconds": 6 * 3600}), timeout=60)
        assert state.manual and state.frozen
        events = stack.events.List(g.ListEventsRequest(limit=10000), timeout=RPC_TIMEOUT).events
        return [(e.at.ToJsonString(), e.kind, e.summary) for e in events]
    finally:
        stack.stop()


def test_the_same_scripted_day_gives_the_same_event_log_twice(tmp_path, provider):
    first = _scripted_day(tmp_path / "one", provider)
    second = _scripted_day(tmp_path / "two", provider)
    assert first == second
    kinds = [kind for _, kind, _ in first]
    assert kinds.count("clock_moved") == 3 and kinds.count("intent_performed") == 2
    assert first[-1][0] == "2026-01-02T09:00:00Z"


class TickProvider(provider_pb2_grpc.WidgetProviderServicer):
    """A widget that asks to be reloaded every 10 minutes: 144 a day, more than the budget."""

    def Placeholder(self, request, context):
        return provider_pb2.PlaceholderResponse()

    def Snapshot(self, request, context):
        return provider_pb2.SnapshotResponse()

    def Timeline(self, request, context):
        after = type(request.now)()
        after.FromSeconds(request.now.seconds + 600)
        entry = timeline_pb2.TimelineEntry(date=request.now, view=_text(f"at {request.now.ToJsonString()}"))
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=[entry], after=after))


@contextlib.contextmanager
def _ticker(tmp_path, servicer):
    """A stack with the ticker app installed (its provider `servicer`) and one small widget placed."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    stack = Stack(tmp_path)
    try:
        manifest = manifest_pb2.AppManifest(bundle_id="com.example.ticker", default_endpoint=f"127.0.0.1:{port}",
                                            widgets=[manifest_pb2.WidgetKindDeclaration(kind="Tick")])
        stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
        placed = stack.widgets.Place(g.PlaceRequest(bundle_id="com.example.ticker", kind="Tick", family=SMALL),
                                     timeout=RPC_TIMEOUT)
        yield stack, placed
    finally:
        stack.stop()
        server.stop(None)


def test_a_day_of_budgets_with_clock_advance(tmp_path):
    with _ticker(tmp_path, TickProvider()) as (stack, placed):
        advanced = stack.clock.Advance(g.AdvanceRequest(by={"seconds": 24 * 3600}), timeout=120)
        assert advanced.now.ToJsonString() == "2026-01-02T09:00:00Z" and advanced.steps >= 1

        budget = stack.widgets.Budget(g.BudgetRequest(placement_id=placed.placement_id), timeout=RPC_TIMEOUT)
        assert (budget.used, budget.limit, budget.remaining) == (70, 70, 0)
        assert budget.waiting_for == t.WAIT_REASON_BUDGET

        events = stack.events.List(g.ListEventsRequest(limit=10000), timeout=RPC_TIMEOUT).events
        reloads = [e.reload_performed.reload for e in events if e.kind == "reload_performed"]
        assert reloads[0].reason == t.RELOAD_REASON_PLACED and not reloads[0].charged
        charged = [r for r in reloads if r.charged]
        assert len(charged) == 70 and all(r.reason == t.RELOAD_REASON_POLICY for r in charged)
        assert [r.budget.used for r in charged] == list(range(1, 71))
        # Every provider call brought a new entry, at the instant the clock reached it.
        changed = [e for e in events if e.kind == "entry_changed"]
        assert not changed[0].entry_changed.HasField("entry")     # the placeholder, at once
        assert len(changed[1:]) == len(reloads)
        assert [e.at.ToSeconds() for e in changed] == sorted(e.at.ToSeconds() for e in changed)
        # The app asks for a reload while the budget is spent: deferred, with the reason.
        answer = stack.widgets.Reload(g.ReloadRequest(placement_id=placed.placement_id), timeout=RPC_TIMEOUT)
        assert answer.placements[0].waiting_for == t.WAIT_REASON_BUDGET
        logged = stack.events.List(g.ListEventsRequest(kinds=["reload_requested"]), timeout=RPC_TIMEOUT).events
        assert "budget spent" in logged[-1].summary and "70/70 used" in logged[-1].summary




class SlowTickProvider(TickProvider):
    """TickProvider answering a quarter of a second late: a reload is still out when
    glimpse-timeline answers the reload request."""

    def Timeline(self, request, context):
        import time
        time.sleep(0.25)
        return super().Timeline(request, context)


def test_a_scripted_reload_answers_once_its_answer_is_in_the_event_log(tmp_path):
    # A script's Widgets.Reload, like a tap, answers after the reload it sent out now was
    # answered and the gateway has the answer: the script's next call comes after the reload's
    # events in the log. (Before, it answered when glimpse-timeline did, and the entry could
    # reach the gateway's log after the next call's events: test_replay saw it once in CI.)
    with _ticker(tmp_path, SlowTickProvider()) as (stack, placed):
        # Past the 5-minute spacing, short of the timeline's own reload at 10 minutes.
        stack.clock.Advance(g.AdvanceRequest(by={"seconds": 6 * 60}), timeout=120)
        before = stack.events.List(g.ListEventsRequest(limit=10000), timeout=RPC_TIMEOUT).events[-1].sequence

        answer = stack.widgets.Reload(g.ReloadRequest(placement_id=placed.placement_id), timeout=RPC_TIMEOUT)
        assert answer.placements[0].waiting_for != t.WAIT_REASON_SPACING, answer

        after = stack.events.List(g.ListEventsRequest(after_sequence=before, limit=10000), timeout=RPC_TIMEOUT).events
        kinds = [e.kind for e in after]
        assert "reload_performed" in kinds and "entry_changed" in kinds, kinds
        shown = [e for e in after if e.kind == "entry_changed"][-1]
        assert shown.entry_changed.entry.date.ToJsonString() == "2026-01-01T09:06:00Z"
