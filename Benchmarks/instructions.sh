#!/usr/bin/env bash
# Instructions per operation of the hot paths (a unary call's message work, a push, a
# timeline reload, a tap, a layout), counted by valgrind's callgrind on a release build of
# glimpse-bench-instructions, against Benchmarks/Instructions/baseline.json. Wall-clock
# figures swing ±30 % on shared 2-core machines; these counts do not (the same binary
# counts the same twice, whatever else runs), so a regression over 5 % fails the run. The
# test command runs it.
#
#   Benchmarks/instructions.sh              # compare with the baseline: exit 1 on a regression
#   Benchmarks/instructions.sh --update     # write the working tree's counts as the baseline
#   PATHS="push tap" Benchmarks/instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
BASELINE=Benchmarks/Instructions/baseline.json
OPS=300
PATHS="${PATHS:-unary push reload tap layout}"
update=0
[ "${1:-}" = "--update" ] && update=1
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is missing (scripts/bootstrap.sh installs it)" >&2; exit 1; }
swift build -c release --product glimpse-bench-instructions >/dev/null
WORK="$(mktemp -d)"; trap 'rm -rf "$WORK"' EXIT
# valgrind cannot read the DWARF 5 Swift writes: a copy without debug info (the symbol
# table, which names the functions, stays).
bin="$WORK/glimpse-bench-instructions"
objcopy --strip-debug "$(swift build -c release --show-bin-path)/glimpse-bench-instructions" "$bin"

for path in $PATHS; do
    # Swift seeds its hashing per process unless told not to: a dictionary's probes, and so
    # the count, would differ between runs.
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --collect-atstart=no \
        --toggle-collect='*Measured*' --callgrind-out-file="$WORK/$path.out" \
        "$bin" "$path" --ops "$OPS" > "$WORK/$path.said" 2> "$WORK/$path.err" \
        || { cat "$WORK/$path.err" >&2; exit 1; }
    total="$(awk '/^(summary|totals):/ {print $2; exit}' "$WORK/$path.out")"
    echo "$path $total $(cat "$WORK/$path.said")" >> "$WORK/counts"
done

python3 - "$WORK/counts" "$BASELINE" "$OPS" "$update" <<'PY'
import json, pathlib, sys
counts_file, baseline_file, ops, update = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
now = {}
for line in open(counts_file):
    path, total, said = line.split(" ", 2)
    now[path] = {"instructions_per_op": round(int(total) / ops), "did": said.strip()}
if update:
    old = json.loads(baseline_file.read_text()) if baseline_file.exists() else {"paths": {}}
    old["ops"] = ops
    old["paths"].update({path: value["instructions_per_op"] for path, value in now.items()})
    baseline_file.write_text(json.dumps(old, indent=2, sort_keys=True) + "\n")
    print(f"instructions.sh: {baseline_file} written")
baseline = json.loads(baseline_file.read_text())
assert baseline["ops"] == ops, f"the baseline counts {baseline['ops']} operations, this run {ops}"
failed = []
print(f"{'path':<8} {'instructions/op':>16} {'baseline':>12} {'change':>8}   what the operations did")
for path, value in now.items():
    mine, base = value["instructions_per_op"], baseline["paths"].get(path)
    change = "" if base is None else f"{(mine - base) / base * 100:+.1f} %"
    print(f"{path:<8} {mine:>16,} {base or 0:>12,} {change:>8}   {value['did']}")
    if base is None:
        failed.append(f"{path}: no baseline (Benchmarks/instructions.sh --update)")
    elif mine > base * 1.05:
        failed.append(f"{path}: {mine:,} instructions per operation, {(mine - base) / base * 100:.1f} % over the baseline's {base:,}")
if failed:
    print("instructions.sh: regression over 5 %:\n  " + "\n  ".join(failed), file=sys.stderr)
    sys.exit(1)
PY
