"""Store bytes and start time with and without snapshots (issue 29 point 4), the real
executables (release binaries from GLIMPSE_BIN_DIR), both policies in the same run:
`--snapshot-every 0` (journal only, as the services were before snapshots) and the default.

Scenarios, each once per policy:
  - week:   the demo device (the five seed apps as glimpse-demo processes, their widgets
            placed and the pizza activity started, as Demos/device.json says) on manual
            clocks, driven through DAYS days in 15-minute `Clock.Advance` steps (the
            conductor stops at every deadline in between) with, each day, two taps on
            Pixar's widget, a flight checked in and its gate confirmed on RTL Air's widget
            (the App Group written by the taps, reset by a write in the morning), and a pizza
            delivery: ActivityKit.Request, then five APNs pushes over h2c, the last one ending it.
  - pushes: glimpse-activity alone (manual clock), one activity, PUSHES APNs pushes over h2c
            from h2load (the fastest real path: each push is journaled with its answer).

Each scenario ends with a kill -9 of every service (the store a crash leaves); the stack (or
glimpse-activity) is started again on it and must show the same state as before the kill
(widgets, their timelines and budgets, activities, the App Group, the whole push log, the
screen); then it is stopped gracefully (SIGTERM: the store a stop leaves) and started and
checked once more. For each of the two stores, each service is started alone three times on a
copy: from exec to grpc.health.v1 SERVING (p50 and range), its peak RSS then (VmHWM), and
what the start restored and replayed (its log line). Store bytes: the service's SQLite file
with its -wal and -shm (the whole data directory in the JSON lines; glimpse-asset's blob
files are content, the same under both policies).

    Benchmarks/snapshots.sh                          # a week, 1,000,000 pushes
    Benchmarks/snapshots.sh --days 2 --pushes 100000
    Benchmarks/snapshots.sh --only week --policies 0,default,1000
"""
import argparse
import datetime
import difflib
import json
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Peers"))
sys.path.insert(0, str(ROOT / "Benchmarks"))

import grpc  # noqa: E402
from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: E402

from glimpse_protos import glimpse_modules  # noqa: E402
from glimpse_stack import SERVICES, START_TIME  # noqa: E402
from snapshots_week import CALL, OffsetStack, bearer, device_state, log, push_log_digest, run_week  # noqa: E402
from test_timeline_service import Process, _binary  # noqa: E402

glimpse_modules()
from glimpse.activity.v1 import activity_pb2 as a, activity_pb2_grpc  # noqa: E402
from glimpse.app.v1 import manifest_pb2  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g  # noqa: E402

START = datetime.datetime(2026, 1, 1, 9, 0, tzinfo=datetime.timezone.utc)


def policies(text):
    """`0,default` → [(name, flags)]: 0 is journal only, `default` passes no flag, N passes N."""
    chosen = []
    for word in text.split(","):
        if word == "default":
            chosen.append(("default", []))
        else:
            chosen.append(("0 (journal only)" if int(word) == 0 else word, ["--snapshot-every", str(int(word))]))
    return chosen


def differences(before, after):
    return [key for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key)]


def explain(before, after, types):
    """The lines that differ, for each differing key whose messages' type is known."""
    for key in differences(before, after):
        message = types.get(key)
        if not message:
            continue
        def text(value):
            values = value if isinstance(value, list) else [value]
            return "\n".join(str(message.FromString(v)) for v in values).splitlines()
        diff = list(difflib.unified_diff(text(before[key]), text(after.get(key, [])), "before", "after", lineterm="", n=2))
        log(f"    {key} differ after the restart:\n      " + "\n      ".join(diff[:60]))


def settled_differences(before, read, patience=30):
    """What still differs once a restarted stack had `patience` seconds to take up its watch
    streams again (the gateway learns entries and activities through them)."""
    deadline = time.monotonic() + patience
    while True:
        changed = differences(before, read())
        if not changed or time.monotonic() > deadline:
            return changed
        time.sleep(0.2)


# ---- stores and starts ------------------------------------------------------------------

