"""Buttons and Toggles in a Live Activity run their LiveActivityIntent (spec §3: interactive
on the Lock Screen and in the expanded Dynamic Island, not in the compact or minimal
presentations; inactive while the device is locked).

The app is Python (grpcio), as a team's app would be: its ActivityConfiguration builds the
playback activity's views from the content state (a play/pause Toggle on the Lock Screen,
a "skip" Button in the expanded region), and its IntentHandler answers the intents by
updating the activity through the gateway's ActivityKit with the app's own token, as a
`LiveActivityIntent`'s `perform()` calls `activity.update(...)`.
"""
import json
import threading
import time
from concurrent import futures

import grpc
import pytest

from glimpse_protos import glimpse_modules
from rtl_air import stack  # noqa: F401  (fixture)
from test_gateway_scripting import _cli
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.app.v1 import activity_configuration_pb2 as ac, activity_configuration_pb2_grpc  # noqa: E402
from glimpse.app.v1 import intent_handler_pb2 as ih, intent_handler_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2 as m  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2, intent_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import activity_views_pb2 as av, intent_pb2 as wi, view_pb2  # noqa: E402

FILMS = "com.example.films"
ATTRIBUTES = "FilmPlaybackAttributes"


def _text(content, view_id=""):
    return view_pb2.View(id=view_id, text=view_pb2.Text(content=content))


class FilmsApp(activity_configuration_pb2_grpc.ActivityConfigurationServicer, intent_handler_pb2_grpc.IntentHandlerServicer):
    def __init__(self):
        self.performed = []          # the IntentHandler requests, in order
        self.lock = threading.Lock()
        self.token = None
        self.activity_kit = None     # the gateway's ActivityKit, called with the app's token

    # ActivityConfiguration(for: FilmPlaybackAttributes.self)
    def Views(self, request, context):
        state = json.loads(request.state_json)
        toggle = view_pb2.View(id="playing", toggle=view_pb2.Toggle(
            intent=wi.IntentInvocation(intent_type="TogglePlaybackIntent"), is_on=state["isPlaying"],
            label=_text("Playing" if state["isPlaying"] else "Paused")))
        skip = view_pb2.View(id="skip", button=view_pb2.Button(
            intent=wi.IntentInvocation(intent_type="SkipSceneIntent"), label=_text("Skip")))
        lock = view_pb2.View(stack=view_pb2.Stack(children=[_text(f"{state['elapsedMinutes']} min", "elapsed"), toggle]))
        island = av.DynamicIslandViews(
            compact_leading=skip, compact_trailing=_text(f"{state['elapsedMinutes']}m"), minimal=_text("F"),
            expanded_bottom=av.ExpandedRegion(view=skip), widget_url="films://now-playing")
        return ac.ActivityViewsResponse(views=av.ActivityViews(lock_screen=lock, dynamic_island=island))

    # IntentHandler: TogglePlaybackIntent(value:) and SkipSceneIntent, both LiveActivityIntents.
    def Perform(self, request, context):
        with self.lock:
            self.performed.append(request)
        current = self.activity_kit.List(a.ListActivitiesRequest(), metadata=_bearer(self.token), timeout=RPC_TIMEOUT)
        activity = next((x for x in current.activities if x.activity_id == request.activity_id), None)
        if activity is None:
            return ih.PerformResponse(failed=ih.PerformResponse.Failed(message=f"no activity {request.activity_id}"))
        state = json.loads(activity.content.state_json)
        if request.intent_type == "TogglePlaybackIntent":
            state["isPlaying"] = request.parameters["value"].bool_value
        elif request.intent_type == "SkipSceneIntent":
            state["elapsedMinutes"] += 5
        else:
            return ih.PerformResponse(failed=ih.PerformResponse.Failed(message=f"no intent {request.intent_type}"))
        self.activity_kit.Update(a.UpdateActivityRequest(
            activity_id=request.activity_id, content=a.Content(state_json=json.dumps(state))),
            metadata=_bearer(self.token), timeout=RPC_TIMEOUT)
        return ih.PerformResponse(succeeded=ih.PerformResponse.Succeeded())


