"""The local stack's supervisor: a process of `glimpse up` that exits is started again (as
compose's `restart: unless-stopped` does), `glimpse restart` starts one again at once,
`glimpse status` shows pid, uptime, restarts and health, and `glimpse down` stops everything
the stack runs — also a member started again by hand, and what a stack whose supervisor
was killed left behind. On moved ports (five executables, no demo apps), so it runs beside
anything holding the defaults.
"""
import json
import os
import signal
import subprocess
import time

import pytest

from test_stack_up import _alive, _glimpse, _ports_free, _run

PATIENCE = 60


def _record(directory):
    return json.loads((directory / "stack.json").read_text())


def _pid(directory, name):
    return next((p["pid"] for p in _record(directory)["processes"] if p["name"] == name), None)


def _until(condition, what):
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def stack(tmp_path):
    glimpse = _glimpse()
    offset = next((o for o in range(12500, 24000, 1000) if _ports_free(o)), None)
    if offset is None:
        pytest.skip("no free block of ports below the ephemeral range")
    directory = tmp_path / "supervised"
    up = _run(glimpse, "up", "--detach", "--no-demos", "--dir", str(directory), "--port-offset", str(offset))
    assert up.returncode == 0, up.stderr
    yield glimpse, directory, offset
    _run(glimpse, "down", "--dir", str(directory))


def test_a_killed_service_is_started_again_and_status_says_so(stack):
    glimpse, directory, _ = stack
    status = _run(glimpse, "status", "--dir", str(directory))
    assert status.returncode == 0, status.stdout + status.stderr
    assert status.stdout.count("SERVING") == 5 and "supervisor pid" in status.stdout
    old = _pid(directory, "glimpse-timeline")
    os.kill(old, signal.SIGKILL)
    _until(lambda: _pid(directory, "glimpse-timeline") not in (old, None), "the supervisor never started glimpse-timeline again")
    _until(lambda: _run(glimpse, "status", "--dir", str(directory)).returncode == 0, "glimpse-timeline never came back")
    line = next(l for l in _run(glimpse, "status", "--dir", str(directory)).stdout.splitlines()
                if l.startswith("glimpse-timeline"))
    assert line.split()[3] == "1" and line.endswith("SERVING"), line
    assert "glimpse-timeline exited (status 137)" in (directory / "logs" / "supervisor.log").read_text()


def test_restart_starts_one_process_again_at_once(stack):
    glimpse, directory, _ = stack
    old = _pid(directory, "glimpse-intent")
    restarted = _run(glimpse, "restart", "intent", "--dir", str(directory))
    assert restarted.returncode == 0, restarted.stderr
    assert f"pid {old} →" in restarted.stderr
    assert not _alive(old) and _alive(_pid(directory, "glimpse-intent"))
    assert _run(glimpse, "restart", "nothing", "--dir", str(directory)).returncode == 2


def test_down_stops_a_service_started_again_by_hand_and_leftovers_of_a_killed_supervisor(stack):
    glimpse, directory, offset = stack
    record = _record(directory)
    # The supervisor dies; a service is started again by hand, on the stack's port.
    os.kill(record["supervisor"], signal.SIGKILL)
    asset = next(m for m in record["plan"] if m["name"] == "glimpse-asset")
    os.kill(_pid(directory, "glimpse-asset"), signal.SIGTERM)
    _until(lambda: _ports_free(offset) or not _port_taken(7704 + offset), "glimpse-asset never stopped")
    by_hand = subprocess.Popen([asset["executable"], *asset["arguments"]], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    assert by_hand.stdout.readline().startswith("listening on port")
    # A new `up` is not refused by the leftovers of a stack whose supervisor is gone…
    status = _run(glimpse, "status", "--dir", str(directory))
    assert status.returncode == 1 and "supervisor not running" in status.stdout
    # …and `down` stops everything, the hand-started service too.
    down = _run(glimpse, "down", "--dir", str(directory))
    assert down.returncode == 0, down.stderr
    by_hand.wait(timeout=PATIENCE)
    for process in record["processes"]:
        assert not _alive(process["pid"]), process
    assert _ports_free(offset)


def _port_taken(port):
    import socket
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
