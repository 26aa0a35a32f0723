"""A service's journal in PostgreSQL (`--store postgres://…`), against a real server the test
starts (postgres_server.py), with the real executables:

- two glimpse-timeline replicas on one store: the second waits as a standby (no port) while
  the first holds the lease; the first is killed with SIGKILL while a client is placing
  widgets; the standby takes over, and every placement the client was answered for (the ack
  ledger) is there, with the app's token, after snapshots and compaction in PostgreSQL; new
  placements never reuse an acknowledged id;
- two glimpse-activity replicas: the active killed while four APNs clients push over h2c;
  every push answered 200 (its apns-id in the ledger) is in the standby's push log;
- an active whose session the server ends (pg_terminate_backend) writes nothing more: the
  next write is refused UNAVAILABLE and the process exits by itself, the lease gone with the session;
- a replica started before its database waits for it, and serves once it is up;
- a --store that is no PostgreSQL URL is refused, naming the flag, its password not echoed.
"""
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import grpc
import httpx
import pytest

from postgres_server import _free_port, postgres_server
from test_timeline_service import PEERS, PIXAR, RPC_TIMEOUT, STARTUP_TIMEOUT, Process, _binary, _bearer, _manifest
from test_stack_up import _glimpse, _ports_free, _run
from test_asset_service import get, png, put, register, sha
from test_activity_service import TOPIC, Activity, install, live_payload, request_activity, team_key  # noqa: F401
from glimpse.activity.v1 import activity_pb2 as a  # noqa: E402
from glimpse.asset.v1 import asset_pb2, asset_pb2_grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402
from glimpse.timeline.v1 import timeline_pb2 as service_pb2, timeline_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import family_pb2  # noqa: E402

FAMILIES = [family_pb2.WIDGET_FAMILY_SYSTEM_SMALL, family_pb2.WIDGET_FAMILY_SYSTEM_MEDIUM,
            family_pb2.WIDGET_FAMILY_ACCESSORY_CIRCULAR]


@pytest.fixture(scope="module")
def postgres():
    with postgres_server() as server:
        yield server


def _replica(tmp_path, name, url, port=0):
    return Process(name, [
        _binary("glimpse-timeline"), "--port", str(port), "--data-dir", str(tmp_path / name), "--clock", "manual",
        "--start-time", "2026-01-01T09:00:00Z", "--store", url, "--snapshot-every", "25"], tmp_path)


def _wait_for_text(path, text):
    deadline = time.monotonic() + STARTUP_TIMEOUT
    said = ""
    while text not in said:
        assert time.monotonic() < deadline, f"{path.name} never said {text!r}:\n{said[-3000:]}"
        said = path.read_text(errors="replace") if path.exists() else ""
        time.sleep(0.05)


