"""What a test may read about a running process from /proc: its memory and its CPU time.

Bounds, never timings: an RSS under a limit, CPU seconds used over an interval under a
share of it (a process that spins uses all of it, however busy the machine).
"""
import os
import socket
import time

import h2.config
import h2.connection

TICKS = os.sysconf("SC_CLK_TCK")


def memory_kib(pid):
    """(VmRSS, VmHWM): resident now and at its peak, in KiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            fields[name] = value.split()
    return int(fields["VmRSS"][0]), int(fields["VmHWM"][0])


def cpu_seconds(pid):
    """User plus system CPU time the process has used."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def cpu_share(pid, seconds=2.0):
    """The share of one core the process used over (at least) `seconds` of wall time."""
    start_cpu, start = cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    return (cpu_seconds(pid) - start_cpu) / (time.monotonic() - start)


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def grpc_frame(message):
    return b"\x00" + len(message).to_bytes(4, "big") + message


class NeverReadingClient:
    """An HTTP/2 connection that opens gRPC calls and never reads a byte of the answers:
    the hostile client a server must bound itself against (its flow-control windows stay
    at their initial size, the socket's buffers fill, and that is all it takes)."""

    def __init__(self, port, settings=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.conn.initiate_connection()
        if settings:
            self.conn.update_settings(settings)
        self.sock.sendall(self.conn.data_to_send())

    def call(self, path, message, metadata=()):
        stream = self.conn.get_next_available_stream_id()
        self.conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", path),
                                        (":authority", "localhost"), ("content-type", "application/grpc"),
                                        ("te", "trailers"), *metadata])
        self.conn.send_data(stream, grpc_frame(message), end_stream=True)
        self.sock.sendall(self.conn.data_to_send())
        return stream

    def close(self):
        self.sock.close()
