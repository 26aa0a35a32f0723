"""Journals stay bounded: the real executables save their state as snapshots and drop the
journal entries a snapshot covers, and a kill -9 at any point loses nothing.

- glimpse-timeline with the Python provider through a day of three widgets on a manual
  clock (`--snapshot-every 40`): killed with SIGKILL, its SQLite file holds a snapshot and
  only the entries after it; restarted, it shows every widget as before (entry, timeline,
  budget, next reload) and goes on to the next day as a run that was never killed does.
- glimpse-activity with 1,200 updates to one activity (`--snapshot-every 100`): killed, the
  journal holds at most a few hundred entries; restarted, the activity is as the last update
  left it; after a graceful stop the start replays nothing.
"""
import datetime
import sqlite3
import sys

import grpc

from test_timeline_service import (PEERS, PIXAR, RPC_TIMEOUT, START, Process, _binary, _bearer, _manifest,
                                   _timestamp)
from glimpse.activity.v1 import activity_pb2 as a, activity_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as service_pb2, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2  # noqa: E402

FAMILIES = [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL, family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM,
            family_pb2.WIDGET_FAMILY_ACCESSORY_CIRCULAR]


def journal_counts(path):
    """(entries left in the journal, entries ever written, the snapshot's sequence or 0)."""
    with sqlite3.connect(path) as db:
        left = db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
        written = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'journal'").fetchone()[0]
        snapshot = db.execute("SELECT COALESCE(MAX(sequence), 0) FROM snapshots").fetchone()[0]
    return left, written, snapshot


def kill(process):
    process.process.kill()
    process.process.wait(timeout=RPC_TIMEOUT)
    process._stderr.close()


class Timeline:
    """glimpse-timeline on a manual clock, its stubs, and the placements' state."""

    def __init__(self, tmp_path, name, data, extra=()):
        self.process = Process(name, [
            _binary("glimpse-timeline"), "--port", "0", "--data-dir", str(data), "--clock", "manual",
            "--start-time", "2026-01-01T09:00:00Z", *extra], tmp_path)
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.process.port}")
        self.stub = timeline_pb2_grpc.TimelineServiceStub(self.channel)
        self.clock = clock_pb2_grpc.ClockStub(self.channel)

    def advance_to(self, at):
        self.clock.AdvanceTo(clock_pb2.AdvanceToRequest(to=_timestamp(at)), timeout=RPC_TIMEOUT)

    def shown(self, placements, token):
        """What each widget shows and what it waits for: all a restart must keep."""
        states = []
        for placement_id in placements:
            status = self.stub.GetPlacement(service_pb2.GetPlacementRequest(placement_id=placement_id),
                                            metadata=_bearer(token), timeout=RPC_TIMEOUT)
            states.append((status.current_entry.SerializeToString(deterministic=True),
                           status.timeline.SerializeToString(deterministic=True),
                           status.budget.SerializeToString(deterministic=True)))
        return states

    def close(self):
        self.channel.close()


def test_a_day_of_widgets_killed_and_restarted_resumes_from_a_snapshot(tmp_path):
    provider = Process("provider", [sys.executable, str(PEERS / "pixar_provider.py"), "--port", "0"], tmp_path)
    data = tmp_path / "timeline"
    try:
        first = Timeline(tmp_path, "first", data, ["--snapshot-every", "40"])
        manifest = _manifest(PIXAR, "PixarFilmWidget", FAMILIES, f"127.0.0.1:{provider.port}")
        token = first.stub.InstallApp(service_pb2.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        placements = [first.stub.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget", family=family),
                                       timeout=RPC_TIMEOUT).placement.placement_id for family in FAMILIES]
        for hour in range(1, 25):
            first.advance_to(START + datetime.timedelta(hours=hour))
        before = first.shown(placements, token)
        first.close()
        kill(first.process)

        left, written, snapshot = journal_counts(data / "timeline.sqlite")
        assert written > 150  # a day of answers and firings
        assert snapshot > 0
        assert left == written - snapshot  # the entries after the snapshot, none before it
        assert left < written / 2

        second = Timeline(tmp_path, "second", data)
        second.advance_to(START + datetime.timedelta(hours=24))  # where the first one was; nothing is due
        assert second.shown(placements, token) == before
        assert "restored the snapshot at journal entry" in second.process.stderr()
        # And on through the next day, as a run that was never killed.
        for hour in range(25, 49):
            second.advance_to(START + datetime.timedelta(hours=hour))
        after = second.shown(placements, token)
        second.close()
        second.process.stop()

        control_data = tmp_path / "control"
        control = Timeline(tmp_path, "control", control_data, ["--snapshot-every", "0"])
        control_token = control.stub.InstallApp(service_pb2.InstallAppRequest(manifest=manifest),
                                                timeout=RPC_TIMEOUT).app_token
        for family in FAMILIES:
            control.stub.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget", family=family),
                               timeout=RPC_TIMEOUT)
        for hour in range(1, 49):
            control.advance_to(START + datetime.timedelta(hours=hour))
        assert control.shown(placements, control_token) == after
        control.close()
        control.process.stop()
        left, written, snapshot = journal_counts(control_data / "timeline.sqlite")
        assert (left, snapshot) == (written, 0)  # never compacted
    finally:
        provider.stop()


def test_many_updates_killed_and_restarted_keep_the_last_and_a_short_journal(tmp_path):
    data = tmp_path / "activity"
    argv = [_binary("glimpse-activity"), "--port", "0", "--data-dir", str(data), "--clock", "manual",
            "--apns-auth", "none", "--apns-tls-port", "0", "--apns-h2c-port", "0", "--snapshot-every", "100"]
    service = Process("activity", argv, tmp_path)
    with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
        stub = activity_pb2_grpc.ActivityServiceStub(channel)
        manifest = manifest_pb2.AppManifest(bundle_id="com.example.pizza", activity_attributes=[
            manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
        token = stub.InstallApp(a.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        activity = stub.Request(a.RequestActivityRequest(
            bundle_id="com.example.pizza", attributes_type="PizzaDeliveryAttributes", attributes_json="{}",
            content=a.Content(state_json='{"n":0}'), token=True), metadata=_bearer(token), timeout=RPC_TIMEOUT).activity
        for n in range(1, 1201):
            stub.Update(a.UpdateActivityRequest(activity_id=activity.activity_id, content=a.Content(state_json=f'{{"n":{n}}}')),
                        metadata=_bearer(token), timeout=RPC_TIMEOUT)
    kill(service)

    left, written, snapshot = journal_counts(data / "activity.sqlite")
    assert written > 1200
    assert left == written - snapshot
    assert left < 300

    service = Process("activity-again", argv, tmp_path)
    with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
        stub = activity_pb2_grpc.ActivityServiceStub(channel)
        again = stub.GetActivity(a.GetActivityRequest(activity_id=activity.activity_id), metadata=_bearer(token),
                                 timeout=RPC_TIMEOUT)
        assert again.content.state_json == '{"n":1200}'
        assert again.push_token == activity.push_token or not activity.push_token
    assert "restored the snapshot at journal entry" in service.stderr()
    assert service.stop() == 0

    # A graceful stop saved the state: the next start replays nothing.
    service = Process("activity-third", argv, tmp_path)
    assert service.stop() == 0
    assert "then replayed 0 entries" in service.stderr()
    assert journal_counts(data / "activity.sqlite")[0] == 0
