#!/usr/bin/env bash
# The code's format: swift-format (it ships with the Swift toolchain) with the repository's
# .swift-format (4 spaces, 120 columns; the layout rules only). Generated code is left as its
# generator writes it (Proto/generate.sh, scripts/embed-contracts.py), and the seed articles'
# Swift under Examples/SeedWidgets/Sources as the articles write it (its share of verbatim
# lines is measured: scripts/seed-lines.py).
#
#   scripts/format.sh           format every hand-written Swift file in place
#   scripts/format.sh --check   change nothing; exit 1 naming each line that is not formatted
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"

mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.swift' \
    | grep -v -e '/Generated/' -e '^Sources/Tools/GlimpseInterop/Services/' -e '^Sources/Tools/Contracts/EmbeddedContracts.swift$' \
        -e '^Examples/SeedWidgets/Sources/')
if [ "${1:-}" = "--check" ]; then
    if ! swift format lint --strict --parallel "${files[@]}"; then
        echo "format.sh --check: the lines above are not as swift-format writes them: run scripts/format.sh" >&2
        exit 1
    fi
    echo "format.sh --check: ${#files[@]} files formatted"
else
    swift format format --in-place --parallel "${files[@]}"
fi
