"""Chaos soak: a supervised `glimpse up` stack (manual clock, moved ports) under mixed load
while a random service is killed with SIGKILL every few seconds; a ledger of every
acknowledged write, checked at the end: each one there, exactly once.

Load (each worker retries what failed while a service was down):
  - App Group writes: `soak/<n>` = n (the value must be there);
  - taps on a Button whose intent increments `taps`, each with its own idempotency key,
    retried with the same key until acknowledged (the counter must equal the keys: no tap
    lost, none applied twice);
  - placements (each acknowledged one at the gateway and at glimpse-timeline, no orphan);
  - pushes over TLS with a provider token (ES256 JWT) to a Live Activity: each 200 in the
    push log exactly once;
  - asset puts and gets at glimpse-asset (a random earlier put read back with each; every put's
    bytes read back at the end, by SHA-256);
  - clock steps (Clock.Advance 10 s a second: 30 minutes are 5 hours, inside the activity's 8).
Prints what was acknowledged, what failed while services were down, the kills, and RSS and
open files per process at start and end. Exit 1 when a check fails.

    Benchmarks/soak.sh 30        # 30 minutes, release build
    python3 Benchmarks/soak.py --minutes 2 --bin "$(swift build --show-bin-path)"   # the test command's
"""
import argparse
import hashlib
import json
import os
import pathlib
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from concurrent import futures

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Peers"))

import grpc  # noqa: E402

from glimpse_protos import glimpse_modules  # noqa: E402

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.app.v1 import manifest_pb2 as m, provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.asset.v1 import asset_pb2, asset_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402
from glimpse.intent.v1 import intent_pb2  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as t, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2, intent_pb2 as wi, timeline_pb2, view_pb2  # noqa: E402

APP = "com.example.soak"
GROUP = "group.com.example.soak"
TOPIC = f"{APP}.push-type.liveactivity"
SERVICES = ["glimpse-timeline", "glimpse-intent", "glimpse-activity", "glimpse-asset", "glimpse-gateway"]
SMALL = family_pb2.WIDGET_FAMILY_SYSTEM_SMALL
CALL = 30           # seconds a call may take (a restart is under way at times)


class Provider(provider_pb2_grpc.WidgetProviderServicer):
    """One entry with a Button that runs TapIntent (increments `taps`)."""

    def Timeline(self, request, context):
        button = view_pb2.View(id="tap", button=view_pb2.Button(
            intent=wi.IntentInvocation(intent_type="TapIntent"), label=view_pb2.View(text=view_pb2.Text(content="Tap"))))
        entry = timeline_pb2.TimelineEntry(date=request.now, view=button)
        return provider_pb2.TimelineResponse(timeline=timeline_pb2.Timeline(entries=[entry], never=timeline_pb2.Timeline.Never()))


