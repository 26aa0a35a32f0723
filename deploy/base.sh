#!/usr/bin/env bash
# Makes the base image of deploy/Dockerfile, localhost/glimpse-base:bookworm, without any
# container registry: a Debian 12 minbase root filesystem made with debootstrap from the
# Debian mirror apt already uses, with the libraries the release binaries load (ldd shows
# them: libnghttp2-14, libprotobuf-c1, libsqlite3-0, libstdc++6, libgcc-s1, libc6) plus
# ca-certificates and tzdata, imported with `podman import`.
#
#   deploy/base.sh            # as root; needs podman and debootstrap (deploy/smoke.sh installs them)
#
# The image is saved (podman save) under the cache directory and loaded from there next
# time, so only the first run pays for debootstrap (~40 s). The label glimpse.base names
# the package list it was made with; a different list makes a new image.
#
# Environment: GLIMPSE_BASE_IMAGE (default localhost/glimpse-base:bookworm),
# GLIMPSE_BASE_EXTRA_PACKAGES (more packages, space-separated),
# GLIMPSE_CACHE_DIR (default ${XDG_CACHE_HOME:-~/.cache}/glimpse),
# GLIMPSE_DEBIAN_MIRROR (default: the first Debian mirror in apt's sources, else
# http://deb.debian.org/debian).
set -euo pipefail

IMAGE="${GLIMPSE_BASE_IMAGE:-localhost/glimpse-base:bookworm}"
CACHE="${GLIMPSE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/glimpse}"
SUITE=bookworm
# What the static-stdlib binaries load at run time (check: ldd on each; libc6, libgcc-s1
# and libstdc++6 are in minbase already), and what a service needs besides.
PACKAGES=(libnghttp2-14 libprotobuf-c1 libsqlite3-0 libstdc++6 libgcc-s1 ca-certificates tzdata bootstrap-icons)
# More, for another image made the same way (deploy/postgres/image.sh: postgresql-15).
read -r -a EXTRA <<<"${GLIMPSE_BASE_EXTRA_PACKAGES:-}"
PACKAGES+=("${EXTRA[@]}")

recipe="$SUITE $(printf '%s ' "${PACKAGES[@]}")"
key="$(printf '%s' "$recipe" | sha256sum | cut -c1-16)"
archive="$CACHE/glimpse-base-$SUITE-$key.tar"

say() { echo "base: $*" >&2; }

current="$(podman image inspect --format '{{ index .Labels "glimpse.base" }}' "$IMAGE" 2>/dev/null || true)"
if [ "$current" = "$key" ]; then
    say "$IMAGE is there ($recipe)"
    exit 0
fi
if [ -s "$archive" ]; then
    say "loading $IMAGE from $archive"
    podman load -q -i "$archive" >/dev/null
    current="$(podman image inspect --format '{{ index .Labels "glimpse.base" }}' "$IMAGE" 2>/dev/null || true)"
    if [ "$current" = "$key" ]; then exit 0; fi
    say "$archive did not hold $IMAGE with label $key; making it again"
fi

mirror="${GLIMPSE_DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
    # The first Debian archive (not the security one) in apt's sources, one-line or deb822.
    mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -oE '(https?|file)://[^ ]+' | grep -E '/debian/?$' | grep -v -- '-security' | head -n1 || true)"
    mirror="${mirror:-http://deb.debian.org/debian}"
fi

command -v debootstrap >/dev/null || { say "debootstrap is missing (apt-get install debootstrap)"; exit 1; }
rootfs="$(mktemp -d /var/tmp/glimpse-base.XXXXXX)"
trap 'rm -rf "$rootfs"' EXIT
say "debootstrap --variant=minbase $SUITE from $mirror (+ ${PACKAGES[*]})"
started=$(date +%s)
debootstrap --variant=minbase --include="$(IFS=,; echo "${PACKAGES[*]}")" "$SUITE" "$rootfs" "$mirror" >"$rootfs.log" 2>&1 \
    || { tail -n 30 "$rootfs.log" >&2; rm -f "$rootfs.log"; exit 1; }
rm -f "$rootfs.log"
# Nothing at run time needs apt's caches, documentation or manual pages.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
       "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/var/log/*
say "importing $IMAGE"
tar -C "$rootfs" -c . | podman import -q \
    --change "LABEL glimpse.base=$key" --change 'CMD ["/bin/bash"]' \
    --message "debootstrap --variant=minbase $SUITE + ${PACKAGES[*]}" - "$IMAGE" >/dev/null
mkdir -p "$CACHE"
podman save -q -o "$archive.part" "$IMAGE" && mv "$archive.part" "$archive"
say "made $IMAGE in $(( $(date +%s) - started )) s; cached in $archive"
