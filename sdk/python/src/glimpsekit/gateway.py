"""The device, from a script or a test: glimpse-gateway's API with the app token or the
device key it needs.

    from glimpsekit import Gateway
    device = Gateway()                            # $GLIMPSE_GATEWAY, else 127.0.0.1:7700
    token = device.install("app.json").app_token
    widget = device.place("com.example.steps", "LockScreenWidget", "accessoryRectangular")
    assert "8,420 steps" in device.widget(widget.placement_id)   # fails with the widget drawn as text
    device.advance(minutes=15)
    device.as_app(token).reload_all_timelines()   # the app's WidgetCenter
"""
from __future__ import annotations

import datetime
import json
import os
import pathlib
import types

import grpc
from google.protobuf import duration_pb2, json_format

from glimpse.app.v1 import manifest_pb2
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc as stubs
from glimpse.timeline.v1 import timeline_pb2
from glimpse.widget.v1 import family_pb2

from .views import parameters

__all__ = ["Gateway", "Shown", "family"]


def family(name):
    """"systemSmall" → WIDGET_FAMILY_SYSTEM_SMALL (an int passes through)."""
    if isinstance(name, int):
        return name
    snake = "".join("_" + c if c.isupper() else c for c in name).upper()
    return family_pb2.WidgetFamily.Value("WIDGET_FAMILY_" + snake)


def texts(view):
    """A view tree's texts, depth first, as the screen reads them."""
    found = []
    kind = view.WhichOneof("kind")
    if kind == "text":
        found.append(view.text.content)
    elif kind == "stack":
        for child in view.stack.children:
            found += texts(child)
    elif kind == "label":
        found += texts(view.label.title)
    elif kind in ("button", "link", "toggle"):
        found += texts(getattr(view, kind).label)
    elif kind == "gauge":
        found += texts(view.gauge.current_value_label) + texts(view.gauge.label)
    return found


class Shown:
    """A widget as the device shows it: `in` looks for a text, `repr` is the drawing, so
    `assert "Checked In" in device.widget(1)` fails showing the widget."""

    def __init__(self, widget, drawing):
        self.widget = widget
        self.texts = texts(widget.entry.view) if widget.HasField("entry") else []
        self.drawing = drawing

    def __contains__(self, text):
        return any(text in t for t in self.texts)

    def __getattr__(self, name):
        return getattr(self.widget, name)

    def __repr__(self):
        what = "placeholder" if self.widget.placeholder else "entry"
        return (f"placement {self.widget.placement_id} ({self.widget.kind}, "
                f"{family_pb2.WidgetFamily.Name(self.widget.family)}, {what}):\n{self.drawing}")


