"""grpc.testing Python modules, generated at run time from the grpc-proto package's .proto
files (never copied into the repository) with grpcio-tools."""
import os
import subprocess
import sys
import tempfile

GRPC_PROTO = "/usr/share/grpc-proto"
_loaded = None


def modules():
    """(messages_pb2, empty_pb2, test_pb2_grpc), generated once per process."""
    global _loaded
    if _loaded:
        return _loaded
    out = tempfile.mkdtemp(prefix="glimpse-grpc-testing-")
    files = ["grpc/testing/empty.proto", "grpc/testing/messages.proto", "grpc/testing/test.proto",
             "grpc/reflection/v1/reflection.proto"]
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{GRPC_PROTO}",
         f"--python_out={out}", f"--grpc_python_out={out}", *files],
        check=True)
    # The generated modules live under `grpc.testing`, inside the installed grpcio's own
    # `grpc` package: add the output folder to that package's search path.
    import grpc
    grpc.__path__.append(os.path.join(out, "grpc"))
    from grpc.testing import empty_pb2, messages_pb2, test_pb2_grpc  # noqa: E402
    _loaded = (messages_pb2, empty_pb2, test_pb2_grpc)
    return _loaded


def reflection_v1():
    """(reflection_pb2, reflection_pb2_grpc) of grpc.reflection.v1 (grpcio-reflection
    ships only a v1alpha client)."""
    modules()
    # grpcio aliases `grpc.reflection` to the grpcio-reflection package (which has only
    # v1alpha); the generated v1 modules join that package's search path.
    import grpc
    import grpc_reflection
    generated = os.path.join(grpc.__path__[-1], "reflection")
    if generated not in grpc_reflection.__path__:
        grpc_reflection.__path__.append(generated)
    from grpc.reflection.v1 import reflection_pb2, reflection_pb2_grpc  # noqa: E402
    return reflection_pb2, reflection_pb2_grpc


def swift_bin_path() -> str:
    """Where `swift build` put the executables (debug unless GLIMPSE_CONFIGURATION says)."""
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    config = os.environ.get("GLIMPSE_CONFIGURATION", "debug")
    done = subprocess.run(["swift", "build", "-c", config, "--show-bin-path"], cwd=root,
                          check=True, capture_output=True, text=True)
    return done.stdout.strip()
