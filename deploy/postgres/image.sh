#!/usr/bin/env bash
# Builds localhost/glimpse-postgres:15 (deploy/postgres/Dockerfile) without any registry:
# the debootstrap base of deploy/base.sh with postgresql-15, then `podman build`.
#
#   deploy/postgres/image.sh      # as root, from anywhere in the checkout
#
# Environment: GLIMPSE_POSTGRES_IMAGE (default localhost/glimpse-postgres:15), and base.sh's.
set -euo pipefail
cd "$(dirname "$0")"
IMAGE="${GLIMPSE_POSTGRES_IMAGE:-localhost/glimpse-postgres:15}"
GLIMPSE_BASE_IMAGE=localhost/glimpse-postgres-base:bookworm GLIMPSE_BASE_EXTRA_PACKAGES=postgresql-15 ../base.sh
previous="$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
podman build -q --pull=never -t "$IMAGE" -f Dockerfile . >/dev/null
current="$(podman image inspect --format '{{.Id}}' "$IMAGE")"
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then
    podman rmi "$previous" >/dev/null 2>&1 || true
fi
echo "postgres image: built $IMAGE ($(podman image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%.0f MB", $1/1e6}'))" >&2