class Gateway:
    def __init__(self, address=None, app_token=None, device_key=None, timeout=60, apns_provider=None):
        self.address = address or os.environ.get("GLIMPSE_GATEWAY") or "127.0.0.1:7700"
        # What a push server needs for `push`: `<stack dir>/apns/provider.json`, which
        # `glimpse up` writes (the h2c address of glimpse-activity's APNs endpoint, the
        # team, key id and .p8 key that sign provider tokens).
        self.apns_provider = apns_provider or os.environ.get("GLIMPSE_APNS_PROVIDER")
        self.app_token = app_token
        self.device_key = device_key if device_key is not None else os.environ.get("GLIMPSE_DEVICE_KEY_VALUE")
        self.timeout = timeout
        self.channel = grpc.insecure_channel(self.address)
        # The gateway's services, each as grpcio's stub: `device.rpc.Widgets.Get(…)` for
        # what the helpers below do not cover.
        self.rpc = types.SimpleNamespace(**{
            name: getattr(stubs, f"{name}Stub")(self.channel)
            for name in ("Apps", "Widgets", "Device", "Clock", "Activities", "Events", "WidgetCenter", "ActivityKit",
                         "AppGroup")})

    def close(self):
        self.channel.close()

    def _metadata(self):
        if self.app_token:
            return [("authorization", f"Bearer {self.app_token}")]
        if self.device_key:
            return [("authorization", f"Device {self.device_key}")]
        return []

    def _call(self, method, request):
        return method(request, metadata=self._metadata(), timeout=self.timeout)

    def as_app(self, token):
        """The same gateway as the app whose token this is (WidgetCenter, ActivityKit, App Group)."""
        return Gateway(self.address, app_token=token, timeout=self.timeout, apns_provider=self.apns_provider)

    # Apps
    def install(self, manifest, assets=None):
        """Installs a manifest: an AppManifest, a dict (proto3 JSON), or an app.json path
        (its assets read next to it). Returns InstallResponse (`app_token`)."""
        assets = dict(assets or {})
        if isinstance(manifest, (str, pathlib.Path)):
            path = pathlib.Path(manifest)
            manifest = json.loads(path.read_text())
            for asset in manifest.get("assets", []):
                assets.setdefault(asset["name"], (path.parent / asset["path"]).read_bytes())
        if isinstance(manifest, dict):
            manifest = json_format.ParseDict(manifest, manifest_pb2.AppManifest())
        return self._call(self.rpc.Apps.Install, g.InstallRequest(manifest=manifest, asset_data=assets))

    def uninstall(self, bundle_id):
        return self._call(self.rpc.Apps.Uninstall, g.UninstallRequest(bundle_id=bundle_id))

    def reset(self):
        """Every app uninstalled, the settings back to their defaults (the clock stays)."""
        return self._call(self.rpc.Device.Reset, g.ResetRequest())

    # Widgets
    def place(self, bundle_id, kind, family_name="systemSmall", configuration=None):
        return self._call(self.rpc.Widgets.Place, g.PlaceRequest(
            bundle_id=bundle_id, kind=kind, family=family(family_name), configuration=parameters(configuration)))

    def widget(self, placement_id, columns=60):
        """The widget as shown now, with its drawing as text (`Shown`)."""
        widget = self._call(self.rpc.Widgets.Get, g.GetWidgetRequest(placement_id=placement_id))
        return Shown(widget, self.render(placement_id, columns=columns))

    def tap(self, placement_id, element="", idempotency_key=""):
        return self._call(self.rpc.Widgets.Tap, g.TapRequest(
            placement_id=placement_id, element=element, idempotency_key=idempotency_key))

    def reload(self, placement_id):
        return self._call(self.rpc.Widgets.Reload, g.ReloadRequest(placement_id=placement_id))

    def budget(self, placement_id):
        return self._call(self.rpc.Widgets.Budget, g.BudgetRequest(placement_id=placement_id))

    def gallery(self, bundle_id, kind=""):
        return self._call(self.rpc.Widgets.Gallery, g.GalleryRequest(bundle_id=bundle_id, kind=kind, text=True)).previews

    def render(self, placement_id=None, columns=60, target=None):
        """Text drawing of a widget, or of the screen (`target="lockScreen"`…)."""
        if placement_id is not None:
            request = g.RenderRequest(target=g.RenderRequest.TARGET_WIDGET, placement_id=placement_id)
        else:
            names = {"homeScreen": g.RenderRequest.TARGET_HOME_SCREEN, "lockScreen": g.RenderRequest.TARGET_LOCK_SCREEN,
                     "dynamicIsland": g.RenderRequest.TARGET_DYNAMIC_ISLAND, None: g.RenderRequest.TARGET_UNSPECIFIED}
            request = g.RenderRequest(target=names[target])
        request.text = True
        request.columns = columns
        return self._call(self.rpc.Device.Render, request).text

    # The clock
    def now(self):
        return self._call(self.rpc.Clock.Now, g.NowRequest()).now.ToDatetime(tzinfo=datetime.timezone.utc)

    def advance(self, seconds=0, *, minutes=0, hours=0, days=0):
        """Moves every service's manual clock together (Clock.Advance)."""
        total = seconds + 60 * minutes + 3600 * hours + 86400 * days
        by = duration_pb2.Duration()
        by.FromTimedelta(datetime.timedelta(seconds=total))
        return self._call(self.rpc.Clock.Advance, g.AdvanceRequest(by=by))

    def freeze(self):
        return self._call(self.rpc.Clock.Freeze, g.FreezeRequest())

    # What happened
    def events(self, kinds=(), bundle_id="", after=0, limit=1000):
        return list(self._call(self.rpc.Events.List, g.ListEventsRequest(
            after_sequence=after, limit=limit, kinds=list(kinds), bundle_id=bundle_id)).events)

    # A push server's side
    def push(self, target, payload, push_type="liveactivity", topic=None, priority=None, apns_id=None, headers=None):
        """POSTs `payload` (a dict, or JSON text) to glimpse-activity's APNs endpoint, as a push
        server does: `target` is a device token (hex) or an activity id (its push token; the
        topic then defaults to `<bundle>.push-type.liveactivity`). Returns (status, reason,
        apns-id): Apple's status and reason, e.g. (200, "", "…") or (410, "Unregistered", "…")."""
        import httpx      # HTTP/2 over cleartext with prior knowledge, as `glimpse push` sends
        import jwt        # the provider token: ES256 with the stack's .p8 key, as Apple asks
        if not self.apns_provider:
            raise ValueError("push needs the stack's apns/provider.json: Gateway(apns_provider=…) or "
                             "GLIMPSE_APNS_PROVIDER (the pytest plugin's stack sets it)")
        provider = json.loads(pathlib.Path(self.apns_provider).read_text())
        token, bundle = target, None
        if not all(c in "0123456789abcdefABCDEF" for c in target):
            activity = self._call(self.rpc.Activities.Get, g.GetActivityRequest(activity_id=target)).activity
            token, bundle = activity.push_token, activity.bundle_id
            if not token:
                raise ValueError(f"activity {target} has no push token (requested without pushType: .token)")
        if topic is None and bundle:
            suffix = {"liveactivity": ".push-type.liveactivity", "widgets": ".push-type.widgets"}.get(push_type, "")
            topic = bundle + suffix
        key = pathlib.Path(provider["keyPath"]).read_text()
        bearer = jwt.encode({"iss": provider["teamId"], "iat": int(datetime.datetime.now().timestamp())}, key,
                            algorithm="ES256", headers={"kid": provider["keyId"]})
        sent = {"authorization": f"bearer {bearer}", "apns-push-type": push_type,
                **({"apns-topic": topic} if topic else {}),
                **({"apns-priority": str(priority)} if priority is not None else {}),
                **({"apns-id": apns_id} if apns_id else {}), **(headers or {})}
        body = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
        with httpx.Client(http1=False, http2=True, timeout=self.timeout) as client:
            answer = client.post(f"http://{provider['h2c']}/3/device/{token}", content=body, headers=sent)
        reason = answer.json().get("reason", "") if answer.content else ""
        return answer.status_code, reason, answer.headers.get("apns-id", "")

    # The app's side (with its token): WidgetCenter, ActivityKit, App Group
    def reload_all_timelines(self, bundle_id=""):
        return self._call(self.rpc.WidgetCenter.ReloadAllTimelines,
                          timeline_pb2.ReloadAllTimelinesRequest(bundle_id=bundle_id))

    def reload_timelines(self, kind, bundle_id=""):
        return self._call(self.rpc.WidgetCenter.ReloadTimelines,
                          timeline_pb2.ReloadTimelinesRequest(bundle_id=bundle_id, kind=kind))

    def request_activity(self, attributes_type, attributes, state, push_token=False):
        from glimpse.activity.v1 import activity_pb2 as a
        return self._call(self.rpc.ActivityKit.Request, a.RequestActivityRequest(
            attributes_type=attributes_type, attributes_json=json.dumps(attributes),
            content=a.Content(state_json=json.dumps(state)), token=push_token)).activity

