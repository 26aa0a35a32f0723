#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks generated code for drift,
# builds, and runs every test (Swift Testing, the fuzz targets for a short while, plus the
# Python peers under Tests/).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
./scripts/bootstrap.sh
if [ -x Proto/generate.sh ]; then Proto/generate.sh --check; fi
# The contract only grows: a breaking change against the previous commit fails the run (a
# deliberate break is a new package version, see docs/architecture.md, "Breaking changes").
if git rev-parse --verify -q HEAD~1 >/dev/null; then
    Proto/breaking.sh HEAD~1
else
    echo "test.sh: no previous commit (single commit, shallow clone or no git): Proto/breaking.sh skipped" >&2
fi
# The code is as swift-format writes it (.swift-format: 4 spaces, 120 columns).
scripts/format.sh --check
swift build --build-tests
# Beside a fresh PostgreSQL server (its URL in GLIMPSE_POSTGRES_URL), for the PostgreSQL
# journal's tests against the real thing; removed afterwards.
python3 scripts/with_postgres.py swift test --skip-build
# GlimpseKit as a team's package uses it: Examples/SeedWidgets depends on it by path (its own
# build; Tests/Peers/test_glimpsekit_examples.py runs what it builds). SwiftPM re-reads a path
# dependency's files only when the package's own manifest changed: touched, a file added to
# GlimpseKit since the last build is compiled.
touch Examples/SeedWidgets/Package.swift
swift build --package-path Examples/SeedWidgets
# Instructions per operation of the hot paths (a unary call's message work, a push, a
# reload, a tap, a layout) under callgrind, release build: over 5 % above the committed
# baseline fails the run (instruction counts do not swing with the machine's load).
Benchmarks/instructions.sh
# Stock protobuf decodes the bytes Swift made (the Swift tests check the other way).
python3 Tests/Wire/GlimpseMessagesTests/Golden/golden.py verify

# Fuzzing: every libFuzzer target for a short while (Fuzz/run.sh: its own build in
# .build-fuzz, sanitizers on; any crash, leak or timeout fails the run). GLIMPSE_SKIP_FUZZ=1
# leaves it out of a quick local run; CI runs it.
if [ "${GLIMPSE_SKIP_FUZZ:-}" = "1" ]; then
    echo "test.sh: GLIMPSE_SKIP_FUZZ=1: Fuzz/run.sh skipped" >&2
else
    Fuzz/run.sh "${GLIMPSE_FUZZ_SECONDS:-10}"
fi

# Real peers: stock grpcio against the Swift server (Tests/Peers). pytest's exit code 5
# means it collected no test: that is a failure here, never a silent pass.
status=0
python3 -m pytest Tests/Peers -q || status=$?
if [ "$status" -eq 5 ]; then
    echo "test.sh: pytest collected no tests in Tests/Peers" >&2
    exit 1
fi
[ "$status" -eq 0 ] || exit "$status"

# A 2-minute chaos soak of a supervised stack: mixed load, a random service killed with SIGKILL
# every 5 s, every acknowledged write checked exactly once (Benchmarks/soak.sh runs it for 30).
if [ "${GLIMPSE_SKIP_SOAK:-}" = "1" ]; then
    echo "test.sh: GLIMPSE_SKIP_SOAK=1: the 2-minute soak skipped" >&2
else
    python3 Benchmarks/soak.py --minutes 2 --kill-every 5 --bin "$(swift build --show-bin-path)"
fi

# The compose deployment for real (podman, the release image, the seed flows, an outage,
# the contracts against the deployed services), then deploy/k8s played by podman. GLIMPSE_SKIP_DEPLOY=1 leaves it out of a
# quick local run; CI runs it.
if [ "${GLIMPSE_SKIP_DEPLOY:-}" = "1" ]; then
    echo "test.sh: GLIMPSE_SKIP_DEPLOY=1: deploy/smoke.sh skipped" >&2
else
    deploy/smoke.sh
    # The Kubernetes manifests with podman kube play (deploy/k8s; validated above too).
    deploy/kube-smoke.sh
fi
