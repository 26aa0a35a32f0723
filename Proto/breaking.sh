#!/usr/bin/env bash
# Breaking-change check for the contract: compares the working tree's Proto/ with Proto/ at a
# git ref by buf's FILE rules (Proto/tools/breaking.py lists which, and which not).
#
#   Proto/breaking.sh <git-ref>     e.g. HEAD, HEAD~1, origin/main
#
# Exit 0 with "no breaking changes against <ref>"; 1 with one line per break on stdout
# (file: RULE_ID: what broke) and a summary on stderr; 2 for a usage error, a ref that does
# not exist or has no Proto/, or protos that do not compile.
#
# The repository is the one around the current directory (so the script can judge any
# checkout); breaking.py is found beside this script. Only read-only git commands are used.
# Needs python3 with grpcio-tools and protobuf (scripts/bootstrap.sh installs them).
set -euo pipefail

fail() { echo "breaking.sh: $*" >&2; exit 2; }

if [ $# -ne 1 ] || [ -z "$1" ] || [ "${1#-}" != "$1" ]; then
    # A leading dash would reach git as an option, not a ref.
    echo "usage: Proto/breaking.sh <git-ref>   (compares the working tree's Proto/ with the ref's)" >&2
    exit 2
fi
ref="$1"

checker="$(cd "$(dirname "$0")" && pwd)/tools/breaking.py"
[ -f "$checker" ] || fail "$checker missing"
root="$(git rev-parse --show-toplevel 2>/dev/null)" || fail "not inside a git repository"
[ -d "$root/Proto" ] || fail "$root has no Proto/ folder"

commit="$(git -C "$root" rev-parse --verify -q "$ref^{commit}")" || fail "unknown git ref '$ref'"
[ "$(git -C "$root" cat-file -t "$commit:Proto" 2>/dev/null)" = tree ] || fail "'$ref' has no Proto/ folder"

# protoc's own copies of google/protobuf/*.proto, bundled with grpc_tools: the same files
# whichever version is installed, with no system package needed.
wkt="$(python3 -c 'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))' 2>/dev/null)" \
    || fail "python3 cannot import grpc_tools (run scripts/bootstrap.sh)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git -C "$root" archive "$commit" Proto | tar -x -C "$work"

# describe PROTO_DIR OUT LABEL: a descriptor set of every .proto under PROTO_DIR. Proto/tools holds
# the code generators (no schema) and is skipped, as is anything else that is not contract.
describe() {
    local dir="$1" out="$2" label="$3" files=()
    mapfile -t files < <(cd "$dir" && find . -path ./tools -prune -o -name '*.proto' -type f -print \
        | sed 's|^\./||' | LC_ALL=C sort)
    if [ ${#files[@]} -eq 0 ]; then
        : > "$out"   # an empty file parses as an empty set
        return
    fi
    python3 -m grpc_tools.protoc --include_imports --descriptor_set_out="$out" \
        -I "$dir" -I "$wkt" "${files[@]}" 2> "$work/protoc.err" \
        || { cat "$work/protoc.err" >&2; fail "the protos in $label do not compile"; }
}
describe "$work/Proto" "$work/old.pb" "'$ref'"
describe "$root/Proto" "$work/new.pb" "the working tree"

python3 "$checker" --ref "$ref" "$work/old.pb" "$work/new.pb"
