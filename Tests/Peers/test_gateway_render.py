"""Device.Render through glimpse-gateway: what the screen, a widget and a Live Activity look
like, drawn from the same state `Device.Show` answers. The apps are Python (grpcio): Ride
the Lightning Air's provider from rtl_air.py and a pizza app whose ActivityConfiguration
builds the Live Activity's views from its content state, as a widget extension does.
"""
import json
import time
import urllib.request
from concurrent import futures

import grpc
import pytest

from glimpse_protos import glimpse_modules
from rtl_air import KIND, RTL, SMALL, _install, provider, stack  # noqa: F401  (fixtures)
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.app.v1 import activity_configuration_pb2 as ac, activity_configuration_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.widget.v1 import activity_views_pb2 as av, view_pb2  # noqa: E402

PIZZA = "com.example.pizza"


def _text(content, view_id=""):
    return view_pb2.View(id=view_id, text=view_pb2.Text(content=content))


class PizzaViews(activity_configuration_pb2_grpc.ActivityConfigurationServicer):
    """ActivityConfiguration(for: PizzaDeliveryAttributes.self): views from the state."""

    def __init__(self):
        self.calls = 0

    def Views(self, request, context):
        self.calls += 1
        driver = json.loads(request.state_json)["driverName"]
        island = av.DynamicIslandViews(
            compact_leading=_text(driver, "driver"), compact_trailing=_text("2 pizzas"), minimal=_text("P"),
            expanded_leading=av.ExpandedRegion(view=_text(driver)),
            expanded_bottom=av.ExpandedRegion(view=_text("Your order is on its way")))
        return ac.ActivityViewsResponse(views=av.ActivityViews(
            lock_screen=_text(f"{driver} is on the way!", "headline"), dynamic_island=island))


@pytest.fixture
def pizza_app():
    views = PizzaViews()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    activity_configuration_pb2_grpc.add_ActivityConfigurationServicer_to_server(views, server)
    views.port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    views.server = server
    yield views
    server.stop(None)


def _nodes(node):
    yield node
    for child in node.children:
        yield from _nodes(child)


def _inside(inner, outer):
    return (inner.x >= outer.x - 0.01 and inner.y >= outer.y - 0.01
            and inner.x + inner.width <= outer.x + outer.width + 0.01
            and inner.y + inner.height <= outer.y + outer.height + 0.01)


def _render(stack, **fields):
    return stack.device.Render(g.RenderRequest(**fields), timeout=RPC_TIMEOUT)


