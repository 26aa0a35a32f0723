"""The whole Glimpse stack as real executables on loopback, for end-to-end tests:
glimpse-timeline, -intent, -activity (APNs endpoint over h2c), -asset and glimpse-gateway,
every one on `--clock manual` from START, the gateway conducting.

    stack = Stack(tmp_path)
    stack.widgets.Place(...)
    stack.kill("timeline"); stack.start("timeline")    # kill -9, then back on the same port
    stack.stop()
"""
import socket

import grpc

from glimpse_protos import glimpse_modules
from test_timeline_service import Process, _binary

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2_grpc  # noqa: E402

START_TIME = "2026-01-01T09:00:00Z"
SERVICES = ("timeline", "intent", "activity", "asset")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    def __init__(self, tmp_path, gateway_args=(), activity_args=(), apns_tls=False, extra=None, gateway_first=False):
        """`gateway_first`: the gateway starts alone, pointed at free ports the services
        take when `start_services()` is called."""
        tmp_path.mkdir(parents=True, exist_ok=True)
        self.tmp_path = tmp_path
        self.processes = {}
        self.ports = {}
        self.activity_args = list(activity_args)
        self.apns_tls = apns_tls
        self.extra = extra or {}      # service -> extra flags, e.g. {"timeline": ["--device", …]}
        self.ca = None
        if gateway_first:
            self.ports = {service: _free_port() for service in SERVICES}
        else:
            self.start_services()
        self.start("gateway", extra=list(gateway_args))
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.ports['gateway']}")
        self.apps = gateway_pb2_grpc.AppsStub(self.channel)
        self.widgets = gateway_pb2_grpc.WidgetsStub(self.channel)
        self.device = gateway_pb2_grpc.DeviceStub(self.channel)
        self.clock = gateway_pb2_grpc.ClockStub(self.channel)
        self.activities = gateway_pb2_grpc.ActivitiesStub(self.channel)
        self.events = gateway_pb2_grpc.EventsStub(self.channel)
        self.widget_center = gateway_pb2_grpc.WidgetCenterStub(self.channel)
        self.activity_kit = gateway_pb2_grpc.ActivityKitStub(self.channel)
        self.app_group = gateway_pb2_grpc.AppGroupStub(self.channel)

    def start_services(self):
        for service in SERVICES:
            self.start(service)

    def argv(self, service, extra=()):
        port = str(self.ports.get(service, 0))
        argv = [_binary(f"glimpse-{service}"), "--port", port, "--data-dir", str(self.tmp_path / service),
                "--clock", "manual", "--start-time", START_TIME]
        if service in ("intent", "activity"):
            argv += ["--timeline-address", f"127.0.0.1:{self.ports['timeline']}"]
        if service == "activity":
            h2c = self.ports.get("apns-h2c", "auto")
            tls = self.ports.get("apns-tls", "auto") if self.apns_tls else "0"
            # Pushes are checked against the device's (manual) clock; a stock client's JWT
            # carries wall-clock time, so provider tokens are not checked here.
            argv += ["--apns-tls-port", str(tls), "--apns-h2c-port", str(h2c), "--apns-auth", "none", *self.activity_args]
        if service == "gateway":
            for upstream in SERVICES:
                argv += [f"--{upstream}-address", f"127.0.0.1:{self.ports[upstream]}"]
        return argv + list(self.extra.get(service, ())) + list(extra)

    def start(self, service, extra=()):
        process = Process(f"glimpse-{service}", self.argv(service, extra), self.tmp_path)
        self.processes[service] = process
        self.ports[service] = process.port
        if service == "activity":
            for _ in range(2 if self.apns_tls else 1):
                line = process.lines.get(timeout=10)
                assert line and " listening on port " in line, line
                words = line.split()
                self.ports[words[0]] = int(words[4])
                if "(CA: " in line:
                    self.ca = line.split("(CA: ", 1)[1].rstrip(")")
        return process

    def kill(self, service):
        """kill -9: nothing gets a chance to shut down cleanly."""
        process = self.processes.pop(service)
        process.process.kill()
        process.process.wait(timeout=10)
        process.stop()

    def stop(self):
        self.channel.close()
        codes = {}
        for service in ("gateway", *SERVICES):
            process = self.processes.pop(service, None)
            if process:
                codes[service] = process.stop()
        return codes
