"""glimpse-timeline end to end: the real executable, on a manual clock, calling a real app
provider written in Python (pixar_provider.py) over gRPC.

The test talks to glimpse.timeline.v1.TimelineService and glimpse.clock.v1.Clock with stock
grpcio; the Python modules are generated at test time from Proto/ (glimpse_protos.py).

Scopes as the service defines them: installing and placing are the device's calls (no
token); reading a placement is app-scoped (`authorization: Bearer <app token>`), and an
app's token does not reach another app's placement.
"""
import datetime
import os
import pathlib
import queue
import shutil
import subprocess
import sys
import threading
import time

import grpc
import pytest
from google.protobuf import timestamp_pb2

from glimpse_protos import glimpse_modules

glimpse_modules()
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.clock.v1 import clock_pb2, clock_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as service_pb2, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
PEERS = pathlib.Path(__file__).resolve().parent
START = datetime.datetime(2026, 1, 1, 9, 0, tzinfo=datetime.timezone.utc)
PIXAR = "com.example.pixartracker"
OTHER = "com.example.other"
# Bounds on waiting, never measurements: a busy CI runner (three busy loops a core beside the
# suite, scripts/test-under-load.sh) must never reach them.
RPC_TIMEOUT = 60      # seconds, every call
STARTUP_TIMEOUT = 120  # seconds for a process to print its port
ENTRY_TIMEOUT = 60    # seconds for the first provider answer to show


def _binary(product):
    """The built executable: from GLIMPSE_BIN_DIR when set (a build with its own
    --scratch-path), else from `swift build --show-bin-path`, built if missing."""
    bin_dir = os.environ.get("GLIMPSE_BIN_DIR")
    if bin_dir:
        binary = pathlib.Path(bin_dir) / product
        if not binary.exists():
            pytest.fail(f"{binary} does not exist (GLIMPSE_BIN_DIR={bin_dir})")
        return str(binary)
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    binary = pathlib.Path(bin_path) / product
    if not binary.exists():
        subprocess.run([swift, "build", "--product", product], cwd=ROOT, check=True)
    return str(binary)


