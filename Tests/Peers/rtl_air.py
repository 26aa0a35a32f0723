"""Ride the Lightning Air (seed 004) as an app for the gateway's end-to-end tests: one
FlightWidget, three states — not checked in (a Check In button), checked in (a Gate M72
button), gate confirmed (no button). The provider reads `flightStatus` from the App Group
through the gateway, with the app's token, as the widget extension would read
UserDefaults(suiteName:). Also the `provider` and `stack` fixtures and the helpers the
gateway tests share.
"""
import threading
import time
from concurrent import futures

import grpc
import pytest

from glimpse_protos import glimpse_modules
from glimpse_stack import Stack
from test_intent_service import GROUP, RTL
from test_timeline_service import RPC_TIMEOUT, _bearer

glimpse_modules()
from glimpse.app.v1 import manifest_pb2, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.widget.v1 import family_pb2, intent_pb2 as value_pb2, timeline_pb2, view_pb2  # noqa: E402

KIND = "FlightWidget"
SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
RECTANGULAR = family_pb2.WIDGET_FAMILY_ACCESSORY_RECTANGULAR
LABELS = {"notCheckedIn": "Not checked in", "checkedIn": "Checked in", "gateConfirmed": "Cleared ⚡️"}


def _text(content):
    return view_pb2.View(text=view_pb2.Text(content=content))


def _button(intent, label, view_id):
    return view_pb2.View(id=view_id, button=view_pb2.Button(
        intent=value_pb2.IntentInvocation(intent_type=intent), label=_text(label)))


class FlightProvider(provider_pb2_grpc.WidgetProviderServicer):
    """The widget extension: one entry now, `.never` (every change is a tap's reload)."""

    def __init__(self):
        self.app_group = None    # the gateway's AppGroup stub
        self.token = None        # the app's token at the gateway
        self.calls = 0
        self.lock = threading.Lock()

    def status(self):
        got = self.app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key="flightStatus"),
                                 metadata=_bearer(self.token), timeout=RPC_TIMEOUT)
        return got.entry.value.string_value if got.HasField("entry") else "notCheckedIn"

    def Placeholder(self, request, context):
        return provider_pb2.PlaceholderResponse()

    def Snapshot(self, request, context):
        return provider_pb2.SnapshotResponse()

    def Timeline(self, request, context):
        with self.lock:
            self.calls += 1
        status = self.status()
        children = [_text("RTL 001 SFO → JFK"), _text(LABELS[status])]
        if status == "notCheckedIn":
            children.append(_button("CheckInIntent", "Check In", "checkin"))
        elif status == "checkedIn":
            children.append(_button("ConfirmGateIntent", "Gate M72", "gate"))
        view = view_pb2.View(stack=view_pb2.Stack(children=children))
        entry = timeline_pb2.TimelineEntry(date=request.now, view=view, widget_url="rtlair://flight/RTL001")
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(
            entries=[entry], never=timeline_pb2.Timeline.Never()))


def _store_intent(intent_type, status):
    return manifest_pb2.IntentDeclaration(
        type=intent_type, title=intent_type, widget_kinds=[KIND],
        store=manifest_pb2.StoreAction(
            app_group=GROUP,
            operations=[manifest_pb2.StoreOperation(set=manifest_pb2.StoreOperation.SetValue(
                key="flightStatus", literal=value_pb2.ParameterValue(string_value=status)))],
            reloads=manifest_pb2.ReloadRequest(all_timelines=True)))


def rtl_manifest(endpoint):
    return manifest_pb2.AppManifest(
        bundle_id=RTL, display_name="Ride the Lightning Air", app_groups=[GROUP], default_endpoint=endpoint,
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=KIND, display_name="Flight",
                                                    supported_families=[SMALL, RECTANGULAR])],
        intents=[_store_intent("CheckInIntent", "checkedIn"), _store_intent("ConfirmGateIntent", "gateConfirmed")])


@pytest.fixture
def provider():
    provider = FlightProvider()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(provider, server)
    provider.port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    yield provider
    server.stop(None)


@pytest.fixture
def stack(tmp_path):
    stack = Stack(tmp_path)
    yield stack
    stack.stop()


def _install(stack, provider):
    installed = stack.apps.Install(g.InstallRequest(manifest=rtl_manifest(f"127.0.0.1:{provider.port}")),
                                   timeout=RPC_TIMEOUT)
    provider.app_group = stack.app_group
    provider.token = installed.app_token
    return installed


def _shown(widget):
    """The entry's texts, as the screen shows them."""
    return [child.text.content for child in widget.entry.view.stack.children if child.HasField("text")]


def _wait_shows(stack, placement_id, label, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        widget = stack.widgets.Get(g.GetWidgetRequest(placement_id=placement_id), timeout=RPC_TIMEOUT)
        if label in _shown(widget):
            return widget
        assert time.monotonic() < deadline, f"placement {placement_id} shows {_shown(widget)}, not {label!r}"
        time.sleep(0.02)


def _place_both(stack):
    small = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=SMALL), timeout=RPC_TIMEOUT)
    lock = stack.widgets.Place(g.PlaceRequest(bundle_id=RTL, kind=KIND, family=RECTANGULAR), timeout=RPC_TIMEOUT)
    return small, lock
