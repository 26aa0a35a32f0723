"""The whole Glimpse stack as real executables on loopback, for end-to-end tests:
glimpse-timeline, -intent, -activity (APNs endpoint over h2c), -asset and glimpse-gateway,
every one on `--clock manual` from START, the gateway conducting.

    stack = Stack(tmp_path)
    stack.widgets.Place(...)
    stack.kill("timeline"); stack.start("timeline")    # kill -9, then back on the same port
    stack.stop()

With `device_key=<file>` every process gets `--device-key <file>` and the stack's stubs send
`authorization: Device <key>` on each call that brings no app token.
"""
import collections
import random
import socket

import grpc

from glimpse_protos import glimpse_modules
from test_timeline_service import Process, _binary

glimpse_modules()
from glimpse.gateway.v1 import gateway_pb2_grpc  # noqa: E402

START_TIME = "2026-01-01T09:00:00Z"
# How long the gateway may wait for the screen or an app's views in a test stack.
PATIENCE = "60s"
SERVICES = ("timeline", "intent", "activity", "asset")


def _ephemeral_range():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low, high = (int(word) for word in f.read().split())
            return low, high
    except (OSError, ValueError):
        return 32768, 60999


_handed_out = set()


def free_port():
    """A free port outside the kernel's ephemeral range, for a process started later.

    A port from `bind(0)` is an ephemeral one: until the service takes it, any outgoing
    connection on the machine may be given it as its source port — a gateway retrying that
    very port can even connect to itself (TCP simultaneous open) — and the service's bind
    then fails with EADDRINUSE. Ports below the range are never handed out implicitly.

    A port is handed out once per session: a stack names its ports before its processes
    bind them (`gateway_first`, the upstream addresses), so "free right now" alone let two
    services of one stack be given the same port (seen in CI: glimpse-asset's bind failed)."""
    low, _ = _ephemeral_range()
    candidates = [port for port in range(max(1024, low - 12000), low) if port not in _handed_out]
    random.shuffle(candidates)
    for port in candidates[:500]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            _handed_out.add(port)
            return port
    raise RuntimeError("no free port below the ephemeral range")


class _CallDetails(collections.namedtuple("_CallDetails", ("method", "timeout", "metadata", "credentials",
                                                          "wait_for_ready", "compression")),
                   grpc.ClientCallDetails):
    pass


class MetadataInterceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Adds the entry `name: value` to every call; `replace`: in place of one the call has,
    else only to calls that carry none."""

    def __init__(self, name, value, replace=False):
        self.name, self.value, self.replace = name, value, replace

    def _details(self, details):
        metadata = list(details.metadata or [])
        if self.replace:
            metadata = [(k, v) for k, v in metadata if k != self.name]
        if not any(k == self.name for k, _ in metadata):
            metadata.append((self.name, self.value))
        return _CallDetails(details.method, details.timeout, metadata, details.credentials,
                            details.wait_for_ready, details.compression)

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._details(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._details(details), request)


def DeviceKeyInterceptor(key):
    """Adds `authorization: Device <key>` to calls that carry no `authorization`."""
    return MetadataInterceptor("authorization", f"Device {key}")


def device_channel(address, key=None):
    """A channel to `address`; with `key`, its device calls carry the device key."""
    channel = grpc.insecure_channel(address)
    return grpc.intercept_channel(channel, DeviceKeyInterceptor(key)) if key else channel


class Stack:
    def __init__(self, tmp_path, gateway_args=(), activity_args=(), apns_tls=False, extra=None, gateway_first=False,
                 clock="manual", device_key=None):
        """`gateway_first`: the gateway starts alone, pointed at free ports the services
        take when `start_services()` is called. `clock="system"`: every process follows the
        system clock (real time), as a stack deployed for manual use does. `device_key`: a
        file holding the device key."""
        tmp_path.mkdir(parents=True, exist_ok=True)
        self.tmp_path = tmp_path
        self.device_key_file = device_key
        self.device_key = open(device_key).read().strip() if device_key else None
        self.processes = {}
        self.ports = {}
        self.activity_args = list(activity_args)
        self.apns_tls = apns_tls
        self.extra = extra or {}      # service -> extra flags, e.g. {"timeline": ["--device", …]}
        self.ca = None
        self.clock_mode = clock
        if gateway_first:
            self.ports = {service: free_port() for service in SERVICES}
        else:
            self.start_services()
        self.start("gateway", extra=list(gateway_args))
        self.channel = device_channel(f"127.0.0.1:{self.ports['gateway']}", self.device_key)
        self.apps = gateway_pb2_grpc.AppsStub(self.channel)
        self.widgets = gateway_pb2_grpc.WidgetsStub(self.channel)
        self.device = gateway_pb2_grpc.DeviceStub(self.channel)
        self.clock = gateway_pb2_grpc.ClockStub(self.channel)
        self.activities = gateway_pb2_grpc.ActivitiesStub(self.channel)
        self.events = gateway_pb2_grpc.EventsStub(self.channel)
        self.widget_center = gateway_pb2_grpc.WidgetCenterStub(self.channel)
        self.activity_kit = gateway_pb2_grpc.ActivityKitStub(self.channel)
        self.app_group = gateway_pb2_grpc.AppGroupStub(self.channel)

    def device_view(self, device):
        """The stack as one of its devices sees it: stubs whose calls name `device`
        (`glimpse-device`), the same ports, and a folder of its own for its apps' files."""
        return DeviceView(self, device)

    def start_services(self):
        for service in SERVICES:
            self.start(service)

    def argv(self, service, extra=()):
        port = str(self.ports[service])
        argv = [_binary(f"glimpse-{service}"), "--port", port, "--data-dir", str(self.tmp_path / service)]
        if self.clock_mode == "manual":
            argv += ["--clock", "manual", "--start-time", START_TIME]
        if service in ("intent", "activity"):
            argv += ["--timeline-address", f"127.0.0.1:{self.ports['timeline']}"]
        if service == "timeline":
            argv += ["--asset-address", f"127.0.0.1:{self.ports.setdefault('asset', free_port())}"]
        if service == "activity":
            h2c = self.ports.setdefault("apns-h2c", free_port())
            tls = self.ports.setdefault("apns-tls", free_port()) if self.apns_tls else "0"
            # Pushes are checked against the device's (manual) clock; a stock client's JWT
            # carries wall-clock time, so provider tokens are not checked here.
            argv += ["--apns-tls-port", str(tls), "--apns-h2c-port", str(h2c), "--apns-auth", "none", *self.activity_args]
        if service == "gateway":
            # The device's waits are rules with tests of their own; here they must never run
            # out on a busy machine.
            argv += ["--settle-timeout", PATIENCE, "--views-deadline", PATIENCE]
            for upstream in SERVICES:
                argv += [f"--{upstream}-address", f"127.0.0.1:{self.ports[upstream]}"]
        if self.device_key_file:
            argv += ["--device-key", str(self.device_key_file)]
        return argv + list(self.extra.get(service, ())) + list(extra)

    def start(self, service, extra=()):
        # A port of its own from the start, so that a service killed and started again
        # finds its port free (see free_port).
        self.ports.setdefault(service, free_port())
        process = Process(f"glimpse-{service}", self.argv(service, extra), self.tmp_path)
        self.processes[service] = process
        self.ports[service] = process.port
        if service == "activity":
            for _ in range(2 if self.apns_tls else 1):
                line = process.lines.get(timeout=60)
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
        process.process.wait(timeout=60)
        process.stop()

    def stop(self):
        self.channel.close()
        codes = {}
        for service in ("gateway", *SERVICES):
            process = self.processes.pop(service, None)
            if process:
                codes[service] = process.stop()
        return codes


class DeviceView:
    """One device of a stack (see `Stack.device_view`)."""

    def __init__(self, stack, device):
        self.stack = stack
        self.device_id = device
        self.ports = stack.ports
        self.tmp_path = stack.tmp_path / "devices" / device
        self.tmp_path.mkdir(parents=True, exist_ok=True)
        self.channel = grpc.intercept_channel(stack.channel, MetadataInterceptor("glimpse-device", device, replace=True))
        self.apps = gateway_pb2_grpc.AppsStub(self.channel)
        self.widgets = gateway_pb2_grpc.WidgetsStub(self.channel)
        self.device = gateway_pb2_grpc.DeviceStub(self.channel)
        self.clock = gateway_pb2_grpc.ClockStub(self.channel)
        self.activities = gateway_pb2_grpc.ActivitiesStub(self.channel)
        self.events = gateway_pb2_grpc.EventsStub(self.channel)
        self.widget_center = gateway_pb2_grpc.WidgetCenterStub(self.channel)
        self.activity_kit = gateway_pb2_grpc.ActivityKitStub(self.channel)
        self.app_group = gateway_pb2_grpc.AppGroupStub(self.channel)