def store_figures(data_dir, service):
    """Bytes of the SQLite files (with -wal, -shm) and of the whole directory; the journal's
    counts, read from a copy (opening the file itself would checkpoint its WAL)."""
    files = [data_dir / f"{service}.sqlite{suffix}" for suffix in ("", "-wal", "-shm")]
    sqlite_bytes = sum(f.stat().st_size for f in files if f.exists())
    dir_bytes = sum(f.stat().st_size for f in data_dir.rglob("*") if f.is_file())
    with tempfile.TemporaryDirectory() as scratch:
        for f in files:
            if f.exists():
                shutil.copy(f, scratch)
        with sqlite3.connect(pathlib.Path(scratch) / f"{service}.sqlite") as db:
            left = db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
            row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'journal'").fetchone()
            snapshot = db.execute("SELECT sequence, LENGTH(state) FROM snapshots ORDER BY sequence DESC LIMIT 1").fetchone()
    return {"sqlite_bytes": sqlite_bytes, "dir_bytes": dir_bytes, "entries_left": left, "entries_written": row[0] if row else 0,
            "snapshot_at": snapshot[0] if snapshot else 0, "snapshot_bytes": snapshot[1] if snapshot else 0}


def solo_argv(service, data_dir, offset, policy_flags):
    """The service alone on port 0; its peers' addresses are this benchmark's stack ports,
    where nothing listens while it starts alone."""
    argv = [_binary(f"glimpse-{service}"), "--port", "0", "--data-dir", str(data_dir), "--clock", "manual",
            "--start-time", START_TIME, *policy_flags]
    if service == "timeline":
        argv += ["--asset-address", f"127.0.0.1:{7704 + offset}"]
    if service in ("intent", "activity"):
        argv += ["--timeline-address", f"127.0.0.1:{7701 + offset}"]
    if service == "activity":
        argv += ["--apns-auth", "none", "--apns-tls-port", "0", "--apns-h2c-port", "0"]
    return argv


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def timed_start(argv, logs):
    """exec → grpc.health.v1 SERVING, in seconds; the peak RSS then; the start's log line."""
    stderr_path = logs / "solo.stderr"
    with open(stderr_path, "w") as stderr:
        began = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=stderr, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("listening on port "), f"{argv[0]} did not start: {line!r} {stderr_path.read_text()[-2000:]}"
        port = int(line.split()[-1])
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while health.Check(health_pb2.HealthCheckRequest(), timeout=CALL, wait_for_ready=True).status != health_pb2.HealthCheckResponse.SERVING:
                time.sleep(0.001)
        elapsed = time.perf_counter() - began
        rss = peak_rss(process.pid)
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
    opening = next((line.split(" store: ", 1)[1].strip() for line in stderr_path.read_text().splitlines()
                    if " store: " in line), "?")
    return elapsed, rss, opening