def test_a_standby_takes_over_from_a_killed_active_and_no_acknowledged_write_is_lost(tmp_path, postgres):
    provider = Process("provider", [sys.executable, str(PEERS / "pixar_provider.py"), "--port", "0"], tmp_path)
    replicas = []
    try:
        active = _replica(tmp_path, "active", postgres.url())
        replicas.append(active)
        channel = grpc.insecure_channel(f"127.0.0.1:{active.port}")
        stub = timeline_pb2_grpc.TimelineServiceStub(channel)
        manifest = _manifest(PIXAR, "PixarFilmWidget", FAMILIES, f"127.0.0.1:{provider.port}")
        token = stub.InstallApp(service_pb2.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token

        # The standby: started on the same store, it waits for the lease and opens no port.
        standby_box = {}
        standby_thread = threading.Thread(
            target=lambda: standby_box.setdefault("process", _replica(tmp_path, "standby", postgres.url())),
            daemon=True)
        standby_thread.start()
        _wait_for_text(tmp_path / "standby.stderr", "standby: another replica holds glimpse-timeline's lease")
        assert "process" not in standby_box

        ledger = []  # every placement the active answered for
        failures = []

        def place_until_refused():
            for i in range(10_000):
                try:
                    placed = stub.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget",
                                                                 family=FAMILIES[i % 3]), timeout=RPC_TIMEOUT)
                except grpc.RpcError as error:
                    failures.append(error.code())
                    return
                ledger.append(placed.placement.placement_id)

        writer = threading.Thread(target=place_until_refused, daemon=True)
        writer.start()
        while len(ledger) < 120:  # past several snapshots (every 25 inputs), then mid-write
            assert writer.is_alive(), f"the writer stopped early: {failures}"
            time.sleep(0.01)
        active.process.kill()
        killed = time.monotonic()
        active.process.wait(timeout=RPC_TIMEOUT)
        writer.join(timeout=RPC_TIMEOUT)
        assert not writer.is_alive() and failures, "writes went on after the active was killed"
        channel.close()

        standby_thread.join(timeout=STARTUP_TIMEOUT)
        assert "process" in standby_box, "the standby did not take over"
        standby = standby_box["process"]
        replicas.append(standby)
        print(f"standby serving {time.monotonic() - killed:.2f} s after the SIGKILL; {len(ledger)} acknowledged")
        assert "glimpse-timeline's lease taken" in standby.stderr()

        with grpc.insecure_channel(f"127.0.0.1:{standby.port}") as channel:
            stub = timeline_pb2_grpc.TimelineServiceStub(channel)
            listed = stub.ListPlacements(service_pb2.ListPlacementsRequest(bundle_id=PIXAR),
                                         metadata=_bearer(token), timeout=RPC_TIMEOUT).placements
            kept = {p.placement_id for p in listed}
            lost = [p for p in ledger if p not in kept]
            assert not lost, f"{len(lost)} acknowledged placements lost: {lost[:10]}"
            new = stub.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget", family=FAMILIES[0]),
                             timeout=RPC_TIMEOUT).placement.placement_id
            assert new not in ledger
        # The snapshots went to PostgreSQL, and compaction with them.
        assert postgres.sql("SELECT COUNT(*) FROM glimpse_timeline_snapshots") == ["1"]
        snapshot = int(postgres.sql("SELECT sequence FROM glimpse_timeline_snapshots")[0])
        assert snapshot > 0
        assert postgres.sql(f"SELECT COUNT(*) FROM glimpse_timeline_journal WHERE sequence <= {snapshot}") == ["0"]
    finally:
        for replica in replicas:
            replica.stop()
        provider.stop()


def _health(port, service):
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        request = health_pb2.HealthCheckRequest(service=service)
        status = health_pb2_grpc.HealthStub(channel).Check(request, timeout=RPC_TIMEOUT).status
        return health_pb2.HealthCheckResponse.ServingStatus.Name(status)


