"""The gateway calls the web page relies on, with a stock client (grpcio): a Live Activity
tap (`Activities.Tap`), a placement's whole timeline (`Widgets.Timeline`) and drawing for
another screen model (`RenderRequest.device`). The pizza app is Python: its
ActivityConfiguration answers views with a Link, a Button and a widgetURL."""
import json

import grpc
import pytest

from glimpse_protos import glimpse_modules
from rtl_air import KIND, RTL, SMALL, _install, provider, stack  # noqa: F401  (fixtures)
from test_gateway_render import _render, _start_pizza, _wait_rendered
from test_timeline_service import RPC_TIMEOUT

glimpse_modules()
from glimpse.app.v1 import activity_configuration_pb2 as ac, activity_configuration_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2 as intent_pb2_service  # noqa: E402
from glimpse.widget.v1 import activity_views_pb2 as av, intent_pb2, view_pb2  # noqa: E402

from concurrent import futures  # noqa: E402


def _text(content, view_id=""):
    return view_pb2.View(id=view_id, text=view_pb2.Text(content=content))


class PizzaViews(activity_configuration_pb2_grpc.ActivityConfigurationServicer):
    """The Lock Screen view: the driver, a Link to the order, a Button to call the driver;
    the Dynamic Island has its own widgetURL."""

    def Views(self, request, context):
        driver = json.loads(request.state_json)["driverName"]
        lock = view_pb2.View(stack=view_pb2.Stack(children=[
            _text(f"{driver} is on the way!", "headline"),
            view_pb2.View(id="order", link=view_pb2.Link(destination="pizza://order/42", label=_text("Order"))),
            view_pb2.View(id="call", button=view_pb2.Button(
                intent=intent_pb2.IntentInvocation(intent_type="CallDriverIntent"), label=_text("Call"))),
        ]))
        island = av.DynamicIslandViews(compact_leading=_text(driver, "driver"), compact_trailing=_text("2"),
                                       minimal=_text("P"), widget_url="pizza://island")
        return ac.ActivityViewsResponse(views=av.ActivityViews(
            lock_screen=lock, widget_url="pizza://lock", dynamic_island=island))


@pytest.fixture
def pizza_app():
    views = PizzaViews()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    activity_configuration_pb2_grpc.add_ActivityConfigurationServicer_to_server(views, server)
    views.port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield views
    server.stop(None)


def _tap(stack, **fields):
    return stack.activities.Tap(g.ActivityTapRequest(**fields), timeout=RPC_TIMEOUT)


def _refused(call, code, word):
    with pytest.raises(grpc.RpcError) as refused:
        call()
    assert refused.value.code() == code, refused.value.details()
    assert word in refused.value.details(), refused.value.details()


def test_a_live_activity_tap_opens_its_link_or_widget_url_and_runs_a_button(stack, pizza_app):
    _, activity_id = _start_pizza(stack, pizza_app)
    assert _tap(stack, activity_id=activity_id, element="order").opened_url == "pizza://order/42"
    assert _tap(stack, activity_id=activity_id).opened_url == "pizza://lock"      # the view itself
    assert _tap(stack, presentation="compact").opened_url == "pizza://island"     # the island's own URL
    # The Button's intent goes to glimpse-intent; this app declares none, so it is refused
    # there (test_live_activity_intents.py runs them).
    called = _tap(stack, activity_id=activity_id, element="call")
    assert called.performed.refused.reason == intent_pb2_service.REFUSAL_UNKNOWN_INTENT, called
    assert not called.opened_url and called.element.id == "call"
    _refused(lambda: _tap(stack, activity_id=activity_id, element="nothing"), grpc.StatusCode.NOT_FOUND, "nothing")
    _refused(lambda: _tap(stack, activity_id="nope"), grpc.StatusCode.NOT_FOUND, "nope")
    _refused(lambda: _tap(stack, presentation="sideways"), grpc.StatusCode.INVALID_ARGUMENT, "presentation")
    opened = [e for e in stack.events.List(g.ListEventsRequest(), timeout=RPC_TIMEOUT).events if e.kind == "url_opened"]
    assert [e.url_opened.url for e in opened] == ["pizza://order/42", "pizza://lock", "pizza://island"]
    assert all(e.url_opened.activity_id == activity_id and e.url_opened.placement_id == 0 for e in opened)


def test_a_placements_whole_timeline_and_a_clear_not_found(stack, provider):
    _install(stack, provider)
    placed = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    _wait_rendered(stack, "Check In", target=g.RenderRequest.TARGET_WIDGET, placement_id=placed.placement_id)
    status = stack.widgets.Timeline(g.GetWidgetRequest(placement_id=placed.placement_id), timeout=RPC_TIMEOUT)
    assert status.placement_id == placed.placement_id and status.kind == KIND
    assert status.timeline.entries and status.current_entry.date == status.timeline.entries[0].date
    assert status.budget.limit > 0 and status.budget.window_seconds == 86400
    _refused(lambda: stack.widgets.Timeline(g.GetWidgetRequest(placement_id=999), timeout=RPC_TIMEOUT),
             grpc.StatusCode.NOT_FOUND, "999")


def test_drawing_for_another_model_and_refusing_an_unknown_one(stack, provider):
    _install(stack, provider)
    stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    own = _render(stack, target=g.RenderRequest.TARGET_HOME_SCREEN, layout=True)
    large = _render(stack, target=g.RenderRequest.TARGET_HOME_SCREEN, layout=True, device="iPhone430x932")
    assert (own.layout.size.width, own.layout.size.height) == (393, 852)
    assert (large.layout.size.width, large.layout.size.height) == (430, 932)
    _refused(lambda: _render(stack, target=g.RenderRequest.TARGET_HOME_SCREEN, device="Nokia3310"),
             grpc.StatusCode.INVALID_ARGUMENT, "Nokia3310")
