"""A scripted day replays exactly: the same script on two fresh manual stacks gives the same
event log, byte for byte (ids, tokens, timestamps and order), and the same screen.

The order rule that makes this hold: events are ordered by their instant, and at one instant a
cause comes before what it caused (a tap's intent_performed and a reload_requested before the
reload_performed and entry_changed they bring), whatever order the services' streams arrive in.
"""
import json
import subprocess

from demo_apps import DEMOS, DemoApp, place
from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_timeline_service import RPC_TIMEOUT, _binary, _bearer

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.widget.v1 import family_pb2 as f  # noqa: E402

SEED = "replay-2026"


def _advance(stack, seconds):
    stack.clock.Advance(g.AdvanceRequest(by={"seconds": seconds}), timeout=600)


def scripted_day(tmp_path):
    """Runs the script on a fresh stack; returns its event log and final screen, serialized."""
    stack = Stack(tmp_path, activity_args=["--seed", SEED])
    try:
        return day(stack)
    finally:
        stack.stop()


def day(stack):
    """Runs the script on `stack` (a stack, or one device of one: `Stack.device_view`); returns
    its event log and final screen, serialized, and the events."""
    from google.protobuf import json_format
    tmp_path = stack.tmp_path
    apps = []
    try:
        pixar = DemoApp("pixar", stack)
        rtl = DemoApp("rtlair", stack)
        apps += [pixar, rtl]
        pixar.install()
        rtl.install()
        small = place(stack, pixar.bundle_id, "PixarFilmWidget", f.WIDGET_FAMILY_SYSTEM_SMALL)
        medium = place(stack, pixar.bundle_id, "PixarFilmWidget", f.WIDGET_FAMILY_SYSTEM_MEDIUM)
        flight = place(stack, rtl.bundle_id, "MediumWidget", f.WIDGET_FAMILY_SYSTEM_MEDIUM)
        lock = place(stack, rtl.bundle_id, "LockScreenWidget", f.WIDGET_FAMILY_ACCESSORY_RECTANGULAR)
        _advance(stack, 15 * 60)
        stack.widgets.Tap(g.TapRequest(placement_id=medium.placement_id, element="markWatched",
                                       idempotency_key="tap-1"), timeout=RPC_TIMEOUT)
        stack.widgets.Tap(g.TapRequest(placement_id=flight.placement_id, element="checkin",
                                       idempotency_key="tap-2"), timeout=RPC_TIMEOUT)
        _advance(stack, 20 * 60)
        stack.widgets.Reload(g.ReloadRequest(placement_id=small.placement_id), timeout=RPC_TIMEOUT)
        request = json_format.Parse((DEMOS / "pixar" / "playback.json").read_text(), a.RequestActivityRequest())
        request.token = True
        activity = stack.activity_kit.Request(request, metadata=_bearer(pixar.token), timeout=RPC_TIMEOUT).activity
        stack.activities.Tap(g.ActivityTapRequest(activity_id=activity.activity_id, element="playPause"),
                             timeout=RPC_TIMEOUT)
        _advance(stack, 60)
        now = stack.clock.Now(g.NowRequest(), timeout=RPC_TIMEOUT).now.seconds
        state = json.loads(activity.content.state_json)
        state["currentScene"] = "Remember Me"
        payload = tmp_path / "update.json"
        payload.write_text(json.dumps({"aps": {"timestamp": now, "event": "update", "content-state": state}}))
        env = {"GLIMPSE_GATEWAY": f"127.0.0.1:{stack.ports['gateway']}", "PATH": "/usr/bin:/bin",
               "GLIMPSE_DEVICE_ID": getattr(stack, "device_id", "")}
        pushed = subprocess.run(
            [_binary("glimpse"), "push", activity.activity_id, str(payload), "--apns-address", f"127.0.0.1:{stack.ports['apns-h2c']}"],
            capture_output=True, text=True, env=env, timeout=60)
        assert pushed.returncode == 0, pushed
        _advance(stack, 6 * 3600)
        stack.widgets.Tap(g.TapRequest(placement_id=lock.placement_id), timeout=RPC_TIMEOUT)
        _advance(stack, 17 * 3600)
        events = []
        while page := stack.events.List(g.ListEventsRequest(after_sequence=len(events), limit=10_000),
                                        timeout=RPC_TIMEOUT).events:
            events += page
        screen = stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT)
        screen.ClearField("now")
        return [e.SerializeToString(deterministic=True) for e in events], screen.SerializeToString(deterministic=True), events
    finally:
        for app in apps:
            app.stop()


def test_a_scripted_day_gives_the_same_event_log_byte_for_byte(tmp_path):
    first, first_screen, readable = scripted_day(tmp_path / "first")
    second, second_screen, other = scripted_day(tmp_path / "second")
    assert len(first) > 100, f"the day logged only {len(first)} events"
    for i, (x, y) in enumerate(zip(first, second)):
        assert x == y, f"event {i + 1} differs:\n{readable[i]}\n---\n{other[i]}"
    assert len(first) == len(second)
    assert first_screen == second_screen