class Process:
    """A child that prints `listening on port N` first; the rest of its standard output is
    drained (so it never blocks on a full pipe), standard error goes to a file."""

    def __init__(self, name, argv, log_dir, **popen):
        self.name = name
        self.stderr_path = log_dir / f"{name}.stderr"
        self._stderr = open(self.stderr_path, "w")
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self._stderr, text=True, **popen)
        self.lines = queue.Queue()
        threading.Thread(target=self._drain, daemon=True).start()
        self.port = self._port()

    def _drain(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _port(self):
        try:
            line = self.lines.get(timeout=STARTUP_TIMEOUT)
        except queue.Empty:
            line = f"(nothing within {STARTUP_TIMEOUT} s)"
        if line is None or not line.startswith("listening on port "):
            self.stop()
            pytest.fail(f"{self.name} did not start: {line!r}\n{self.stderr()}")
        return int(line.rsplit(" ", 1)[1])

    def stderr(self):
        return self.stderr_path.read_text(errors="replace")[-4000:]

    def stop(self):
        """SIGTERM, then SIGKILL after 10 s; returns the exit code."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=60)
        self._stderr.close()
        return self.process.returncode


def _timestamp(instant):
    stamp = timestamp_pb2.Timestamp()
    stamp.FromDatetime(instant)
    return stamp


def _bearer(token):
    return [("authorization", f"Bearer {token}")]


def _text(entry):
    assert entry.view.WhichOneof("kind") == "text", f"not a Text view: {entry.view}"
    return entry.view.text.content


def _manifest(bundle_id, kind, families, endpoint):
    return manifest_pb2.AppManifest(
        bundle_id=bundle_id, display_name=bundle_id.rsplit(".", 1)[-1], default_endpoint=endpoint,
        widgets=[manifest_pb2.WidgetKindDeclaration(kind=kind, display_name=kind, supported_families=families)])


def _code(call, *args, **kwargs):
    """The status code a call that must fail ends with."""
    with pytest.raises(grpc.RpcError) as failure:
        call(*args, timeout=RPC_TIMEOUT, **kwargs)
    return failure.value.code()


def _wait_for_entry(timeline, placement_id, metadata):
    """GetPlacement until it shows a current entry; fails after ENTRY_TIMEOUT."""
    deadline = time.monotonic() + ENTRY_TIMEOUT
    while True:
        status = timeline.GetPlacement(service_pb2.GetPlacementRequest(placement_id=placement_id),
                                       metadata=metadata, timeout=RPC_TIMEOUT)
        if status.HasField("current_entry"):
            return status
        if time.monotonic() >= deadline:
            pytest.fail(f"placement {placement_id} showed no entry within {ENTRY_TIMEOUT} s: {status}")
        time.sleep(0.05)


def test_timeline_service_with_a_python_provider(tmp_path):
    provider = service = None
    try:
        provider = Process("pixar_provider", [sys.executable, str(PEERS / "pixar_provider.py"), "--port", "0"],
                           tmp_path)
        service = Process("glimpse-timeline", [
            _binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / "timeline"),
            "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"], tmp_path)

        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            timeline = timeline_pb2_grpc.TimelineServiceStub(channel)
            clock = clock_pb2_grpc.ClockStub(channel)

            # Install: the token comes back and goes on every app-scoped call.
            families = [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL, family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM,
                        family_pb2.WIDGET_FAMILY_ACCESSORY_CIRCULAR]
            installed = timeline.InstallApp(service_pb2.InstallAppRequest(
                manifest=_manifest(PIXAR, "PixarFilmWidget", families, f"127.0.0.1:{provider.port}")),
                timeout=RPC_TIMEOUT)
            assert installed.app_token, "InstallApp returned no app token"
            pixar = _bearer(installed.app_token)

            # Place (the user's act: a device call, without an app token): the provider is
            # called (free) and its first entry, dated the device's now, becomes current.
            placed = timeline.Place(service_pb2.PlaceRequest(
                bundle_id=PIXAR, kind="PixarFilmWidget", family=family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM),
                timeout=RPC_TIMEOUT)
            placement_id = placed.placement.placement_id
            assert placement_id != 0
            assert placed.placement.kind == "PixarFilmWidget"
            status = _wait_for_entry(timeline, placement_id, pixar)
            assert _text(status.current_entry) == "Coco 42% +0", status
            assert status.current_entry.date == _timestamp(START)
            assert len(status.timeline.entries) == 5
            assert status.timeline.WhichOneof("reload_policy") == "at_end"

            # The clock: manual, at the start instant; 31 minutes on, the 30-minute entry shows.
            now = clock.Now(clock_pb2.NowRequest(), timeout=RPC_TIMEOUT)
            assert now.manual
            assert now.now == _timestamp(START)
            target = START + datetime.timedelta(minutes=31)
            advanced = clock.AdvanceTo(clock_pb2.AdvanceToRequest(to=_timestamp(target)), timeout=RPC_TIMEOUT)
            assert advanced.now == _timestamp(target)
            status = timeline.GetPlacement(service_pb2.GetPlacementRequest(placement_id=placement_id),
                                           metadata=pixar, timeout=RPC_TIMEOUT)
            assert _text(status.current_entry) == "Coco 42% +30", status
            assert status.current_entry.date == _timestamp(START + datetime.timedelta(minutes=30))

            # Refusals: a family the kind does not support, a kind the app does not have.
            assert _code(timeline.Place, service_pb2.PlaceRequest(
                bundle_id=PIXAR, kind="PixarFilmWidget", family=family_pb2.WIDGET_FAMILY_ACCESSORY_INLINE),
            ) == grpc.StatusCode.INVALID_ARGUMENT
            assert _code(timeline.Place, service_pb2.PlaceRequest(
                bundle_id=PIXAR, kind="Nope", family=family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM),
            ) == grpc.StatusCode.NOT_FOUND

            # Another app's token cannot read this app's placement.
            other = timeline.InstallApp(service_pb2.InstallAppRequest(
                manifest=_manifest(OTHER, "Other", [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL],
                                   f"127.0.0.1:{provider.port}")),
                timeout=RPC_TIMEOUT)
            assert other.app_token and other.app_token != installed.app_token
            assert _code(timeline.GetPlacement, service_pb2.GetPlacementRequest(placement_id=placement_id),
                         metadata=_bearer(other.app_token)) == grpc.StatusCode.PERMISSION_DENIED
    finally:
        codes = {}
        for process in (service, provider):
            if process is not None:
                codes[process.name] = process.stop()
    # A clean shutdown on SIGTERM (checked only when the body passed, so its failure shows first).
    assert codes.get("glimpse-timeline") == 0, f"glimpse-timeline exited with {codes}: {service.stderr()}"


def test_acknowledged_writes_survive_kill_9(tmp_path):
    """Every write the service acknowledged is there after SIGKILL and a restart on the same
    data directory: the app and its token, placements, timelines, and the clock's instant."""
    provider = service = None
    data = tmp_path / "timeline"
    argv = [_binary("glimpse-timeline"), "--port", "0", "--data-dir", str(data),
            "--clock", "manual", "--start-time", "2026-01-01T09:00:00Z"]
    try:
        provider = Process("pixar_provider", [sys.executable, str(PEERS / "pixar_provider.py"), "--port", "0"],
                           tmp_path)
        service = Process("glimpse-timeline", argv, tmp_path)
        families = [family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM, family_pb2.WIDGET_FAMILY_ACCESSORY_CIRCULAR]
        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            timeline = timeline_pb2_grpc.TimelineServiceStub(channel)
            clock = clock_pb2_grpc.ClockStub(channel)
            token = timeline.InstallApp(service_pb2.InstallAppRequest(
                manifest=_manifest(PIXAR, "PixarFilmWidget", families, f"127.0.0.1:{provider.port}")),
                timeout=RPC_TIMEOUT).app_token
            placed = [timeline.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget", family=f),
                                     timeout=RPC_TIMEOUT).placement.placement_id for f in families]
            for placement_id in placed:
                _wait_for_entry(timeline, placement_id, _bearer(token))
            clock.AdvanceTo(clock_pb2.AdvanceToRequest(to=_timestamp(START + datetime.timedelta(minutes=46))),
                            timeout=RPC_TIMEOUT)
            before = [timeline.GetPlacement(service_pb2.GetPlacementRequest(placement_id=p),
                                            metadata=_bearer(token), timeout=RPC_TIMEOUT) for p in placed]

        service.process.kill()  # SIGKILL: no shutdown, no flush
        service.process.wait(timeout=60)
        service.stop()
        service = Process("glimpse-timeline", argv, tmp_path)

        with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
            timeline = timeline_pb2_grpc.TimelineServiceStub(channel)
            after = [timeline.GetPlacement(service_pb2.GetPlacementRequest(placement_id=p),
                                           metadata=_bearer(token), timeout=RPC_TIMEOUT) for p in placed]
            for old, new in zip(before, after):
                assert new.timeline == old.timeline
                assert new.current_entry == old.current_entry
                assert _text(new.current_entry) == "Coco 42% +45"
                assert new.budget.used == old.budget.used
            # The token still works, and another placement gets a fresh id.
            third = timeline.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget",
                                                            family=family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM),
                                   timeout=RPC_TIMEOUT).placement.placement_id
            assert third not in placed
    finally:
        for process in (service, provider):
            if process is not None:
                process.stop()


