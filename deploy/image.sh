#!/usr/bin/env bash
# Builds the runtime image localhost/glimpse:latest (deploy/Dockerfile) without any
# registry: the base image (deploy/base.sh), the seven release binaries with the Swift
# standard library linked in, staged (stripped) in deploy/bin, then `podman build`.
#
#   deploy/image.sh                       # as root, from anywhere in the checkout
#
# Environment: GLIMPSE_IMAGE (default localhost/glimpse:latest), GLIMPSE_SCRATCH (the
# SwiftPM scratch path, default .build-deploy), GLIMPSE_SKIP_SWIFT_BUILD=1 (stage what is
# built already), and base.sh's variables.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"

IMAGE="${GLIMPSE_IMAGE:-localhost/glimpse:latest}"
SCRATCH="${GLIMPSE_SCRATCH:-.build-deploy}"
PRODUCTS=(glimpse-timeline glimpse-intent glimpse-activity glimpse-asset glimpse-gateway glimpse-demo glimpse)
say() { echo "image: $*" >&2; }

deploy/base.sh

if [ "${GLIMPSE_SKIP_SWIFT_BUILD:-0}" != 1 ]; then
    log="$(mktemp)"
    for product in "${PRODUCTS[@]}"; do
        say "swift build -c release --static-swift-stdlib --scratch-path $SCRATCH --product $product"
        if ! swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product "$product" >"$log" 2>&1; then
            grep -E "error:" "$log" | head -n 20 >&2 || tail -n 40 "$log" >&2
            rm -f "$log"
            say "the build of $product failed"
            exit 1
        fi
        # (The static Foundation's own link-time note about mktemp is the toolchain's, not ours.)
        grep -E "warning:" "$log" | grep -v "libFoundationEssentials.a" | sort -u >&2 || true
    done
    rm -f "$log"
fi
bin="$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)"

rm -rf deploy/bin
mkdir -p deploy/bin
for product in "${PRODUCTS[@]}"; do
    [ -x "$bin/$product" ] || { say "$bin/$product is missing"; exit 1; }
    if command -v strip >/dev/null; then
        strip -o "deploy/bin/$product" "$bin/$product"
    else
        cp "$bin/$product" "deploy/bin/$product"
    fi
done
say "staged ${#PRODUCTS[@]} binaries ($(du -sh deploy/bin | cut -f1)) in deploy/bin"

# podman build writes the staged binaries through a scratch copy in /var/tmp and then into
# its storage: about three times their size. Say so plainly when the disk cannot hold that,
# rather than failing half way with podman's "no space left on device".
need_kb=$(( $(du -sk deploy/bin | cut -f1) * 3 ))
storage="$(podman info --format '{{.Store.GraphRoot}}' 2>/dev/null || echo /var/lib/containers/storage)"
for dir in "${TMPDIR:-/var/tmp}" "$storage"; do
    [ -d "$dir" ] || continue
    free_kb="$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')"
    if [ "$free_kb" -lt "$need_kb" ]; then
        say "not enough free space in $dir: $((free_kb / 1024)) MiB free, the image build needs about $((need_kb / 1024)) MiB"
        rm -rf deploy/bin
        exit 1
    fi
done

say "podman build -t $IMAGE -f deploy/Dockerfile ."
previous="$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
podman build -q --pull=never -t "$IMAGE" -f deploy/Dockerfile . >/dev/null
current="$(podman image inspect --format '{{.Id}}' "$IMAGE")"
# The image this one replaces is untagged now: remove it unless a container still uses it.
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then
    podman rmi "$previous" >/dev/null 2>&1 || say "kept the previous image ${previous:0:12} (in use)"
fi
rm -rf deploy/bin   # in the image now (the next build stages them again; unchanged files hit the layer cache)
# Every library the binaries load is in the image.
missing="$(podman run --rm --entrypoint /bin/sh "$IMAGE" -c 'for f in /usr/local/bin/glimpse*; do ldd "$f"; done' | grep 'not found' | sort -u || true)"
[ -z "$missing" ] || { say "libraries missing from the image:"; echo "$missing" >&2; exit 1; }
say "built $IMAGE ($(podman image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%.0f MB", $1/1e6}'))"