def measure(service, data_dir, offset, policy_flags, work, starts):
    figures = store_figures(data_dir, service)
    times, peaks, openings = [], [], set()
    for attempt in range(starts):
        copy = work / f"start-{service}-{attempt}"
        shutil.copytree(data_dir, copy)
        elapsed, rss, opening = timed_start(solo_argv(service, copy, offset, policy_flags), work)
        shutil.rmtree(copy)
        times.append(elapsed)
        peaks.append(rss)
        openings.add(opening)
    times.sort()
    figures.update(start_p50=times[len(times) // 2], start_min=times[0], start_max=times[-1],
                   peak_rss=sorted(peaks)[len(peaks) // 2], opening=" | ".join(sorted(openings)))
    return figures


# ---- the scenarios ----------------------------------------------------------------------

def week_scenario(args, policy, flags, work):
    run_dir = work / "week"
    stack = OffsetStack(run_dir, args.port_offset, extra={service: flags for service in SERVICES})
    apps = {}
    rows = []
    try:
        log(f"  week, --snapshot-every {policy}: {args.days} days")
        apps, placements, counts = run_week(stack, args.days, run_dir)
        before = device_state(stack, apps, placements)
        for stop in ("kill -9", "SIGTERM"):
            for service in ("gateway", *SERVICES):
                if stop == "kill -9":
                    stack.kill(service)
                else:
                    assert stack.processes.pop(service).stop() == 0, f"{service} did not stop cleanly"
            for service in SERVICES:
                rows.append(dict(scenario="week", policy=policy, stop=stop, service=service, work=counts,
                                 **measure(service, run_dir / service, args.port_offset, flags, work, args.starts)))
            for service in (*SERVICES, "gateway"):
                stack.start(service)
            # A manual clock starts where its journal's last input was (or --start-time):
            # moved on to where the device was, with nothing due on the way, as the tests do.
            resumed = stack.clock.Now(g.NowRequest(), timeout=CALL).now.seconds
            if resumed < before["now"]:
                stack.clock.Set(g.SetRequest(to={"seconds": before["now"]}), timeout=CALL)
            changed = settled_differences(before, lambda: device_state(stack, apps, placements))
            if changed:
                explain(before, device_state(stack, apps, placements), {"widgets": g.Widget, "screen": g.Screen})
            for row in rows[-len(SERVICES):]:
                row.update(same_after_restart=not changed, changed=changed, clock_resumed_behind=before["now"] - resumed)
        return rows, before
    finally:
        stack.stop()
        for app in apps.values():
            app.stop()


def activity_state(stub, token, activity_id):
    auth = bearer(token)
    return {
        "activity": stub.GetActivity(a.GetActivityRequest(activity_id=activity_id), metadata=auth,
                                     timeout=CALL).SerializeToString(deterministic=True),
        "activities": stub.ListActivities(a.ListActivitiesRequest(bundle_id="com.example.pizza", include_dismissed=True),
                                          metadata=auth, timeout=CALL).SerializeToString(deterministic=True),
        "pushes": push_log_digest(lambda after: stub.ListPushes(a.ListPushesRequest(
            bundle_id="com.example.pizza", after_sequence=after, limit=1000), metadata=auth, timeout=CALL).pushes),
    }


class Activity:
    """glimpse-activity alone on a manual clock, its gRPC and h2c ports."""

    def __init__(self, data_dir, offset, flags, logs):
        argv = [_binary("glimpse-activity"), "--port", str(7703 + offset), "--data-dir", str(data_dir), "--clock", "manual",
                "--start-time", START_TIME, "--apns-auth", "none", "--apns-tls-port", "0",
                "--apns-h2c-port", str(7444 + offset), *flags]
        self.process = Process("activity", argv, logs)
        line = self.process.lines.get(timeout=CALL)
        assert line and line.startswith("apns-h2c listening on port "), line
        self.h2c = int(line.split()[-1])
        self.channel = grpc.insecure_channel(f"127.0.0.1:{self.process.port}")
        self.stub = activity_pb2_grpc.ActivityServiceStub(self.channel)

    def kill(self):
        self.channel.close()
        self.process.process.kill()
        self.process.process.wait()
        self.process.stop()

    def stop(self):
        self.channel.close()
        assert self.process.stop() == 0, "glimpse-activity did not stop cleanly"


def pushes_scenario(args, policy, flags, work):
    data_dir = work / "activity"
    service = Activity(data_dir, args.port_offset, flags, work)
    stub = service.stub
    token = stub.InstallApp(a.InstallAppRequest(manifest=manifest_pb2.AppManifest(
        bundle_id="com.example.pizza", activity_attributes=[manifest_pb2.ActivityAttributesDeclaration(type_name="Pizza")],
        supports_frequent_updates=True)), timeout=CALL).app_token
    activity = stub.Request(a.RequestActivityRequest(
        bundle_id="com.example.pizza", attributes_type="Pizza", content=a.Content(state_json='{"n":0}'), token=True),
        metadata=bearer(token), timeout=CALL).activity
    while not activity.push_token:
        time.sleep(0.01)
        activity = stub.GetActivity(a.GetActivityRequest(activity_id=activity.activity_id), metadata=bearer(token), timeout=CALL)
    body = work / "push.json"
    body.write_text(json.dumps({"aps": {"timestamp": int(START.timestamp()), "event": "update", "content-state": {"n": 1}}}))
    log(f"  pushes, --snapshot-every {policy}: {args.pushes:,} through h2load")
    began = time.monotonic()
    h2load = subprocess.run(
        ["h2load", "-c", "4", "-m", "32", "-t", "1", "-n", str(args.pushes), "-d", str(body),
         "-H", "apns-push-type: liveactivity", "-H", "apns-topic: com.example.pizza.push-type.liveactivity",
         "-H", "apns-priority: 5", f"http://127.0.0.1:{service.h2c}/3/device/{activity.push_token}"],
        capture_output=True, text=True, check=True)
    seconds = time.monotonic() - began
    succeeded = next(line for line in h2load.stdout.splitlines() if line.startswith("requests:"))
    codes = next(line for line in h2load.stdout.splitlines() if line.startswith("status codes:"))
    counts = {"pushes": args.pushes, "seconds": round(seconds, 1), "h2load": f"{succeeded.strip()}; {codes.strip()}"}
    before = activity_state(stub, token, activity.activity_id)
    rows = []
    for stop in ("kill -9", "SIGTERM"):
        if stop == "kill -9":
            service.kill()
        else:
            service.stop()
        rows.append(dict(scenario="pushes", policy=policy, stop=stop, service="activity", work=counts,
                         **measure("activity", data_dir, args.port_offset, flags, work, args.starts)))
        service = Activity(data_dir, args.port_offset, flags, work)
        changed = differences(before, activity_state(service.stub, token, activity.activity_id))
        rows[-1].update(same_after_restart=not changed, changed=changed)
    service.stop()
    return rows, before


# ---- the table ---------------------------------------------------------------------------

def mib(n):
    return f"{n / 1048576:.1f} MiB" if n >= 1048576 else f"{n / 1024:.0f} KiB"


def print_table(rows):
    print("| scenario | --snapshot-every | stop | service | journal entries left / written | snapshot | store (SQLite + WAL) "
          "| start → SERVING p50 (min–max) | peak RSS at start | the start | same state after restart |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        snapshot = f"at {r['snapshot_at']:,}, {mib(r['snapshot_bytes'])}" if r["snapshot_at"] else "none"
        print(f"| {r['scenario']} | {r['policy']} | {r['stop']} | {r['service']} | {r['entries_left']:,} / {r['entries_written']:,} "
              f"| {snapshot} | {mib(r['sqlite_bytes'])} | {r['start_p50'] * 1000:.0f} ms ({r['start_min'] * 1000:.0f}–"
              f"{r['start_max'] * 1000:.0f}) | {mib(r['peak_rss'])} | {r['opening']} | "
              f"{'yes' if r['same_after_restart'] else 'NO: ' + ', '.join(r['changed'])} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--pushes", type=int, default=1_000_000)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--port-offset", type=int, default=int(os.environ.get("PORT_OFFSET", "23000")))
    parser.add_argument("--only", choices=("week", "pushes"))
    parser.add_argument("--policies", type=policies, default=policies("0,default"),
                        help="--snapshot-every values to compare, comma-separated (default: 0,default)")
    parser.add_argument("--json", help="also write every row as JSON lines here")
    args = parser.parse_args()
    rows, finals = [], {}
    with tempfile.TemporaryDirectory(prefix="glimpse-snapshots-") as scratch:
        for scenario in ("week", "pushes"):
            if args.only and scenario != args.only:
                continue
            for policy, flags in args.policies:
                work = pathlib.Path(scratch) / f"{scenario}-{policy.split()[0]}"
                work.mkdir()
                run = week_scenario if scenario == "week" else pushes_scenario
                scenario_rows, final = run(args, policy, flags, work)
                rows += scenario_rows
                finals.setdefault(scenario, []).append(final)
                shutil.rmtree(work)
    for scenario, states in finals.items():
        if scenario == "week" and len(states) > 1:
            # The push logs differ: an apns-id the push server leaves out is a new random UUID.
            changed = sorted({key for other in states[1:] for key in differences(states[0], other) if key != "pushes"})
            print(f"{scenario}: both policies end in the same state (push log aside): "
                  f"{'yes' if not changed else 'NO: ' + ', '.join(changed)}")
    for r in rows:
        if r["stop"] == "kill -9" and r["service"] in ("timeline", "activity") and \
                (r["scenario"] == "pushes") == (r["service"] == "activity"):
            print(f"{r['scenario']}, --snapshot-every {r['policy']}: {json.dumps(r['work'])}")
    print_table(rows)
    if args.json:
        with open(args.json, "w") as out:
            for r in rows:
                out.write(json.dumps(r) + "\n")
    if not all(r["same_after_restart"] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
