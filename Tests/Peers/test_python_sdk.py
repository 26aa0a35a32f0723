"""GlimpseKit for Python as a new team uses it: `pip install ./sdk/python` into a fresh
virtual environment, an app written on it (a provider with a placeholder, a Button whose
intent handler reloads the kind from perform()), and a pytest file that uses only the
package's `glimpse` fixture (which starts a stack of its own). Nothing imports from Tests/.
The green run passes; a failing assertion prints the widget drawn as text."""
import pathlib
import shutil
import subprocess
import sys
import textwrap

from test_timeline_service import _binary

ROOT = pathlib.Path(__file__).resolve().parents[2]

APP = '''
from glimpsekit import App, Button, Entry, Text, Timeline, VStack

app = App("com.example.counter")
count = {"n": 0}


@app.placeholder("Counter")
def placeholder(context):
    return Entry(context.now, Text("Count 0"))


@app.timeline("Counter")
def timeline(context):
    view = VStack(Text(f"Count {count['n']}").font("headline"), Button("IncrementIntent", "Add").id("add"))
    return Timeline([Entry(context.now, view.container_background())], never=True)


@app.intent("IncrementIntent")
def increment(request):
    count["n"] += 1
    return request.reload_timelines("Counter")     # WidgetCenter from perform(): part of the tap


def manifest(endpoint):
    return {"bundleId": "com.example.counter", "displayName": "Counter", "defaultEndpoint": endpoint,
            "widgets": [{"kind": "Counter", "supportedFamilies": ["WIDGET_FAMILY_SYSTEM_SMALL"]}],
            "intents": [{"type": "IncrementIntent", "widgetKinds": ["Counter"], "handlerEndpoint": "default"}]}
'''

TESTS = '''
import time

import pytest
from app_under_test import app, manifest


@pytest.fixture
def counter():
    app.start(port=0)
    yield app
    app.stop()


def test_a_tap_counts_and_the_widget_follows(glimpse, counter):
    glimpse.install(manifest(counter.endpoint))
    widget = glimpse.place("com.example.counter", "Counter", "systemSmall")
    assert "Count 0" in glimpse.widget(widget.placement_id)
    tapped = glimpse.tap(widget.placement_id, "add")
    assert tapped.performed.HasField("performed")
    assert "Count 1" in glimpse.widget(widget.placement_id)
    glimpse.advance(hours=1)
    assert [e.kind for e in glimpse.events(kinds=["intent_performed"])] == ["intent_performed"]


def test_a_push_updates_the_live_activity(glimpse):
    token = glimpse.install({"bundleId": "com.example.pizza", "displayName": "Pizza", "defaultEndpoint": "127.0.0.1:9",
                             "activityAttributes": [{"typeName": "Delivery"}],
                             "pushTopics": ["com.example.pizza.push-type.liveactivity"]}).app_token
    activity = glimpse.as_app(token).request_activity("Delivery", {"pizzas": 2}, {"driver": "Tim"}, push_token=True)
    stamp = int(glimpse.now().timestamp())
    status, reason, apns_id = glimpse.push(activity.activity_id, {"aps": {
        "event": "update", "content-state": {"driver": "John"}, "timestamp": stamp}})
    assert (status, reason) == (200, "") and apns_id
    # The gateway hears of the push from glimpse-activity after the 200: awaited, not timed.
    deadline = time.monotonic() + 60
    while not (pushes := glimpse.events(kinds=["push_received"])) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [e.push_received.apns_id for e in pushes] == [apns_id]
    assert glimpse.push("00ff", {"aps": {"event": "update", "content-state": {}, "timestamp": stamp}},
                        topic="com.example.pizza.push-type.liveactivity")[:2] == (400, "BadDeviceToken")


def test_each_test_gets_a_reset_device(glimpse):
    assert not glimpse.rpc.Apps.List(__import__("glimpse.gateway.v1.gateway_pb2", fromlist=["x"]).ListAppsRequest()).apps
'''

FAILING = '''
from app_under_test import app, manifest


def test_shows_the_widget_when_it_fails(glimpse):
    app.start(port=0)
    try:
        glimpse.install(manifest(app.endpoint))
        widget = glimpse.place("com.example.counter", "Counter", "systemSmall")
        assert "Count 99" in glimpse.widget(widget.placement_id)
    finally:
        app.stop()
'''


def sdk_environment(tmp_path):
    """A fresh virtual environment with `pip install ./sdk/python` done: its python."""
    venv = tmp_path / "venv"
    # The machine's packages (grpcio, protobuf, pytest, setuptools) are seen from the
    # environment; the SDK goes into it with pip, as `pip install ./sdk/python` does.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = str(venv / "bin" / "python")
    # A copy: setuptools builds in the source folder (build/, *.egg-info), not in the repository.
    source = tmp_path / "sdk-python"
    shutil.copytree(ROOT / "sdk" / "python", source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
                                "--no-build-isolation", "--disable-pip-version-check", str(source)],
                               capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    return python


def test_a_new_team_installs_the_sdk_writes_an_app_and_tests_it_with_the_fixture(tmp_path):
    python = sdk_environment(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    (project / "app_under_test.py").write_text(textwrap.dedent(APP))
    (project / "test_counter.py").write_text(textwrap.dedent(TESTS))
    (project / "test_failing.py").write_text(textwrap.dedent(FAILING))
    bin_dir = str(pathlib.Path(_binary("glimpse")).parent)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}   # no GLIMPSE_GATEWAY: the fixture starts a stack

    def pytest_run(*files):
        return subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--glimpse-bin", bin_dir, *files],
                              cwd=project, capture_output=True, text=True, env=env, timeout=600)

    green = pytest_run("test_counter.py")
    assert green.returncode == 0, green.stdout[-4000:] + green.stderr[-2000:]
    assert "3 passed" in green.stdout, green.stdout
    red = pytest_run("test_failing.py")
    assert red.returncode == 1, red.stdout[-4000:]
    # The failure shows the widget as the device draws it: its placement, kind and the text box.
    assert "placement 1 (Counter, WIDGET_FAMILY_SYSTEM_SMALL, entry)" in red.stdout, red.stdout[-4000:]
    assert "Count 0" in red.stdout and "┌" in red.stdout, red.stdout[-4000:]
