#!/usr/bin/env bash
# Installs what Glimpse needs on a fresh Debian/Ubuntu machine (as root), skipping
# what is already there. Safe to run again. Swift itself is expected at /opt/swift or
# on PATH (the toolchain is not an apt package).
set -euo pipefail

APT_PACKAGES=(
    pkg-config
    libnghttp2-dev libprotobuf-c-dev        # the C libraries behind the wire
    protobuf-c-compiler protobuf-compiler   # protoc-c and protoc, for Proto/generate.sh
    libprotobuf-dev                         # the well-known types (google/protobuf/*.proto) protoc compiles against
    grpc-proto                              # upstream health/reflection/testing .proto files
    nghttp2-client nghttp2-server           # h2load and nghttpd, for the benchmarks; nghttp, for the HTTP/2 server tests
    curl                                    # an HTTP/2 client (h2c and TLS) for the HTTP/2 server tests
    libsqlite3-dev
    librsvg2-bin fonts-liberation2 fonts-dejavu-core  # rsvg-convert for PNGs of the rendered SVGs; Liberation Sans has Helvetica's metrics, which the layout measures with
    fonts-noto-color-emoji                  # the apps' emoji (a pizza, a lightning bolt) in PNGs and in the web page, not boxes of hex digits
    bootstrap-icons                         # SF Symbols drawn as recognisable glyphs (Bootstrap Icons, MIT; Sources/Domain/Rendering/SymbolGlyphs.swift)
    chromium chromium-driver                # headless Chromium and its WebDriver: Tests/Peers/test_web_page.py and Benchmarks/web.sh drive the gateway's web page
    postgresql                              # a real PostgreSQL server for Tests/Peers/test_postgres_store.py (--store postgres://…), started by the test itself
    valgrind binutils                       # callgrind and objcopy: Benchmarks/instructions.sh counts instructions per operation (run by the test command)
    # deploy/smoke.sh (run by the test command): compose for real under rootful podman, as
    # ../shared/design/containers-notes.md says; debootstrap makes the image's base.
    podman runc conmon netavark aardvark-dns iptables catatonit debootstrap docker-compose
)
PIP_PACKAGES=(
    "protobuf>=5"               # stock protobuf, for cross-checks and golden files
    # grpcio-tools exactly: Proto/generate.sh writes the Python SDK's stubs with it (its
    # version is in them; another would be drift)
    "grpcio>=1.85.1" "grpcio-tools==1.85.1" "grpcio-health-checking>=1.60" "grpcio-reflection>=1.60"
    "grpcio-status>=1.60"       # rpc_status.from_call: the typed refusals in grpc-status-details-bin
    "pytest>=7"                 # runs the grpcio peer tests in Tests/Peers
    "h2>=4" "httpx[http2]>=0.27"  # HTTP/2 clients (TLS without ALPN, too) for the HTTP/2 server tests
    "aioapns>=3" "pyapns-client>=2" "pyjwt[crypto]>=2" "cryptography>=41"  # stock APNs clients against glimpse-activity
    "selenium>=4.11"            # drives chromium-driver for the web page tests and Benchmarks/web.sh
    "kubernetes-validate>=1.37" "pyyaml>=6"  # deploy/k8s against the Kubernetes schemas (offline)
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "bootstrap: apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! python3 - <<'PY' 2>/dev/null
import google.protobuf, grpc, grpc_tools, grpc_health, grpc_reflection, grpc_status, pytest, h2, httpx
import aioapns, pyapns_client, jwt, cryptography, selenium, kubernetes_validate, yaml
import importlib.metadata as m
httpx.Client(http2=True).close()  # the http2 extra is there too
assert m.version("grpcio-tools") == "1.85.1"
PY
then
    echo "bootstrap: pip install ${PIP_PACKAGES[*]}"
    python3 -m pip install -q --disable-pip-version-check "${PIP_PACKAGES[@]}"
fi

if ! command -v swift >/dev/null; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        echo "bootstrap: swift is at /opt/swift/usr/bin; add it to PATH" >&2
    else
        echo "bootstrap: no Swift toolchain found (need Swift 6.1 or later)" >&2
    fi
    exit 1
fi