def test_a_standbys_port_answers_health_not_serving_but_alive_and_serves_once_it_takes_over(tmp_path, postgres):
    # What Kubernetes' probes see (deploy/k8s/postgres): readiness asks for the server (""),
    # liveness for "liveness".
    postgres.sql("CREATE DATABASE probes")  # a store of its own
    url = postgres.url("probes")
    replicas = []
    try:
        active = _replica(tmp_path, "active", url)
        replicas.append(active)
        assert _health(active.port, "") == "SERVING"
        assert _health(active.port, "liveness") == "SERVING"
        with grpc.insecure_channel(f"127.0.0.1:{active.port}") as channel:
            manifest = _manifest(PIXAR, "PixarFilmWidget", FAMILIES, "127.0.0.1:9")
            token = timeline_pb2_grpc.TimelineServiceStub(channel).InstallApp(
                service_pb2.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token

        port = _free_port()
        standby_box = {}
        standby_thread = threading.Thread(
            target=lambda: standby_box.setdefault("process", _replica(tmp_path, "standby", url, port)),
            daemon=True)
        standby_thread.start()
        _wait_for_text(tmp_path / "standby.stderr", f"standby: port {port} answers health")
        assert _health(port, "") == "NOT_SERVING"
        assert _health(port, "glimpse.timeline.v1.TimelineService") == "NOT_SERVING"
        assert _health(port, "liveness") == "SERVING"
        # No call reaches a standby: it serves health alone, and answers its service's calls
        # UNAVAILABLE (retried by clients), any other UNIMPLEMENTED.
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            with pytest.raises(grpc.RpcError) as refused:
                timeline_pb2_grpc.TimelineServiceStub(channel).ListPlacements(
                    service_pb2.ListPlacementsRequest(bundle_id=PIXAR), metadata=_bearer(token), timeout=RPC_TIMEOUT)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "standby" in refused.value.details()
            unknown = channel.unary_unary("/glimpse.nothing.v1.Nothing/Call")
            with pytest.raises(grpc.RpcError) as refused:
                unknown(b"", timeout=RPC_TIMEOUT)
            assert refused.value.code() == grpc.StatusCode.UNIMPLEMENTED
        assert "process" not in standby_box

        # The active stops (a rolling update): the standby takes the lease and serves on its port.
        assert active.stop() == 0
        standby_thread.join(timeout=STARTUP_TIMEOUT)
        assert "process" in standby_box, "the standby did not take over"
        standby = standby_box["process"]
        replicas.append(standby)
        assert standby.port == port
        assert _health(port, "") == "SERVING"
        assert _health(port, "liveness") == "SERVING"
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:  # the app installed on the active
            timeline_pb2_grpc.TimelineServiceStub(channel).ListPlacements(
                service_pb2.ListPlacementsRequest(bundle_id=PIXAR), metadata=_bearer(token), timeout=RPC_TIMEOUT)
    finally:
        for replica in replicas:
            replica.stop()


@pytest.mark.skipif(os.geteuid() != 0, reason="a PID namespace needs root")
def test_a_standby_that_is_pid_1_of_its_container_stops_when_told(tmp_path, postgres):
    # In a container the service is PID 1, and the kernel drops a signal PID 1 has no handler
    # for: a standby must handle SIGTERM itself, or Kubernetes waits its grace period and kills.
    postgres.sql("CREATE DATABASE pid1")
    url = postgres.url("pid1")
    active = _replica(tmp_path, "active", url)
    try:
        with open(tmp_path / "standby.stderr", "w") as stderr:
            wrapper = subprocess.Popen(
                ["unshare", "--pid", "--fork", _binary("glimpse-timeline"), "--port", "0", "--data-dir",
                 str(tmp_path / "standby"), "--store", url], stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            _wait_for_text(tmp_path / "standby.stderr", "standby: another replica holds glimpse-timeline's lease")
            children = pathlib.Path(f"/proc/{wrapper.pid}/task/{wrapper.pid}/children").read_text().split()
            os.kill(int(children[0]), signal.SIGTERM)  # PID 1 of its namespace
            assert wrapper.wait(timeout=RPC_TIMEOUT) == 0, (tmp_path / "standby.stderr").read_text()[-2000:]
        finally:
            if wrapper.poll() is None:
                wrapper.kill()
                wrapper.wait()
    finally:
        active.stop()


def test_pushes_acknowledged_by_a_killed_active_are_all_on_the_standby(tmp_path, postgres, team_key):
    postgres.sql("CREATE DATABASE pushes")
    argv = ["--apns-auth", "none", "--store", postgres.url("pushes")]
    key_path, _ = team_key
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    active = Activity(tmp_path / "a", key_path, tls=False, extra=argv)
    replicas = [active]
    try:
        token = install(active)
        activity = request_activity(active, token)
        standby_box = {}
        standby_thread = threading.Thread(
            target=lambda: standby_box.setdefault(
                "service", Activity(tmp_path / "b", key_path, name="standby", tls=False, extra=argv)), daemon=True)
        standby_thread.start()
        _wait_for_text(tmp_path / "b" / "standby.stderr", "standby: another replica holds glimpse-activity's lease")

        ledger, lock, stop = [], threading.Lock(), threading.Event()
        url = f"http://127.0.0.1:{active.ports['apns-h2c']}/3/device/{activity.push_token}"

        def push(worker):
            with httpx.Client(http1=False, http2=True, timeout=RPC_TIMEOUT) as client:
                for i in range(100_000):
                    if stop.is_set():
                        return
                    try:
                        answer = client.post(url, json=live_payload("update", worker * 100_000 + i), headers={
                            "apns-topic": TOPIC, "apns-push-type": "liveactivity"})
                    except httpx.HTTPError:
                        return
                    if answer.status_code == 200:
                        with lock:
                            ledger.append(answer.headers["apns-id"])

        pushers = [threading.Thread(target=push, args=(w,), daemon=True) for w in range(4)]
        for pusher in pushers:
            pusher.start()
        while len(ledger) < 400:
            assert any(p.is_alive() for p in pushers), "the pushers stopped early"
            time.sleep(0.01)
        active.kill()
        stop.set()
        for pusher in pushers:
            pusher.join(timeout=RPC_TIMEOUT)
        acknowledged = set(ledger)

        standby_thread.join(timeout=STARTUP_TIMEOUT)
        assert "service" in standby_box, "the standby did not take over"
        standby = standby_box["service"]
        replicas.append(standby)
        logged, after = set(), 0
        while page := standby.stub.ListPushes(a.ListPushesRequest(after_sequence=after), timeout=RPC_TIMEOUT).pushes:
            logged |= {p.apns_id for p in page}
            after = page[-1].sequence
        lost = acknowledged - logged
        assert not lost, f"{len(lost)} of {len(acknowledged)} acknowledged pushes lost"
        print(f"{len(acknowledged)} pushes acknowledged before the SIGKILL, all on the standby")
    finally:
        for replica in replicas:
            if replica.process.process.poll() is None:
                replica.stop()


def test_an_active_whose_session_ends_writes_nothing_more_and_exits(tmp_path, postgres):
    postgres.sql("CREATE DATABASE fenced")  # a store of its own
    active = _replica(tmp_path, "fenced", postgres.url("fenced"))
    try:
        with grpc.insecure_channel(f"127.0.0.1:{active.port}") as channel:
            stub = timeline_pb2_grpc.TimelineServiceStub(channel)
            manifest = _manifest(PIXAR, "PixarFilmWidget", FAMILIES, "127.0.0.1:1")
            stub.InstallApp(service_pb2.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT)
            ended = postgres.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                 "WHERE datname = 'fenced'")
            assert ended and all(row == "t" for row in ended)
            with pytest.raises(grpc.RpcError) as refused:
                stub.Place(service_pb2.PlaceRequest(bundle_id=PIXAR, kind="PixarFilmWidget", family=FAMILIES[0]),
                           timeout=RPC_TIMEOUT)
            # Retryable: the process restarts on its journal, or a standby takes over.
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, refused.value
        assert active.process.wait(timeout=RPC_TIMEOUT) != 0
        assert "the session ended" in active.stderr()
    finally:
        active.stop()


def test_a_replica_started_before_its_database_waits_for_it(tmp_path):
    port = _free_port()
    box = {}
    url = f"postgres://glimpse@127.0.0.1:{port}/postgres"  # a database every new cluster has
    starting = threading.Thread(target=lambda: box.setdefault("process", _replica(tmp_path, "early", url)),
                                daemon=True)
    starting.start()
    _wait_for_text(tmp_path / "early.stderr", "cannot be reached")
    with postgres_server(port):
        starting.join(timeout=STARTUP_TIMEOUT)
        assert "process" in box, "the replica did not start once its database was up"
        early = box["process"]
        try:
            with grpc.insecure_channel(f"127.0.0.1:{early.port}") as channel:
                stub = timeline_pb2_grpc.TimelineServiceStub(channel)
                manifest = _manifest(PIXAR, "PixarFilmWidget", FAMILIES, "127.0.0.1:1")
                assert stub.InstallApp(service_pb2.InstallAppRequest(manifest=manifest), timeout=RPC_TIMEOUT).app_token
        finally:
            early.stop()


def test_a_store_that_is_no_postgres_url_is_refused_naming_the_flag(tmp_path):
    for url, said in [("mysql://u:secret@h/db", "not a postgres://"), ("postgres://u:secret@h", "no database"),
                      ("postgres://u:secret@h/db?sslmode=maybe", "sslmode=maybe")]:
        done = subprocess.run([_binary("glimpse-timeline"), "--port", "0", "--data-dir", str(tmp_path / "t"),
                               "--store", url], capture_output=True, text=True, timeout=RPC_TIMEOUT)
        assert done.returncode != 0
        assert "--store" in done.stderr and said in done.stderr, done.stderr
        assert "secret" not in done.stderr + done.stdout


def test_a_local_stack_keeps_its_journals_in_postgresql_with_store(tmp_path, postgres):
    glimpse = _glimpse()
    offset = next((o for o in range(11000, 24000, 1000) if _ports_free(o)), None)
    if offset is None:
        pytest.skip("no free block of ports below the ephemeral range")
    postgres.sql("CREATE DATABASE stack")
    url = postgres.url("stack")
    password = url.split(":")[2].split("@")[0]
    directory = tmp_path / "stack"
    up = ["up", "--detach", "--dir", str(directory), "--port-offset", str(offset), "--manual", "2026-06-01T09:00:00Z"]
    env = dict(os.environ, GLIMPSE_GATEWAY=f"127.0.0.1:{7700 + offset}")

    def home():
        drawn = subprocess.run([str(glimpse), "render", "home"], env=env, capture_output=True, text=True, timeout=60)
        assert drawn.returncode == 0, drawn.stderr
        return drawn.stdout

    store_file = tmp_path / "store-url"
    store_file.write_text(url + "\n")
    store_file.chmod(0o600)
    started = _run(glimpse, *up, "--store-file", str(store_file))
    try:
        assert started.returncode == 0, started.stderr
        assert "Coco" in home()
        record = json.loads((directory / "stack.json").read_text())
        for process in record["processes"] + [{"name": "supervisor", "pid": record["supervisor"]}]:
            # The URL, password and all, reaches the services in their environment only.
            with open(f"/proc/{process['pid']}/cmdline", "rb") as cmdline:
                assert password.encode() not in cmdline.read(), process["name"]
        for service in ("timeline", "intent", "activity", "asset"):
            assert not list((directory / service).glob("*.sqlite")), f"{service} wrote SQLite"
            rows = int(postgres.sql(f"SELECT COUNT(*) FROM glimpse_{service}_journal", database="stack")[0])
            print(service, rows, "journal rows in PostgreSQL")
            assert rows > 0, service
    finally:
        down = _run(glimpse, "down", "--dir", str(directory))
    assert down.returncode == 0, down.stderr

    # Started again on the same store: the widgets are those of the journal in PostgreSQL.
    again = _run(glimpse, *up, "--store", url)
    try:
        assert again.returncode == 0, again.stderr
        assert "Coco" in home()
    finally:
        _run(glimpse, "down", "--dir", str(directory))


def test_asset_replicas_share_the_blob_files_and_every_acknowledged_put_is_on_the_standby(tmp_path, postgres):
    # glimpse-asset's journal is in PostgreSQL and its blob files in the data directory the
    # replicas share; the standby reconciles what the killed active left half written.
    postgres.sql("CREATE DATABASE assets")
    url = postgres.url("assets")

    def replica(name):
        return Process(name, [_binary("glimpse-asset"), "--port", "0", "--data-dir", str(tmp_path / "shared"),
                              "--store", url, "--snapshot-every", "10"], tmp_path)

    replicas = [replica("active")]
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{replicas[0].port}")
        stub = asset_pb2_grpc.AssetServiceStub(channel)
        token = register(stub, PIXAR)
        standby_box = {}
        standby_thread = threading.Thread(target=lambda: standby_box.setdefault("process", replica("standby")),
                                          daemon=True)
        standby_thread.start()
        _wait_for_text(tmp_path / "standby.stderr", "standby: another replica holds glimpse-asset's lease")

        ledger = {}  # name → the bytes the active acknowledged
        failures = []

        def put_until_refused():
            for i in range(10_000):
                data = png(40, 30, filler=2000, seed=i)
                try:
                    put(stub, PIXAR, f"frames/{i}", data, metadata=token, chunk=700)
                except grpc.RpcError as error:
                    failures.append(error.code())
                    return
                ledger[f"frames/{i}"] = data

        writer = threading.Thread(target=put_until_refused, daemon=True)
        writer.start()
        while len(ledger) < 40:  # past several snapshots (every 10 inputs), then mid-put
            assert writer.is_alive(), f"the writer stopped early: {failures}"
            time.sleep(0.01)
        replicas[0].process.kill()
        replicas[0].process.wait(timeout=RPC_TIMEOUT)
        writer.join(timeout=RPC_TIMEOUT)
        assert not writer.is_alive() and failures, "puts went on after the active was killed"
        channel.close()

        standby_thread.join(timeout=STARTUP_TIMEOUT)
        assert "process" in standby_box, "the standby did not take over"
        replicas.append(standby_box["process"])
        with grpc.insecure_channel(f"127.0.0.1:{replicas[1].port}") as channel:
            stub = asset_pb2_grpc.AssetServiceStub(channel)
            for name, data in ledger.items():
                header, got = get(stub, PIXAR, name, metadata=token)
                assert got == data, f"{name}: acknowledged, not the same bytes on the standby"
                assert header.asset.sha256 == sha(data)
            listed = stub.List(asset_pb2.ListRequest(bundle_id=PIXAR), metadata=token, timeout=RPC_TIMEOUT).assets
            assert {x.name for x in listed} >= set(ledger)
        assert not os.listdir(tmp_path / "shared" / "staging"), "the dead active's staging was left"
        assert not list((tmp_path / "shared").glob("*.sqlite")), "the journal went to SQLite"
    finally:
        for process in replicas:
            process.stop()
