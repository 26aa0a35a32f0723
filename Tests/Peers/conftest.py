"""Starts the Swift test server (glimpse-rpc-testserver) for the grpcio peer tests.

The binary is found with `swift build --show-bin-path` and built if missing, so
`python3 -m pytest Tests/Peers` works on its own as well as from scripts/test.sh.
"""
import os
import pathlib
import shutil
import subprocess

import grpc
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRODUCT = "glimpse-rpc-testserver"


def _swift():
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    if not os.path.exists(swift):
        pytest.fail("no Swift toolchain: the peer tests need the Swift test server")
    return swift


def _binary():
    swift = _swift()
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    binary = pathlib.Path(bin_path) / PRODUCT
    if not binary.exists():
        subprocess.run([swift, "build", "--product", PRODUCT], cwd=ROOT, check=True)
    return binary


@pytest.fixture(scope="session")
def swift_server():
    """The running server's address, and a way to read its status counters at exit."""
    process = subprocess.Popen([str(_binary()), "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline().strip()
    if not line.startswith("listening on port "):
        process.kill()
        pytest.fail(f"test server did not start: {line!r}")
    port = int(line.rsplit(" ", 1)[1])
    yield f"127.0.0.1:{port}"
    process.terminate()
    rest = process.communicate(timeout=30)[0]
    assert process.returncode == 0, f"test server exited with {process.returncode}: {rest}"
    assert "statuses: ok=" in rest


@pytest.fixture()
def channel(swift_server):
    with grpc.insecure_channel(swift_server) as channel:
        grpc.channel_ready_future(channel).result(timeout=60)
        yield channel
