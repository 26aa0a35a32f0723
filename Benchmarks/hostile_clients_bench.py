"""Hostile clients against the real executables (issue 28's probes), printing numbers:

- gateway: 100 Events.Follow streams from event 0 of a 100,000-event log, never read (10
  connections of 10): resident memory, a bystander's Device.GetSettings latency (200 calls,
  p50/p99/max), the gateway's CPU share at rest afterwards;
- glimpse-asset: 10 connections of 100 never-read Gets of a 9 MB image in 1 MiB chunks:
  resident memory, a bystander's Get, CPU share at rest;
- glimpse-intent at its fd limit (RLIMIT_NOFILE 128, 200 connections): CPU share while
  accepts fail.

Not a test: it prints, it does not judge. Run through Benchmarks/hostile-clients.sh.
"""
import argparse
import pathlib
import resource
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "Peers"))
import grpc  # noqa: E402

from glimpse_protos import glimpse_modules  # noqa: E402
from process_probes import NeverReadingClient, cpu_share, memory_kib, open_fds  # noqa: E402
from test_asset_service import png, put, register  # noqa: E402

glimpse_modules()
from glimpse.asset.v1 import asset_pb2 as a, asset_pb2_grpc  # noqa: E402
from glimpse.gateway.v1 import gateway_pb2 as g, gateway_pb2_grpc  # noqa: E402


def start(binary, *flags, preexec_fn=None):
    data = tempfile.mkdtemp()
    process = subprocess.Popen([binary, "--port", "0", "--data-dir", data, *flags], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, preexec_fn=preexec_fn)
    return process, int(process.stdout.readline().split()[-1])


def mib(kib):
    return f"{kib / 1024:.0f} MiB"


def gateway(bin_dir):
    process, port = start(f"{bin_dir}/glimpse-gateway", "--clock", "manual")
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    device = gateway_pb2_grpc.DeviceStub(channel)
    for _ in range(50):
        for call in [device.UpdateSettings.future(g.UpdateSettingsRequest(), timeout=60) for _ in range(2000)]:
            call.result()
    before = memory_kib(process.pid)[0]
    request = g.FollowEventsRequest(after_sequence=0).SerializeToString()
    clients = [NeverReadingClient(port) for _ in range(10)]
    for client in clients:
        for _ in range(10):
            client.call("/glimpse.gateway.v1.Events/Follow", request)
    latencies = []
    for _ in range(200):
        start_time = time.perf_counter()
        try:
            device.GetSettings(g.GetSettingsRequest(), timeout=60)
        except grpc.RpcError as error:
            print(f"gateway: bystander failed: {error.code()}")
            break
        latencies.append((time.perf_counter() - start_time) * 1000)
    latencies.sort()
    rss, peak = memory_kib(process.pid)
    print(f"gateway, 100 never-read followers of 100,000 events: RSS {mib(before)} -> {mib(rss)} (peak {mib(peak)})")
    if latencies:
        print(f"  bystander GetSettings: p50 {latencies[len(latencies) // 2]:.2f} ms, "
              f"p99 {latencies[int(len(latencies) * 0.99) - 1]:.2f} ms, max {latencies[-1]:.2f} ms")
    print(f"  CPU at rest: {cpu_share(process.pid, 3):.1%} of a core")
    for client in clients:
        client.close()
    process.terminate()
    process.wait()


def asset(bin_dir):
    process, port = start(f"{bin_dir}/glimpse-asset")
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    stub = asset_pb2_grpc.AssetServiceStub(channel)
    app = register(stub, "com.example.pixartracker")
    small = png(300, 200, filler=5_000)
    put(stub, "com.example.pixartracker", "posters/big", png(800, 600, filler=9_000_000), metadata=app, chunk=1 << 20)
    put(stub, "com.example.pixartracker", "posters/small", small, metadata=app)
    before = memory_kib(process.pid)[0]
    request = a.GetRequest(bundle_id="com.example.pixartracker", name="posters/big", chunk_size=1 << 20).SerializeToString()
    clients = [NeverReadingClient(port) for _ in range(10)]
    for client in clients:
        for _ in range(100):
            client.call("/glimpse.asset.v1.AssetService/Get", request, metadata=list(app))
    start_time = time.perf_counter()
    try:
        list(stub.Get(a.GetRequest(bundle_id="com.example.pixartracker", name="posters/small"), metadata=app, timeout=60))
        bystander = f"{(time.perf_counter() - start_time) * 1000:.1f} ms"
    except grpc.RpcError as error:
        bystander = f"failed: {error.code()}"
    time.sleep(2)  # what the Gets hold once they are all waiting
    rss, peak = memory_kib(process.pid)
    print(f"glimpse-asset, 1,000 never-read Gets of 9 MB: RSS {mib(before)} -> {mib(rss)} (peak {mib(peak)}); "
          f"bystander Get {bystander}; CPU at rest {cpu_share(process.pid, 3):.1%} of a core")
    for client in clients:
        client.close()
    process.terminate()
    process.wait()


def fd_limit(bin_dir):
    def low():
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))
    process, port = start(f"{bin_dir}/glimpse-intent", "--clock", "manual", preexec_fn=low)
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
    deadline = time.monotonic() + 30
    while open_fds(process.pid) < 128 and time.monotonic() < deadline:
        time.sleep(0.1)
    print(f"glimpse-intent at its fd limit (128, 200 connections): {cpu_share(process.pid, 3):.1%} of a core")
    for sock in sockets:
        sock.close()
    process.terminate()
    process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    bin_dir = parser.parse_args().bin
    gateway(bin_dir)
    asset(bin_dir)
    fd_limit(bin_dir)


if __name__ == "__main__":
    main()
