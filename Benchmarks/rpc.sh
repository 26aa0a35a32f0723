#!/usr/bin/env bash
# Unary throughput and latency of the gRPC transport against nghttpd, in one run.
#
#   Benchmarks/rpc.sh [requests]      (default 500000)
#   RAW=/tmp/old/glimpse-rpc-testserver INTEROP=/tmp/old/glimpse-interop-server Benchmarks/rpc.sh
#
# Builds in release and drives with h2load (POST, content-type application/grpc,
# te: trailers, a gRPC length-prefixed body from a file), the servers taking turns
# (ROUNDS, default 3):
#   - interop:  glimpse-interop-server's grpc.testing.TestService/UnaryCall, a real
#               SimpleRequest (response_size 64, 64-byte payload) decoded and a
#               SimpleResponse encoded through protobuf-c: the whole stack; its defaults
#               (one event loop per two cores, handlers on Swift's global executor;
#               INTEROP_ARGS, e.g. "--threads 2", overrides them);
#   - raw echo: glimpse-rpc-testserver echoing an 82-byte body: the transport alone, on
#               its default one event loop (a handler this small gains nothing from more);
#   - nghttpd:  --no-tls, a tiny static file, its default one worker (`-n 2` is slower
#               on two cores, where h2load needs the other): the ceiling of this machine.
# Prints the median req/s, mean and p99 latency of each, the ratios to nghttpd, and
# messages/s of one server-streaming call. h2load cannot see grpc-status, so both Swift
# servers count outcomes themselves and print them at exit (`statuses: ok=N failed=M`).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
for tool in h2load nghttpd python3; do
    command -v "$tool" >/dev/null || { echo "rpc.sh: $tool is missing (scripts/bootstrap.sh installs it)" >&2; exit 1; }
done

REQUESTS=${1:-500000}
SWIFT_PORT=${SWIFT_PORT:-50951}
NGHTTPD_PORT=${NGHTTPD_PORT:-50952}
INTEROP_PORT=${INTEROP_PORT:-50953}
WORK=$(mktemp -d)
SERVER_PID=""
NGHTTPD_PID=""
INTEROP_PID=""
cleanup() {
    [ -n "$INTEROP_PID" ] && kill "$INTEROP_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    [ -n "$NGHTTPD_PID" ] && kill "$NGHTTPD_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# RAW=<binary> and INTEROP=<binary> measure another build's servers (e.g. a copy of the
# last commit's, for a before/after in one session) instead of building this tree's.
if [ -z "${RAW:-}" ] || [ -z "${INTEROP:-}" ]; then
    swift build -c release --product glimpse-rpc-testserver >/dev/null
    swift build -c release --product glimpse-interop-server >/dev/null
fi
BIN="${RAW:-$(swift build -c release --show-bin-path)/glimpse-rpc-testserver}"
INTEROP_BIN="${INTEROP:-$(swift build -c release --show-bin-path)/glimpse-interop-server}"

# One gRPC message: flag 0, 4-byte big-endian length, 77 bytes of payload (82 in all).
python3 -c "import struct,sys; m=b'x'*77; sys.stdout.buffer.write(b'\0'+struct.pack('>I',len(m))+m)" > "$WORK/request.bin"
# grpc.testing.SimpleRequest{response_size: 64, payload{body: 64 zero bytes}} on the wire
# (field 2 varint 64; field 3 = Payload{field 2 bytes}).
python3 -c "
import struct, sys
payload = b'\x12\x40' + b'\0' * 64
message = b'\x10\x40' + b'\x1a' + bytes([len(payload)]) + payload
sys.stdout.buffer.write(b'\0' + struct.pack('>I', len(message)) + message)" > "$WORK/simple.bin"
mkdir -p "$WORK/docroot"
head -c 77 /dev/zero | tr '\0' 'x' > "$WORK/docroot/echo"

"$BIN" --port "$SWIFT_PORT" > "$WORK/server.log" 2>&1 &
SERVER_PID=$!
nghttpd --no-tls -d "$WORK/docroot" "$NGHTTPD_PORT" > /dev/null 2>&1 &
NGHTTPD_PID=$!
"$INTEROP_BIN" --port "$INTEROP_PORT" ${INTEROP_ARGS:-} > "$WORK/interop.log" 2>&1 &
INTEROP_PID=$!
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 1 200); do
    grep -q listening "$WORK/server.log" 2>/dev/null && grep -q listening "$WORK/interop.log" 2>/dev/null \
        && listening "$NGHTTPD_PORT" && break
    sleep 0.05
done
listening "$SWIFT_PORT" && listening "$INTEROP_PORT" && listening "$NGHTTPD_PORT" || { echo "rpc.sh: a server did not start" >&2; exit 1; }

GRPC_HEADERS=(-H 'content-type: application/grpc' -H 'te: trailers')

# throughput NAME URL CLIENTS STREAMS COUNT [BODY] -> req/s of one plain run
throughput() {
    local name=$1 url=$2 clients=$3 streams=$4 count=$5 body=${6:-$WORK/request.bin}
    h2load -c "$clients" -m "$streams" -t 1 -n "$count" -d "$body" "${GRPC_HEADERS[@]}" \
        "$url" > "$WORK/$name.out" 2>&1
    grep -q "$count succeeded" "$WORK/$name.out" || { echo "rpc.sh: $name: not every request succeeded" >&2; cat "$WORK/$name.out" >&2; exit 1; }
    grep -oE '[0-9.]+ req/s' "$WORK/$name.out" | cut -d' ' -f1
}

