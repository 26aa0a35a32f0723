# Phases of a smoke script (sourced by deploy/smoke.sh and deploy/kube-smoke.sh): each prints
# what it checks and how long it took; PHASES keeps the times for the summary; fail ends the
# script with the phase's name (FAILED keeps it for the script's own clean-up).
PHASES=()
PHASE=""
PHASE_STARTED=0
FAILED=""

say() { printf '%s\n' "$*"; }
check() { printf '  - %s\n' "$*"; }
now_ms() { date +%s%3N; }

phase() {
    end_phase
    PHASE="$1"
    PHASE_STARTED=$(now_ms)
    say ""
    say "== $1: $2"
}

end_phase() {
    if [ -n "$PHASE" ]; then
        local took=$(( $(now_ms) - PHASE_STARTED ))
        PHASES+=("$(awk -v p="$PHASE" -v t="$took" 'BEGIN { printf "%-10s %8.1f s", p, t / 1000 }')")
        say "   ($PHASE: $(awk -v t="$took" 'BEGIN { printf "%.1f", t / 1000 }') s)"
        PHASE=""
    fi
}

fail() {
    FAILED="$PHASE: $*"
    say "FAILED in $PHASE: $*" >&2
    exit 1
}
