"""Python modules of Glimpse's own contract, generated at run time from Proto/ with
grpcio-tools (never copied into the repository). The well-known types they import are
read from where Debian installs them (/usr/include); their Python modules are the
protobuf package's own.

    from glimpse_protos import glimpse_modules
    glimpse_modules()                       # once; then the packages import as usual
    from glimpse.widget.v1 import view_pb2
"""
import atexit
import pathlib
import shutil
import subprocess
import sys
import tempfile

PROTO = pathlib.Path(__file__).resolve().parents[2] / "Proto"
WELL_KNOWN = "/usr/include"
_out = None


def glimpse_modules() -> str:
    """Generates every glimpse/**/*.proto (messages and grpc stubs) once per process into
    a temporary folder, puts that folder on sys.path, and returns it."""
    global _out
    if _out:
        return _out
    out = tempfile.mkdtemp(prefix="glimpse-protos-")
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    files = sorted(str(p.relative_to(PROTO)) for p in (PROTO / "glimpse").rglob("*.proto"))
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO}", f"-I{WELL_KNOWN}",
         f"--python_out={out}", f"--grpc_python_out={out}", *files],
        check=True)
    sys.path.insert(0, out)
    _out = out
    return out
