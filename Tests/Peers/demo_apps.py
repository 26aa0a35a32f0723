"""The seed demo apps (`glimpse-demo <app>`, Demos/<app>/app.json) on a test stack:
start an app's process, install its manifest through the gateway as `glimpse install`
does (assets read next to the manifest), hand the process its token through the token
file, and read what a widget shows.

    app = DemoApp("rtlair", stack)          # the process, before the app is installed
    token = app.install()                   # Apps.Install, then the token file
    widget = stack.widgets.Place(...)
    texts(widget.entry.view)
"""
import json
import pathlib
import sys
import time

from google.protobuf import json_format

from glimpse_protos import glimpse_modules
from test_timeline_service import RPC_TIMEOUT, Process, _binary

glimpse_modules()
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEMOS = ROOT / "Demos"


def manifest(app, endpoint):
    """Demos/<app>/app.json with every endpoint moved to `endpoint`, and its assets' bytes."""
    path = DEMOS / app / "app.json"
    parsed = json_format.Parse(path.read_text(), manifest_pb2.AppManifest())
    parsed.default_endpoint = endpoint
    for declaration in parsed.activity_attributes:
        if declaration.views_endpoint:
            declaration.views_endpoint = endpoint
    assets = {asset.name: (path.parent / asset.path).read_bytes() for asset in parsed.assets}
    return parsed, assets


class DemoApp:
    """One `glimpse-demo <app>` process on a free port, pointed at the stack's gateway."""

    def __init__(self, name, stack, argv=None):
        self.name = name
        self.stack = stack
        self.token_file = stack.tmp_path / f"{name}.token"
        argv = argv or [_binary("glimpse-demo"), name, "--port", "0",
                        "--gateway", f"127.0.0.1:{stack.ports['gateway']}", "--token-file", str(self.token_file)]
        self.process = Process(f"demo-{name}", argv, stack.tmp_path)
        self.port = self.process.port
        self.endpoint = f"127.0.0.1:{self.port}"
        self.token = None

    def install(self, endpoint=None, write_token=True):
        """Apps.Install of the app's manifest (its endpoints at this process, or at
        `endpoint`), then the token in the token file, as the stack hands it over."""
        parsed, assets = manifest(self.name, endpoint or self.endpoint)
        installed = self.stack.apps.Install(g.InstallRequest(manifest=parsed, asset_data=assets), timeout=RPC_TIMEOUT)
        self.bundle_id = installed.bundle_id
        self.token = installed.app_token
        if write_token:
            self.write_token()
        return installed

    def write_token(self):
        self.token_file.write_text(self.token + "\n")

    def stop(self):
        return self.process.stop()


class PythonProvider:
    """Demos/steps/python/provider.py on a free port."""

    def __init__(self, tmp_path):
        script = DEMOS / "steps" / "python" / "provider.py"
        self.process = Process("steps-python", [sys.executable, str(script), "--port", "0"], tmp_path)
        self.endpoint = f"127.0.0.1:{self.process.port}"

    def stop(self):
        return self.process.stop()


def texts(view):
    """The texts of a view tree, depth first, as the screen reads them."""
    found = []
    kind = view.WhichOneof("kind")
    if kind == "text":
        found.append(view.text.content)
    elif kind == "stack":
        for child in view.stack.children:
            found += texts(child)
    elif kind == "label":
        found += texts(view.label.title)
    elif kind in ("button", "link"):
        found += texts(getattr(view, kind).label)
    elif kind == "gauge":
        found += texts(view.gauge.current_value_label)
    return found


def place(stack, bundle_id, kind, family):
    return stack.widgets.Place(g.PlaceRequest(bundle_id=bundle_id, kind=kind, family=family), timeout=RPC_TIMEOUT)


def wait_texts(stack, placement_id, wanted, timeout=60):
    """The widget once its entry shows `wanted` among its texts."""
    deadline = time.monotonic() + timeout
    while True:
        widget = stack.widgets.Get(g.GetWidgetRequest(placement_id=placement_id), timeout=RPC_TIMEOUT)
        shown = texts(widget.entry.view)
        if wanted in shown:
            return widget
        assert time.monotonic() < deadline, f"placement {placement_id} shows {shown}, not {wanted!r}: {widget.last_error}"
        time.sleep(0.02)


def swift_date(unix_seconds):
    """A Date as Swift's JSONEncoder writes it by default: seconds since 2001-01-01."""
    return unix_seconds - 978_307_200


def state_json(driver, now, minutes, status="onTheWay"):
    return json.dumps({"driverName": driver, "status": status,
                       "estimatedDeliveryTime": [swift_date(now), swift_date(now + minutes * 60)]})