def png(seed):
    """A small, distinct PNG (8×8, one color per seed)."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    pixel = bytes([seed % 256, (seed >> 8) % 256, (seed >> 16) % 256])
    raw = b"".join(b"\x00" + pixel * 8 for _ in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.acked = {}       # kind -> list of what was acknowledged
        self.failed = {}      # kind -> calls that failed (a service down), retried or left
        self.problems = []    # what a read during the soak found wrong

    def ack(self, kind, item):
        with self.lock:
            self.acked.setdefault(kind, []).append(item)

    def problem(self, text):
        with self.lock:
            self.problems.append(text)

    def fail(self, kind):
        with self.lock:
            self.failed[kind] = self.failed.get(kind, 0) + 1


def processes(directory):
    record = json.loads((directory / "stack.json").read_text())
    return {p["name"]: p["pid"] for p in record["processes"]}


def usage(directory):
    """RSS (MiB) and open files of each process of the stack."""
    result = {}
    for name, pid in processes(directory).items():
        try:
            rss = next(int(line.split()[1]) for line in open(f"/proc/{pid}/status") if line.startswith("VmRSS:"))
            files = len(os.listdir(f"/proc/{pid}/fd"))
            result[name] = (rss / 1024, files)
        except (OSError, StopIteration):
            result[name] = (0.0, 0)
    return result


def stubs(offset, options=()):
    """Stubs on new channels to the gateway, glimpse-asset and glimpse-timeline of the stack at `offset`."""
    options = [("grpc.max_reconnect_backoff_ms", 1000), *options]  # a killed service is back within seconds

    def channel(port):
        return grpc.insecure_channel(f"127.0.0.1:{port + offset}", options=options)

    gateway = channel(7700)
    return (gateway_pb2_grpc.AppsStub(gateway), gateway_pb2_grpc.WidgetsStub(gateway),
            gateway_pb2_grpc.ClockStub(gateway), gateway_pb2_grpc.AppGroupStub(gateway),
            gateway_pb2_grpc.ActivityKitStub(gateway), gateway_pb2_grpc.ActivitiesStub(gateway),
            asset_pb2_grpc.AssetServiceStub(channel(7704)), timeline_pb2_grpc.TimelineServiceStub(channel(7701)))


def run(minutes, bin_dir, kill_every, seed):
    rng = random.Random(seed)
    glimpse = str(pathlib.Path(bin_dir) / "glimpse")
    directory = pathlib.Path(tempfile.mkdtemp(prefix="glimpse-soak-"))
    offset = 14000 + rng.randrange(0, 8) * 1000
    provider_server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(Provider(), provider_server)
    provider_port = provider_server.add_insecure_port("127.0.0.1:0")
    provider_server.start()
    up = subprocess.run([glimpse, "up", "--detach", "--no-demos", "--dir", str(directory), "--port-offset", str(offset),
                         "--manual", "2026-06-01T09:00:00Z", "--bin", bin_dir], capture_output=True, text=True, timeout=300)
    if up.returncode != 0:
        raise SystemExit(f"glimpse up failed:\n{up.stderr}")
    ledger, stop, kills = Ledger(), threading.Event(), []
    try:
        apps, widgets, clock, app_group, activity_kit, activities, asset, timeline = stubs(offset)
        manifest = m.AppManifest(
            bundle_id=APP, display_name="Soak", app_groups=[GROUP], default_endpoint=f"127.0.0.1:{provider_port}",
            push_topics=[TOPIC],
            widgets=[m.WidgetKindDeclaration(kind="W", display_name="W", supported_families=[SMALL])],
            intents=[m.IntentDeclaration(type="TapIntent", title="Tap", widget_kinds=["W"], store=m.StoreAction(
                app_group=GROUP, operations=[m.StoreOperation(increment=m.StoreOperation.Increment(key="taps", by=1))]))],
            activity_attributes=[m.ActivityAttributesDeclaration(type_name="SoakAttributes")])
        token = apps.Install(g.InstallRequest(manifest=manifest), timeout=CALL).app_token
        bearer = [("authorization", f"Bearer {token}")]
        first = widgets.Place(g.PlaceRequest(bundle_id=APP, kind="W", family=SMALL), timeout=CALL)
        ledger.ack("place", first.placement_id)
        requested = activity_kit.Request(a.RequestActivityRequest(
            attributes_type="SoakAttributes", attributes_json="{}", content=a.Content(state_json='{"n": 0}'), token=True),
            metadata=bearer, timeout=CALL)
        activity_id = requested.activity.activity_id
        device_token = ""
        while not device_token:
            device_token = activities.Get(g.GetActivityRequest(activity_id=activity_id), timeout=CALL).activity.push_token
        before = usage(directory)

        def worker(kind, body, pause):
            n = 0
            while not stop.is_set():
                n += 1
                try:
                    body(n)
                except grpc.RpcError:
                    ledger.fail(kind)
                    time.sleep(0.2)
                time.sleep(pause)

        def group_write(n):
            key = f"soak/{n}"
            app_group.Set(intent_pb2.SetRequest(app_group=GROUP, key=key, value=wi.ParameterValue(int_value=n)),
                          metadata=bearer, timeout=CALL)
            ledger.ack("group", (key, n))

        def tap(n):
            key = f"tap-{seed}-{n}"
            while True:  # the same key until acknowledged: applied once whatever failed on the way
                try:
                    widgets.Tap(g.TapRequest(placement_id=first.placement_id, element="tap", idempotency_key=key), timeout=CALL)
                    ledger.ack("tap", key)
                    return
                except grpc.RpcError as error:
                    ledger.fail("tap")
                    if stop.is_set():
                        ledger.ack("tap?", key)  # unknown outcome: may count once
                        return
                    if error.code() == grpc.StatusCode.FAILED_PRECONDITION:
                        raise
                    time.sleep(0.2)

        def place(n):
            placed = widgets.Place(g.PlaceRequest(bundle_id=APP, kind="W", family=SMALL), timeout=CALL)
            ledger.ack("place", placed.placement_id)

        rng_assets = random.Random(seed + 1)

        def asset_round(n):
            data = png(seed * 100000 + n)
            digest = hashlib.sha256(data).hexdigest()
            header = asset_pb2.PutHeader(bundle_id=APP, name=f"soak/{n}.png", use=m.AssetDeclaration.USE_WIDGET,
                                         sha256=digest, size=len(data))
            asset.Put(iter([asset_pb2.PutRequest(header=header), asset_pb2.PutRequest(chunk=data)]), timeout=CALL)
            ledger.ack("asset", (f"soak/{n}.png", digest))
            with ledger.lock:
                name, want = rng_assets.choice(ledger.acked["asset"])
            got = b"".join(part.chunk for part in asset.Get(asset_pb2.GetRequest(bundle_id=APP, name=name), timeout=CALL))
            ledger.ack("get", name)
            if hashlib.sha256(got).hexdigest() != want:
                ledger.problem(f"asset {name}: a Get during the soak read {len(got)} bytes that are not the ones put")

        def advance(n):
            clock.Advance(g.AdvanceRequest(by={"seconds": 10}), timeout=CALL)
            ledger.ack("clock", n)

        pushes = Pusher(directory, offset, device_token, ledger, stop)
        threads = [threading.Thread(target=worker, args=args, daemon=True) for args in (
            ("group", group_write, 0.01), ("tap", tap, 0.05), ("place", place, 5.0), ("asset", asset_round, 0.05),
            ("clock", advance, 1.0))]
        threads.append(threading.Thread(target=pushes.run, daemon=True))
        for thread in threads:
            thread.start()
        end = time.monotonic() + minutes * 60
        while time.monotonic() < end:
            time.sleep(kill_every)
            victim = rng.choice(SERVICES)
            try:
                os.kill(processes(directory)[victim], signal.SIGKILL)
                kills.append(victim)
            except (KeyError, ProcessLookupError):
                pass  # between its kill and its restart
        stop.set()
        for thread in threads:
            thread.join(CALL * 3)
        # Everything back up, then the checks.
        deadline = time.monotonic() + 120
        while subprocess.run([glimpse, "status", "--dir", str(directory)], capture_output=True).returncode != 0:
            if time.monotonic() > deadline:
                raise SystemExit("the stack did not come back after the soak")
            time.sleep(0.5)
        after = usage(directory)
        # Channels of their own: the soak's may still wait out a reconnect backoff from a kill near the
        # end (grpcio's grows to two minutes, and channels to one address share their connections), and
        # would fail at once with the last "connection refused".
        _, widgets, _, app_group, _, activities, asset, timeline = stubs(offset, [("grpc.use_local_subchannel_pool", 1)])
        problems = check(ledger, app_group, bearer, widgets, timeline, activities, asset)
        report(minutes, kill_every, ledger, kills, before, after, problems)
        return 1 if problems else 0
    finally:
        stop.set()
        subprocess.run([glimpse, "down", "--dir", str(directory)], capture_output=True, timeout=300)
        provider_server.stop(None)
        shutil.rmtree(directory, ignore_errors=True)


class Pusher:
    """Live Activity updates over TLS with a provider token, as a push server sends them."""

    def __init__(self, directory, offset, device_token, ledger, stop):
        self.provider = json.loads((directory / "apns" / "provider.json").read_text())
        self.device_token, self.ledger, self.stop = device_token, ledger, stop

    def run(self):
        import httpx
        import jwt
        key = open(self.provider["keyPath"]).read()
        token = jwt.encode({"iss": self.provider["teamId"], "iat": int(time.time())}, key, algorithm="ES256",
                           headers={"kid": self.provider["keyId"]})
        n = 0
        client = None
        while not self.stop.is_set():
            n += 1
            apns_id = f"00000000-0000-4000-8000-{n:012d}"
            body = {"aps": {"timestamp": 1780304400 + n, "event": "update", "content-state": {"n": n}}}
            try:
                if client is None:
                    client = httpx.Client(http2=True, verify=self.provider["ca"], timeout=CALL)
                answer = client.post(f"https://{self.provider['tls']}/3/device/{self.device_token}", json=body, headers={
                    "authorization": f"bearer {token}", "apns-topic": TOPIC, "apns-push-type": "liveactivity",
                    "apns-id": apns_id})
                if answer.status_code == 200:
                    self.ledger.ack("push", apns_id)
                else:
                    self.ledger.fail("push")
            except httpx.HTTPError:
                self.ledger.fail("push")
                client = None
                time.sleep(0.2)
            time.sleep(0.02)


def check(ledger, app_group, bearer, widgets, timeline, activities, asset):
    problems = list(ledger.problems)
    acked = ledger.acked
    for key, value in acked.get("group", []):
        got = app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key=key), metadata=bearer, timeout=CALL)
        if got.entry.value.int_value != value:
            problems.append(f"App Group {key}: {got.entry.value.int_value} instead of {value}")
    taps = app_group.Get(intent_pb2.GetRequest(app_group=GROUP, key="taps"), metadata=bearer, timeout=CALL).entry.value.int_value
    sure, unsure = len(acked.get("tap", [])), len(acked.get("tap?", []))
    if not sure <= taps <= sure + unsure:
        problems.append(f"taps: the counter is {taps} for {sure} acknowledged taps (+{unsure} unknown)")
    placed = set(acked.get("place", []))
    shown = [w.placement_id for w in widgets.List(g.ListWidgetsRequest(), timeout=CALL).widgets]
    at_timeline = [p.placement_id for p in timeline.ListPlacements(t.ListPlacementsRequest(), timeout=CALL).placements]
    if not placed <= set(shown) or len(shown) != len(set(shown)):
        problems.append(f"placements: {len(placed - set(shown))} acknowledged ones missing at the gateway")
    if sorted(shown) != sorted(at_timeline):
        problems.append(f"placements: the gateway shows {len(shown)}, glimpse-timeline has {len(at_timeline)}")
    logged, after = {}, 0
    while True:
        page = activities.Pushes(g.PushesRequest(after_sequence=after), timeout=CALL).pushes
        if not page:
            break
        for push in page:
            logged[push.apns_id] = logged.get(push.apns_id, 0) + 1
        after = page[-1].sequence
    for apns_id in acked.get("push", []):
        if logged.get(apns_id) != 1:
            problems.append(f"push {apns_id}: {logged.get(apns_id, 0)} times in the push log")
    for name, digest in acked.get("asset", []):
        data = b"".join(part.chunk for part in asset.Get(asset_pb2.GetRequest(bundle_id=APP, name=name), timeout=CALL))
        if hashlib.sha256(data).hexdigest() != digest:
            problems.append(f"asset {name}: {len(data)} bytes read back that are not the ones put")
    return problems


def report(minutes, kill_every, ledger, kills, before, after, problems):
    print(f"soak: {minutes:g} min, a random service killed (SIGKILL) every {kill_every:g} s: {len(kills)} kills "
          + ", ".join(f"{name} {kills.count(name)}" for name in SERVICES))
    for kind in ("group", "tap", "place", "push", "asset", "get", "clock"):
        print(f"  {kind:6} acknowledged {len(ledger.acked.get(kind, [])):7d}   failed while a service was down "
              f"{ledger.failed.get(kind, 0):6d}")
    print("  process             RSS start → end (MiB)   open files start → end")
    for name in SERVICES:
        (r0, f0), (r1, f1) = before.get(name, (0, 0)), after.get(name, (0, 0))
        print(f"  {name:18} {r0:8.1f} → {r1:8.1f}        {f0:5d} → {f1:5d}")
    print("  checks: every acknowledged write there, exactly once: " + ("yes" if not problems else "NO"))
    for problem in problems[:20]:
        print(f"    {problem}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--kill-every", type=float, default=10, help="seconds between two kills")
    parser.add_argument("--bin", default=None, help="the folder with the executables (default: the release build)")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    bin_dir = args.bin or subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                                         capture_output=True, text=True).stdout.strip()
    sys.exit(run(args.minutes, bin_dir, args.kill_every, args.seed))


if __name__ == "__main__":
    main()
