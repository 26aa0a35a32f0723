"""The `glimpse` fixture: a device for each test.

The session joins the stack at `--glimpse-gateway` / `$GLIMPSE_GATEWAY`, or starts one of its
own (`glimpse up --detach --no-demos --manual`, on ports of its own; the `glimpse` executables
from `--glimpse-bin` / `$GLIMPSE_BIN_DIR` / `PATH`) and stops it at the end. Each test gets
the device reset (no apps, default settings) on a frozen manual clock:

    def test_my_widget(glimpse, my_app):          # my_app: an App started on a free port
        glimpse.install(manifest(my_app.endpoint))
        widget = glimpse.place("com.example.steps", "LockScreenWidget", "accessoryRectangular")
        assert "8,420 steps" in glimpse.widget(widget.placement_id)
        glimpse.advance(minutes=15)

A failing `in` shows the widget drawn as text.
"""
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile

import pytest

from .gateway import Gateway, Shown

START = "2026-01-01T09:00:00Z"
PORTS = (7700, 7701, 7702, 7703, 7704, 7443, 7444)


def pytest_addoption(parser):
    group = parser.getgroup("glimpse")
    group.addoption("--glimpse-gateway", default=None, help="join this gateway (host:port) instead of starting one")
    group.addoption("--glimpse-bin", default=None, help="the folder with the glimpse executables")
    group.addoption("--glimpse-start", default=START, help="the manual clock's start for a started stack")


def _free(port):
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def _binary(config):
    folder = config.getoption("glimpse_bin") or os.environ.get("GLIMPSE_BIN_DIR")
    if folder:
        return str(pathlib.Path(folder) / "glimpse")
    found = shutil.which("glimpse")
    if not found:
        raise pytest.UsageError("glimpse plugin: no `glimpse` executable (give --glimpse-bin or GLIMPSE_BIN_DIR, "
                                "or --glimpse-gateway to join a running stack)")
    return found


@pytest.fixture(scope="session")
def glimpse_stack(request):
    """The gateway's address for the session (a started stack is stopped at the end)."""
    joined = request.config.getoption("glimpse_gateway") or os.environ.get("GLIMPSE_GATEWAY")
    if joined:
        yield joined
        return
    binary = _binary(request.config)
    offset = next((o for o in range(1000, 30000, 1000) if all(_free(p + o) for p in PORTS)), None)
    if offset is None:
        raise pytest.UsageError("glimpse plugin: no free block of ports for a stack")
    directory = tempfile.mkdtemp(prefix="glimpse-pytest-")
    up = subprocess.run([binary, "up", "--detach", "--no-demos", "--dir", directory, "--bin",
                         str(pathlib.Path(binary).parent), "--manual", request.config.getoption("glimpse_start"),
                         "--port-offset", str(offset)], capture_output=True, text=True, timeout=300)
    if up.returncode != 0:
        raise RuntimeError(f"glimpse up failed ({up.returncode}):\n{up.stderr[-3000:]}")
    # Gateway.push signs with the stack's key and posts to its APNs endpoint.
    os.environ["GLIMPSE_APNS_PROVIDER"] = str(pathlib.Path(directory) / "apns" / "provider.json")
    try:
        yield f"127.0.0.1:{7700 + offset}"
    finally:
        os.environ.pop("GLIMPSE_APNS_PROVIDER", None)
        subprocess.run([binary, "down", "--dir", directory], capture_output=True, text=True, timeout=120)
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def glimpse(glimpse_stack):
    """The device, reset, its clock frozen: a `Gateway`."""
    device = Gateway(glimpse_stack)
    device.reset()
    device.freeze()
    yield device
    device.close()


def pytest_assertrepr_compare(op, left, right):
    """`assert "text" in device.widget(id)` failing: the whole widget, drawn as text."""
    if op == "in" and isinstance(right, Shown):
        return [f"{left!r} is not shown in placement {right.widget.placement_id}; it shows {right.texts!r}:",
                *repr(right).splitlines()]
    return None
