"""`glimpse up` / `glimpse down`: the whole stack and the seed demo apps on the default
ports, started by the CLI as a user starts it (scripts/run.sh hands its arguments to it).
Detached: it returns once the demo device is drawn; a second start is refused with a clear
message, not a half-started stack; `glimpse down` stops every process, and a start in the
same directory again finds the device as it was. In the foreground,
Ctrl-C (SIGINT) stops everything cleanly. With --port-offset every port moves, so a stack
runs beside another (or beside whatever holds the default ports).
"""
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import pytest

from test_timeline_service import _binary

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_PORTS = (7700, 7701, 7702, 7703, 7704, 7710, 7711, 7712, 7713, 7714, 7443, 7444)


def _glimpse():
    glimpse = pathlib.Path(_binary("glimpse"))
    for product in ("glimpse-timeline", "glimpse-intent", "glimpse-activity", "glimpse-asset",
                    "glimpse-gateway", "glimpse-demo"):
        _binary(product)
    return glimpse


def _run(glimpse, *args, timeout=120):
    return subprocess.run([str(glimpse), *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = pathlib.Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ", 1)[1][0] != "Z"


def _ports_free(offset=0):
    for port in DEFAULT_PORTS:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port + offset)) == 0:
                return False
    return True


@pytest.fixture
def glimpse():
    if not _ports_free():
        pytest.skip("the default ports are taken (a stack is running on this machine)")
    return _glimpse()