def _manifest(port):
    endpoint = f"127.0.0.1:{port}"
    return m.AppManifest(
        bundle_id=FILMS, display_name="Films", default_endpoint=endpoint,
        activity_attributes=[m.ActivityAttributesDeclaration(type_name=ATTRIBUTES)],
        intents=[
            m.IntentDeclaration(type="TogglePlaybackIntent", title="Play or pause", handler_endpoint="default",
                                parameters=[m.ParameterDeclaration(name="value", type=m.VALUE_TYPE_BOOL, title="Playing")],
                                activity_attributes=[ATTRIBUTES]),
            m.IntentDeclaration(type="SkipSceneIntent", title="Skip a scene", handler_endpoint="default",
                                activity_attributes=[ATTRIBUTES]),
            # A widget's intent: the activity's views have no button for it.
            m.IntentDeclaration(type="WidgetOnlyIntent", title="Widget only", handler_endpoint="default",
                                widget_kinds=["FilmsWidget"]),
        ])


@pytest.fixture
def films(stack):  # noqa: F811
    app = FilmsApp()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    activity_configuration_pb2_grpc.add_ActivityConfigurationServicer_to_server(app, server)
    intent_handler_pb2_grpc.add_IntentHandlerServicer_to_server(app, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    app.token = stack.apps.Install(g.InstallRequest(manifest=_manifest(port)), timeout=RPC_TIMEOUT).app_token
    app.activity_kit = gateway_pb2_grpc.ActivityKitStub(stack.channel)
    requested = stack.activity_kit.Request(a.RequestActivityRequest(
        attributes_type=ATTRIBUTES, attributes_json=json.dumps({"filmTitle": "Coco"}),
        content=a.Content(state_json=json.dumps({"elapsedMinutes": 42, "isPlaying": True}))),
        metadata=_bearer(app.token), timeout=RPC_TIMEOUT)
    app.activity_id = requested.activity.activity_id
    deadline = time.monotonic() + RPC_TIMEOUT
    while not stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities:
        assert time.monotonic() < deadline, "the activity never reached the Lock Screen"
        time.sleep(0.02)
    yield app
    server.stop(None)


def _tap(stack, **fields):
    return stack.activities.Tap(g.ActivityTapRequest(**fields), timeout=RPC_TIMEOUT)


def _state(activity):
    return json.loads(activity.content.state_json)


def _lock_text(stack):
    return stack.device.Render(g.RenderRequest(target=g.RenderRequest.TARGET_LOCK_SCREEN), timeout=RPC_TIMEOUT).text


def test_a_lock_screen_toggle_runs_its_intent_in_the_app_which_updates_the_activity(stack, films):
    tapped = _tap(stack, activity_id=films.activity_id, element="playing", idempotency_key="tap-1")
    assert tapped.performed.WhichOneof("result") == "performed", tapped
    assert not tapped.performed.replayed and list(tapped.performed.reloaded_placements) == []
    assert tapped.idempotency_key == "tap-1" and tapped.element.id == "playing" and not tapped.opened_url
    # The answer carries the activity as the app's perform() left it, and the device shows it.
    assert _state(tapped.activity)["isPlaying"] is False
    assert "Paused" in _lock_text(stack)

    # The app was told which activity, of which attributes type, with the Toggle's new value.
    [request] = films.performed
    assert (request.intent_type, request.activity_id, request.attributes_type) == ("TogglePlaybackIntent", films.activity_id, ATTRIBUTES)
    assert request.placement_id == 0 and request.kind == "" and request.idempotency_key == "tap-1"
    assert request.parameters["value"].bool_value is False

    # A retry of the same physical tap runs nothing again and answers the first result.
    again = _tap(stack, activity_id=films.activity_id, element="playing", idempotency_key="tap-1")
    assert again.performed.replayed and again.performed.WhichOneof("result") == "performed"
    assert len(films.performed) == 1

    # A new tap flips it back: the Toggle now shows "Paused", so its value is true.
    _tap(stack, activity_id=films.activity_id, element="playing")
    assert films.performed[-1].parameters["value"].bool_value is True
    assert "Playing" in _lock_text(stack)

    # The event log names the activity, the element and the result.
    events = stack.events.List(g.ListEventsRequest(kinds=["intent_performed"]), timeout=RPC_TIMEOUT).events
    assert [(e.intent_performed.activity_id, e.intent_performed.element, e.intent_performed.intent_type) for e in events] == [
        (films.activity_id, "playing", "TogglePlaybackIntent")] * 3
    assert events[1].intent_performed.response.replayed
    assert all(e.intent_performed.placement_id == 0 and e.bundle_id == FILMS for e in events)


def test_the_expanded_island_runs_a_button_and_the_compact_one_opens_the_app(stack, films):
    skipped = _tap(stack, activity_id=films.activity_id, presentation="expanded", element="skip")
    assert skipped.performed.WhichOneof("result") == "performed"
    assert _state(skipped.activity)["elapsedMinutes"] == 47
    # Compact and minimal are not interactive: the same button opens the app.
    opened = _tap(stack, activity_id=films.activity_id, presentation="compact", element="skip")
    assert opened.opened_url == "films://now-playing" and not opened.HasField("performed")
    assert [r.intent_type for r in films.performed] == ["SkipSceneIntent"]

    # The same from a shell: glimpse tap-activity.
    _, out, _ = _cli(stack, "tap-activity", "skip", "--presentation", "expanded", "--key", "shell-1")
    lines = out.splitlines()
    assert lines[0] == 'tapped button "Skip" (SkipSceneIntent): performed', out
    assert lines[1] == "key shell-1" and '"elapsedMinutes": 52' in lines[2], out
    _, out, _ = _cli(stack, "tap-activity", "--presentation", "minimal")
    assert out.strip() == "tapped the Live Activity: opened films://now-playing", out
    code, _, err = _cli(stack, "tap-activity", "skip", "--presentation", "sideways", check=False)
    assert code == 1 and "INVALID_ARGUMENT" in err, err


def test_refusals_run_nothing(stack, films):
    # Locked: inactive until unlock.
    stack.device.UpdateSettings(g.UpdateSettingsRequest(locked=True), timeout=RPC_TIMEOUT)
    with pytest.raises(grpc.RpcError) as locked:
        _tap(stack, activity_id=films.activity_id, element="playing")
    assert locked.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "DEVICE_LOCKED" in locked.value.details()
    stack.device.UpdateSettings(g.UpdateSettingsRequest(locked=False), timeout=RPC_TIMEOUT)
    assert films.performed == []

    # glimpse-intent itself refuses an intent the activity's views do not offer (here the
    # device, as the gateway is, calling it directly).
    intent = grpc.insecure_channel(f"127.0.0.1:{stack.ports['intent']}")
    service = intent_pb2_grpc.IntentServiceStub(intent)
    refused = service.Perform(intent_pb2.PerformRequest(
        idempotency_key="direct-1", bundle_id=FILMS, intent_type="WidgetOnlyIntent",
        activity_id=films.activity_id, attributes_type=ATTRIBUTES), timeout=RPC_TIMEOUT)
    assert refused.WhichOneof("result") == "refused"
    assert refused.refused.reason == intent_pb2.REFUSAL_NOT_OFFERED_BY_ACTIVITY
    with pytest.raises(grpc.RpcError) as both:
        service.Perform(intent_pb2.PerformRequest(
            idempotency_key="direct-2", bundle_id=FILMS, intent_type="SkipSceneIntent", placement_id=3,
            activity_id=films.activity_id, attributes_type=ATTRIBUTES), timeout=RPC_TIMEOUT)
    assert both.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "placement_id" in both.value.details()
    intent.close()
    assert films.performed == []


def test_an_intent_naming_attributes_the_app_does_not_declare_is_refused_at_install(stack):
    manifest = m.AppManifest(
        bundle_id="com.example.typo", display_name="Typo", default_endpoint="127.0.0.1:1",
        activity_attributes=[m.ActivityAttributesDeclaration(type_name=ATTRIBUTES)],
        intents=[m.IntentDeclaration(type="PauseIntent", title="Pause", handler_endpoint="default",
                                     activity_attributes=["FilmPlaybackAttribute"])])
    with pytest.raises(grpc.RpcError) as refused:
        stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "activity_attributes[0]" in refused.value.details() and "FilmPlaybackAttribute " in refused.value.details()


def test_the_user_swipes_the_activity_away(stack, films):
    """Activities.Dismiss: the user removes the activity from the Lock Screen (it ends and
    is dismissed); the answer carries it as it was last, dismissed."""
    dismissed = stack.activities.Dismiss(g.DismissRequest(activity_id=films.activity_id), timeout=RPC_TIMEOUT)
    assert dismissed.activity.activity_id == films.activity_id
    assert dismissed.activity.state == a.ACTIVITY_STATE_DISMISSED
    assert dismissed.activity.attributes_type == ATTRIBUTES and _state(dismissed.activity)["elapsedMinutes"] == 42
    deadline = time.monotonic() + RPC_TIMEOUT
    while stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities:
        assert time.monotonic() < deadline, "the dismissed activity stayed on the Lock Screen"
        time.sleep(0.02)
    for call in (lambda: _tap(stack, activity_id=films.activity_id, element="playing"),
                 lambda: stack.activities.Dismiss(g.DismissRequest(activity_id=films.activity_id), timeout=RPC_TIMEOUT)):
        with pytest.raises(grpc.RpcError) as gone:
            call()
        assert gone.value.code() == grpc.StatusCode.NOT_FOUND, gone.value.details()
    assert films.performed == []
