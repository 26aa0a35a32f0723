"""Runs a command beside a fresh PostgreSQL server (Tests/Peers/postgres_server.py: a
temporary cluster on a free loopback port), its URL in GLIMPSE_BENCH_POSTGRES; the server is
removed afterwards. Exits with the command's status."""
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Peers"))
from postgres_server import postgres_server  # noqa: E402

with postgres_server() as server:
    environment = dict(os.environ, GLIMPSE_BENCH_POSTGRES=server.url())
    sys.exit(subprocess.run(sys.argv[1:], env=environment).returncode)