def test_detached_stack_draws_the_demo_device_refuses_a_second_start_and_goes_down(glimpse, tmp_path):
    directory = tmp_path / "stack"
    up = _run(glimpse, "up", "--detach", "--dir", str(directory))
    try:
        assert up.returncode == 0, up.stderr
        record = json.loads((directory / "stack.json").read_text())
        names = {p["name"] for p in record["processes"]}
        assert {"glimpse-gateway", "glimpse-timeline", "glimpse-intent", "glimpse-activity", "glimpse-asset"} <= names
        assert {"demo-pixar", "demo-movieplanner", "demo-steps", "demo-rtlair", "demo-pizza"} <= names
        # The screens, as text on standard output and as files.
        assert "┌" in up.stdout and "127.0.0.1:7700" in up.stdout
        for name in ("home", "lock", "island"):
            svg = (directory / "screens" / f"{name}.svg").read_text()
            assert svg.startswith("<svg") or svg.startswith("<?xml")
            assert (directory / "screens" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        # Five apps installed, with their tokens where their processes read them.
        apps = json.loads(_run(glimpse, "apps", "--json").stdout)
        assert len(apps["apps"]) == 5
        assert len(list((directory / "tokens").glob("*.token"))) == 5
        # The pizza Live Activity is on.
        activities = json.loads(_run(glimpse, "activities", "--json").stdout)
        assert activities.get("activities"), activities
        # The Pixar app starts its playback activity: two apps, so the minimal pair.
        token = (directory / "tokens" / "pixar.token").read_text()
        requested = _run(glimpse, "app", "request-activity", "Demos/pixar/playback.json", "--app-token", token)
        assert requested.returncode == 0, requested.stderr
        island = json.loads(_run(glimpse, "render", "island", "--format", "layout").stdout)
        names = set()
        stack = [island["root"]]
        while stack:
            node = stack.pop()
            names.add(node.get("name", ""))
            stack.extend(node.get("children", []))
        assert {"minimalAttached", "minimalDetached"} <= names, names
        background = _run(glimpse, "app", "request-activity", "Demos/pixar/playback.json", "--app-token", token, "--background")
        assert background.returncode == 1 and "visibility" in background.stderr

        again = _run(glimpse, "up", "--detach", "--dir", str(directory))
        assert again.returncode == 1
        assert "already running" in again.stderr and "glimpse down" in again.stderr
        elsewhere = _run(glimpse, "up", "--detach", "--dir", str(tmp_path / "other"))
        assert elsewhere.returncode == 1
        assert "taken" in elsewhere.stderr
        assert not (tmp_path / "other" / "stack.json").exists()
    finally:
        down = _run(glimpse, "down", "--dir", str(directory))
    assert down.returncode == 0, down.stderr
    for process in record["processes"]:
        assert not _alive(process["pid"]), process
    assert not (directory / "stack.json").exists()
    assert _ports_free()

    # Started again in the same directory, whose logs say "listening" from the first run: it
    # waits for this run's processes (it took the old lines for them and called a gateway
    # not yet listening), and the device is the one the first run left.
    again = _run(glimpse, "up", "--detach", "--dir", str(directory))
    try:
        assert again.returncode == 0, again.stderr
        assert len(json.loads(_run(glimpse, "apps", "--json").stdout)["apps"]) == 5
        log = (directory / "logs" / "glimpse-gateway.log").read_text()
        assert log.count("glimpse: starting glimpse-gateway") == 2
    finally:
        down = _run(glimpse, "down", "--dir", str(directory))
    assert down.returncode == 0, down.stderr
    assert _ports_free()


def test_foreground_stack_stops_everything_on_ctrl_c(glimpse, tmp_path):
    directory = tmp_path / "stack"
    process = subprocess.Popen([str(glimpse), "up", "--no-demos", "--dir", str(directory)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (directory / "stack.json").exists() or "running" not in _peek(process, directory):
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        record = json.loads((directory / "stack.json").read_text())
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "stopped 5 processes" in err
    for member in record["processes"]:
        assert not _alive(member["pid"]), member
    assert _ports_free()


def _peek(process, directory):
    """Whether the gateway answers: the stack printed its screens and runs."""
    result = subprocess.run([str(pathlib.Path(_binary("glimpse"))), "clock", "now"], capture_output=True, text=True)
    return "running" if result.returncode == 0 else ""


def test_a_stack_on_moved_ports_runs_whole_and_says_where(tmp_path):
    glimpse = _glimpse()
    # Ports below the ephemeral range (32768 up), so no client socket of this machine holds one.
    offset = next((o for o in range(11000, 24000, 1000) if _ports_free(o)), None)
    if offset is None:
        pytest.skip("no free block of ports below the ephemeral range")
    directory = tmp_path / "moved"
    gateway = f"127.0.0.1:{7700 + offset}"
    bad = _run(glimpse, "up", "--detach", "--dir", str(directory), "--port-offset", "60000")
    assert bad.returncode != 0 and "--port-offset" in bad.stderr
    assert not (directory / "stack.json").exists()

    up = _run(glimpse, "up", "--detach", "--dir", str(directory), "--port-offset", str(offset))
    try:
        assert up.returncode == 0, up.stderr
        record = json.loads((directory / "stack.json").read_text())
        assert f"{gateway} " in up.stdout and f"http://{gateway}/" in up.stdout
        assert f"export GLIMPSE_GATEWAY={gateway}" in up.stdout
        assert f"127.0.0.1:{7443 + offset}" in up.stdout
        for port in (7700, 7701, 7702, 7703, 7704, 7710, 7711, 7712, 7713, 7714, 7443, 7444):
            with socket.socket() as s:
                assert s.connect_ex(("127.0.0.1", port + offset)) == 0, port + offset
        provider = json.loads((directory / "apns" / "provider.json").read_text())
        assert provider["tls"] == f"127.0.0.1:{7443 + offset}" and provider["gateway"] == gateway

        env = dict(os.environ, GLIMPSE_GATEWAY=gateway)
        home = subprocess.run([str(glimpse), "render", "home"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert home.returncode == 0, home.stderr
        # The apps' providers answer on their moved ports: their entries are on the screen.
        assert "Coco" in home.stdout and "SFO" in home.stdout, home.stdout
        # The pizza push server finds the endpoint, its key and the gateway in the stack's
        # provider.json, and moves the delivery along over TLS on the moved APNs port.
        pushed = subprocess.run(
            [sys.executable, str(ROOT / "Demos" / "pizza" / "push_server.py"), "--stack", str(directory),
             "--interval", "0", "--steps", "1-2"],
            cwd=ROOT, env={k: v for k, v in os.environ.items() if k != "GLIMPSE_GATEWAY"},
            capture_output=True, text=True, timeout=60)
        assert pushed.returncode == 0, pushed.stdout + pushed.stderr
        assert pushed.stdout.count("-> 200") == 2, pushed.stdout
    finally:
        down = _run(glimpse, "down", "--dir", str(directory))
    assert down.returncode == 0, down.stderr
    for process in record["processes"]:
        assert not _alive(process["pid"]), process
    assert _ports_free(offset)
