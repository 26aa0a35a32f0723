"""A real PostgreSQL server for a test: Debian's `postgresql` package (scripts/bootstrap.sh
installs it), a fresh cluster in a temporary folder on a free loopback port, trust
authentication for the user `glimpse`, stopped and removed afterwards. As root the server
runs as the `postgres` user (PostgreSQL refuses root)."""
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time

READY_TIMEOUT = 120  # seconds for a new cluster to accept connections


def _bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise RuntimeError(f"no PostgreSQL {name} under /usr/lib/postgresql (scripts/bootstrap.sh installs postgresql)")
    return found[-1]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_server_user(argv):
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Postgres:
    def __init__(self, folder, port, process):
        self.folder = folder
        self.port = port
        self.process = process

    def url(self, database="glimpse"):
        return f"postgres://glimpse@127.0.0.1:{self.port}/{database}"

    def sql(self, statement, database="glimpse"):
        """Runs one statement with psql; returns its rows as text lines."""
        done = subprocess.run([_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "glimpse", "-d", database,
                               "-At", "-v", "ON_ERROR_STOP=1", "-c", statement],
                              capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"psql {statement!r}: {done.stderr}")
        return done.stdout.splitlines()


@contextlib.contextmanager
def postgres_server(port=None):
    """A fresh server, on `port` or a free one."""
    folder = tempfile.mkdtemp(prefix="glimpse-pg-")
    data = os.path.join(folder, "data")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    port = port or _free_port()
    subprocess.run(_as_server_user([_bin("initdb"), "-D", data, "-U", "glimpse", "--auth=trust", "-E", "UTF8",
                                    "--locale=C.UTF-8"]),
                   check=True, capture_output=True, timeout=300)
    log = open(os.path.join(folder, "server.log"), "w")
    process = subprocess.Popen(_as_server_user([_bin("postgres"), "-D", data, "-p", str(port), "-k", folder,
                                                "-c", "listen_addresses=127.0.0.1"]),
                               stdout=log, stderr=subprocess.STDOUT)
    server = Postgres(folder, port, process)
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        while subprocess.run([_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                             capture_output=True).returncode != 0:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"PostgreSQL did not start:\n{open(log.name).read()[-3000:]}")
            time.sleep(0.1)
        server.sql("CREATE DATABASE glimpse", database="postgres")
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