# latency NAME URL CLIENTS STREAMS COUNT -> "mean_us p99_us" from h2load's per-request log
# (a separate run: the log costs h2load CPU that would otherwise go to the server).
latency() {
    local name=$1 url=$2 clients=$3 streams=$4 count=$5 body=${6:-$WORK/request.bin}
    h2load -c "$clients" -m "$streams" -t 1 -n "$count" -d "$body" "${GRPC_HEADERS[@]}" \
        --log-file="$WORK/$name.log" "$url" > "$WORK/$name.logged.out" 2>&1
    python3 - "$WORK/$name.log" <<'PY'
import sys
durations = sorted(int(line.split()[2]) for line in open(sys.argv[1]) if line.strip())
mean = sum(durations) / len(durations)
p99 = durations[min(len(durations) - 1, int(len(durations) * 0.99))]
print(f"{mean:.0f} {p99}")
PY
}

median() { python3 -c "import statistics,sys; print(f'{statistics.median(map(float, sys.argv[1:])):.0f}')" "$@"; }

SWIFT_URL="http://127.0.0.1:$SWIFT_PORT/glimpse.test.Steered/Unary"
INTEROP_URL="http://127.0.0.1:$INTEROP_PORT/grpc.testing.TestService/UnaryCall"
NGHTTPD_URL="http://127.0.0.1:$NGHTTPD_PORT/echo"

# Warm-up (thread pools, allocator arenas), not reported.
throughput warm-interop "$INTEROP_URL" 16 32 100000 "$WORK/simple.bin" > /dev/null
throughput warm-swift "$SWIFT_URL" 16 32 100000 > /dev/null
throughput warm-nghttpd "$NGHTTPD_URL" 16 32 100000 > /dev/null

# The two cores are shared with whatever else runs on the machine, so the servers take
# turns, ROUNDS times, and the medians are compared.
ROUNDS=${ROUNDS:-3}
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
report() {
    local label=$1 clients=$2 streams=$3 count=$4 i_runs=() s_runs=() n_runs=()
    for round in $(seq 1 "$ROUNDS"); do
        i_runs+=("$(throughput "interop-$clients-$round" "$INTEROP_URL" "$clients" "$streams" "$count" "$WORK/simple.bin")")
        s_runs+=("$(throughput "swift-$clients-$round" "$SWIFT_URL" "$clients" "$streams" "$count")")
        n_runs+=("$(throughput "nghttpd-$clients-$round" "$NGHTTPD_URL" "$clients" "$streams" "$count")")
    done
    local i_rps s_rps n_rps
    i_rps=$(median "${i_runs[@]}")
    s_rps=$(median "${s_runs[@]}")
    n_rps=$(median "${n_runs[@]}")
    read -r i_mean i_p99 < <(latency "interop-$clients" "$INTEROP_URL" "$clients" "$streams" $((count / 5)) "$WORK/simple.bin")
    read -r s_mean s_p99 < <(latency "swift-$clients" "$SWIFT_URL" "$clients" "$streams" $((count / 5)))
    read -r n_mean n_p99 < <(latency "nghttpd-$clients" "$NGHTTPD_URL" "$clients" "$streams" $((count / 5)))
    printf '%-22s %-9s %12s %10s %10s   rounds: %s\n' "$label" "interop" "$i_rps" "$i_mean" "$i_p99" "${i_runs[*]}"
    printf '%-22s %-9s %12s %10s %10s   rounds: %s\n' "" "raw echo" "$s_rps" "$s_mean" "$s_p99" "${s_runs[*]}"
    printf '%-22s %-9s %12s %10s %10s   rounds: %s\n' "" "nghttpd" "$n_rps" "$n_mean" "$n_p99" "${n_runs[*]}"
    printf '%-22s ratio to nghttpd (median req/s): interop %s, raw echo %s\n' "" \
        "$(ratio "$i_rps" "$n_rps")" "$(ratio "$s_rps" "$n_rps")"
}

echo "unary calls, h2load -t 1; latency in microseconds; $ROUNDS alternating rounds"
echo "  interop  = glimpse-interop-server UnaryCall: SimpleRequest in, 64-byte SimpleResponse out (protobuf-c);"
echo "             $(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 )) event loop(s) (half the cores), handlers on Swift's global executor ${INTEROP_ARGS:+(args: $INTEROP_ARGS)}"
echo "  raw echo = glimpse-rpc-testserver echoing an 82-byte body (the transport alone), one event loop"
echo "  nghttpd  = one worker (its default)"
printf '%-22s %-9s %12s %10s %10s\n' "load" "server" "req/s" "mean*" "p99*"
report "-c 16 -m 32 -n $REQUESTS" 16 32 "$REQUESTS"
report "-c 1 -m 1 -n $((REQUESTS / 10))" 1 1 $((REQUESTS / 10))

echo "(* latency from a separate run of a fifth of the requests with h2load's per-request log)"

# One server-streaming call: 1,000,000 replies of 16 bytes.
h2load -c 1 -m 1 -t 1 -n 1 -d "$WORK/request.bin" "${GRPC_HEADERS[@]}" -H 'x-reply-count: 1000000' -H 'x-reply-size: 16' \
    "http://127.0.0.1:$SWIFT_PORT/glimpse.test.Steered/ServerStream" > "$WORK/stream.out" 2>&1
python3 - "$WORK/stream.out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
value, unit = re.search(r"finished in ([0-9.]+)(ms|s)", text).groups()
seconds = float(value) / (1000 if unit == "ms" else 1)
print(f"server streaming: 1000000 messages of 16 bytes in {seconds:.2f} s = {1000000 / seconds:.0f} messages/s")
PY

kill -TERM "$SERVER_PID"
wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
grep statuses "$WORK/server.log" | sed 's/^/test server /'
kill -TERM "$INTEROP_PID"
wait "$INTEROP_PID" 2>/dev/null || true
INTEROP_PID=""
grep statuses "$WORK/interop.log" | sed 's/^/interop server /'