def assert_malformed_protobuf_refused(service, service_descriptor, count):
    """Garbage where a message should be, on every method of `service_descriptor` and of the
    Clock: each answers INTERNAL naming the message it could not decode (as stock gRPC servers
    answer a request they cannot deserialize), never a crash, and the server goes on serving."""
    methods = [(f"/{service_descriptor.full_name}/{m.name}", m.server_streaming) for m in service_descriptor.methods]
    methods += [(f"/glimpse.clock.v1.Clock/{m.name}", False)
                for m in clock_pb2.DESCRIPTOR.services_by_name["Clock"].methods]
    assert len(methods) == count
    garbage = b"\x0a\xff\xff\xff\xff\x0f"  # field 1, length-delimited, length past the end
    with grpc.insecure_channel(f"127.0.0.1:{service.port}") as channel:
        for path, streaming in methods:
            call = (channel.unary_stream if streaming else channel.unary_unary)(path)
            with pytest.raises(grpc.RpcError) as raised:
                result = call(garbage, timeout=RPC_TIMEOUT)
                if streaming:
                    list(result)
            assert raised.value.code() == grpc.StatusCode.INTERNAL, (path, raised.value.details())
            assert "malformed protobuf for glimpse." in raised.value.details(), (path, raised.value.details())
        # Still serving.
        now = clock_pb2_grpc.ClockStub(channel).Now(clock_pb2.NowRequest(), timeout=RPC_TIMEOUT)
        assert now.manual


def test_malformed_protobuf_on_every_method_is_refused_clearly(tmp_path):
    service = Process("glimpse-timeline", [
        _binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / "timeline"),
        "--clock", "manual"], tmp_path)
    try:
        assert_malformed_protobuf_refused(service, service_pb2.DESCRIPTOR.services_by_name["TimelineService"], 18)
    finally:
        service.stop()
