#!/usr/bin/env bash
# Fuzz/run.sh [seconds-per-target] [target…]
#
# Builds glimpse-fuzz (libFuzzer, AddressSanitizer with leak detection; Swift and C code
# both instrumented) into .build-fuzz, then runs each target (all of them by default:
# json proto http1 apns render manifest) for the given time, one after the other, starting
# from its corpus in Fuzz/Corpus/<target>. Prints a line per target (executions, exec/s,
# verdict) and exits non-zero on any crash, leak, timeout or out-of-memory, naming the
# saved input. Everything a run writes (grown corpora, artifacts, logs) goes under a
# scratch folder (GLIMPSE_FUZZ_SCRATCH, else a new one in /tmp), never into the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"

seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json proto http1 apns render manifest)
scratch="${GLIMPSE_FUZZ_SCRATCH:-$(mktemp -d /tmp/glimpse-fuzz.XXXXXX)}"
mkdir -p "$scratch"

echo "fuzz: building glimpse-fuzz (.build-fuzz; log $scratch/build.log)"
build_start=$(date +%s)
# Release: optimized code runs several times more inputs a second than debug.
if ! GLIMPSE_FUZZ=1 swift build -c release --build-path .build-fuzz --product glimpse-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address >"$scratch/build.log" 2>&1; then
    tail -30 "$scratch/build.log" >&2
    echo "fuzz: the build failed (log: $scratch/build.log)" >&2
    exit 1
fi
echo "fuzz: built in $(( $(date +%s) - build_start )) s"
bin=".build-fuzz/release/glimpse-fuzz"

failed=0
total=0
printf '%-10s %14s %10s  %s\n' target executions exec/s result
for target in "${targets[@]}"; do
    work="$scratch/$target"
    mkdir -p "$work/corpus" "$work/artifacts"
    # The run grows a copy: the repository's corpus changes only by hand (see docs/running.md, "Fuzzing").
    [ -d "Fuzz/Corpus/$target" ] && cp -n Fuzz/Corpus/"$target"/* "$work/corpus/" 2>/dev/null || true
    status=0
    # Swift's own crash backtracer off: libFuzzer reports the crash and saves the input.
    GLIMPSE_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
        "$bin" "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=1 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/" >"$work/log" 2>&1 || status=$?
    executions=$(awk '/stat::number_of_executed_units:/ { print $2 }' "$work/log" | tail -1)
    rate=$(awk '/stat::average_exec_per_sec:/ { print $2 }' "$work/log" | tail -1)
    artifact=$(find "$work/artifacts" -type f | head -1)
    if [ "$status" -eq 0 ] && [ -z "$artifact" ]; then
        result="ok"
    else
        failed=1
        kind=$(basename "${artifact:-unknown-}" | cut -d- -f1)
        result="FAILED ($kind, exit $status): ${artifact:-no artifact} (log: $work/log)"
    fi
    total=$(( total + ${executions:-0} ))
    printf '%-10s %14s %10s  %s\n' "$target" "${executions:-?}" "${rate:-?}" "$result"
done
printf '%-10s %14s\n' total "$total"
echo "fuzz: logs, grown corpora and artifacts in $scratch"
exit "$failed"
