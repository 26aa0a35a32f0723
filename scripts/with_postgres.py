"""Runs a command beside a fresh PostgreSQL server (Tests/Peers/postgres_server.py: a
temporary cluster on a free loopback port), its URL in GLIMPSE_POSTGRES_URL; the server is
removed afterwards. Exits with the command's status. The test command runs `swift test` so
(PostgresJournalTests), Benchmarks/postgres-store.sh its two runs."""
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Peers"))
from postgres_server import postgres_server  # noqa: E402

with postgres_server() as server:
    environment = dict(os.environ, GLIMPSE_POSTGRES_URL=server.url())
    sys.exit(subprocess.run(sys.argv[1:], env=environment).returncode)