def _start_pizza(stack, pizza_app):
    manifest = manifest_pb2.AppManifest(
        bundle_id=PIZZA, display_name="Pizza", default_endpoint=f"127.0.0.1:{pizza_app.port}",
        activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="PizzaDeliveryAttributes")])
    token = stack.apps.Install(g.InstallRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
    requested = stack.activity_kit.Request(a.RequestActivityRequest(
        attributes_type="PizzaDeliveryAttributes", attributes_json=json.dumps({"numberOfPizzas": 2}),
        content=a.Content(state_json=json.dumps({"driverName": "Tim"}))), metadata=_bearer(token), timeout=RPC_TIMEOUT)
    activity_id = requested.activity.activity_id
    deadline = time.monotonic() + RPC_TIMEOUT
    while not stack.device.Show(g.ShowRequest(), timeout=RPC_TIMEOUT).lock_screen.activities:
        assert time.monotonic() < deadline, "the activity never reached the Lock Screen"
        time.sleep(0.02)
    return token, activity_id


def _wait_rendered(stack, text, **fields):
    deadline = time.monotonic() + RPC_TIMEOUT
    while True:
        rendering = _render(stack, **fields)
        if any(n.text == text for n in _nodes(rendering.layout.root)):
            return rendering
        assert time.monotonic() < deadline, rendering.text
        time.sleep(0.02)


def test_the_drivers_name_is_inside_the_compact_leading_region_and_follows_an_update(stack, pizza_app):
    token, activity_id = _start_pizza(stack, pizza_app)
    rendering = _render(stack, target=g.RenderRequest.TARGET_DYNAMIC_ISLAND)
    nodes = list(_nodes(rendering.layout.root))
    region = next(n for n in nodes if n.kind == "region" and n.name == "compactLeading")
    driver = next(n for n in nodes if n.id == "driver")
    assert driver.text == "Tim" and _inside(driver.frame, region.frame)
    trailing = next(n for n in nodes if n.kind == "region" and n.name == "compactTrailing")
    assert trailing.frame.x > region.frame.x + region.frame.width   # the camera between them
    assert region.frame.height <= 36.67 + 0.01
    assert "Tim" in rendering.text and "<svg" in rendering.svg
    calls = pizza_app.calls
    _render(stack, target=g.RenderRequest.TARGET_DYNAMIC_ISLAND)
    assert pizza_app.calls == calls, "the same content state was asked for twice"

    # The app updates its activity: the next drawing asks the app for the new state's views.
    stack.activity_kit.Update(a.UpdateActivityRequest(
        activity_id=activity_id, content=a.Content(state_json=json.dumps({"driverName": "John"}))),
        metadata=_bearer(token), timeout=RPC_TIMEOUT)
    _wait_rendered(stack, "John", target=g.RenderRequest.TARGET_DYNAMIC_ISLAND)
    lock = _wait_rendered(stack, "John is on the way!", target=g.RenderRequest.TARGET_LOCK_SCREEN)
    headline = next(n for n in _nodes(lock.layout.root) if n.id == "headline")
    activity = next(n for n in _nodes(lock.layout.root) if n.kind == "activity" and n.id == activity_id)
    assert _inside(headline.frame, activity.frame)

    expanded = _render(stack, target=g.RenderRequest.TARGET_ACTIVITY, presentation="expanded")
    names = {n.name for n in _nodes(expanded.layout.root) if n.kind == "region"}
    assert {"expandedLeading", "expandedBottom"} <= names


def test_an_app_that_does_not_answer_is_named_and_its_activity_still_has_a_place(stack, pizza_app):
    _, activity_id = _start_pizza(stack, pizza_app)
    pizza_app.server.stop(None)
    with pytest.raises(grpc.RpcError) as refused:
        _render(stack, target=g.RenderRequest.TARGET_ACTIVITY, activity_id=activity_id)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    assert "ActivityConfiguration" in refused.value.details()
    lock = _render(stack, target=g.RenderRequest.TARGET_LOCK_SCREEN, text=True)
    assert "ActivityConfiguration" in lock.text
    assert any(n.kind == "activity" for n in _nodes(_render(stack, target=g.RenderRequest.TARGET_LOCK_SCREEN).layout.root))


def test_a_widget_is_drawn_at_its_family_size_and_changes_with_a_tap(stack, provider):
    _install(stack, provider)
    small = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    rendering = _wait_rendered(stack, "Check In", target=g.RenderRequest.TARGET_WIDGET, placement_id=small.placement_id)
    assert (rendering.layout.size.width, rendering.layout.size.height) == (158, 158)
    root = rendering.layout.root
    button = next(n for n in _nodes(root) if n.kind == "button")
    assert button.id == "checkin" and button.intent.intent_type == "CheckInIntent"
    assert _inside(button.frame, root.frame)
    stack.widgets.Tap(g.TapRequest(placement_id=small.placement_id, element="checkin"), timeout=RPC_TIMEOUT)
    after = _wait_rendered(stack, "Gate M72", target=g.RenderRequest.TARGET_WIDGET, placement_id=small.placement_id)
    assert not any(n.text == "Check In" for n in _nodes(after.layout.root))
    home = _render(stack, target=g.RenderRequest.TARGET_HOME_SCREEN, layout=True)
    widget = next(n for n in _nodes(home.layout.root) if n.kind == "widget" and n.name == str(small.placement_id))
    assert (widget.frame.width, widget.frame.height) == (158, 158)
    assert not home.text and not home.svg   # only what was asked for


def test_bad_requests_get_a_clear_status(stack):
    cases = [
        (dict(target=g.RenderRequest.TARGET_WIDGET, placement_id=99), grpc.StatusCode.NOT_FOUND, "placement_id"),
        (dict(target=g.RenderRequest.TARGET_ACTIVITY, presentation="sideways"), grpc.StatusCode.INVALID_ARGUMENT, "presentation"),
        (dict(target=g.RenderRequest.TARGET_DYNAMIC_ISLAND, presentation="expanded"), grpc.StatusCode.INVALID_ARGUMENT, "presentation"),
        (dict(target=g.RenderRequest.TARGET_HOME_SCREEN, page=3), grpc.StatusCode.NOT_FOUND, "page"),
        (dict(target=g.RenderRequest.TARGET_ACTIVITY), grpc.StatusCode.NOT_FOUND, "activity_id"),
        (dict(target=17), grpc.StatusCode.INVALID_ARGUMENT, "target"),
    ]
    for fields, code, word in cases:
        with pytest.raises(grpc.RpcError) as refused:
            _render(stack, **fields)
        assert refused.value.code() == code, fields
        assert word in refused.value.details(), refused.value.details()


def test_render_as_json_from_a_script(stack, provider):
    _install(stack, provider)
    stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    body = json.dumps({"target": "TARGET_HOME_SCREEN", "text": True, "layout": True}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{stack.ports['gateway']}/v1/device/render", data=body,
                                     headers={"content-type": "application/json"})
    answer = json.loads(urllib.request.urlopen(request, timeout=RPC_TIMEOUT).read())
    assert "┌" in answer["text"]
    assert answer["layout"]["root"]["kind"] == "screen"
    assert "svg" not in answer
