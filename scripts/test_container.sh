#!/usr/bin/env bash
# Build the Dockerfile's image with podman, start it, and check that it serves: the
# image's own HEALTHCHECK, /_stcore/health, the app's page (a deep link too; rendered in
# Chromium by scripts/check_page.py when scripts/test.sh's .venv is there), the
# dependencies inside (scripts/check_runtime.py), a non-root user, and a second
# container behind a base URL path (as behind a reverse proxy). Removes what it started.
#
#   bash scripts/test_container.sh                 # needs root (or sudo) on Debian/Ubuntu
#   BASE_IMAGE=python:3.11-slim bash scripts/test_container.sh
#
# podman is installed with apt-get when missing. When the base image cannot be pulled
# (a machine with no route to a container registry), a stand-in is built with
# debootstrap from the Debian mirror: Debian 12's python3 and venv, and the host's CA
# certificates (so pip trusts what the host trusts). On a machine that is itself a
# container (cgroup v1 with a cgroup2 mount beside it, no CAP_SYS_RESOURCE), the
# containers run without their own cgroups or rlimits, in a private mount namespace.
# The containers share the host's network (the server's port is STREAMLIT_SERVER_PORT).
# The machine's part (installing podman, the base image, building) may be missing on a
# given machine: then the check says why and stops without failing (tests/test_dockerfile.py,
# run by scripts/test.sh, checks the Dockerfile against the local install either way).
# Once the image is built, every check of what it serves must pass.
set -euo pipefail
cd "$(dirname "$0")/.."

no_engine() { # no_engine REASON: this machine cannot build or run the image
  echo "container check skipped: $1 (tests/test_dockerfile.py still checks the Dockerfile)"
  exit 0
}

BASE_IMAGE="${BASE_IMAGE:-python:3.12-slim}"
IMAGE="localhost/ai-search-lab:test"
PORT="${PORT:-18501}"
VENV="${VENV:-.venv}" # scripts/test.sh's, for the browser check
NAME="ai-search-lab-test-$$"

sudo_cmd=""
[ "$(id -u)" = 0 ] || sudo_cmd="sudo"
if [ -z "${AISL_CONTAINER_TEST_INNER:-}" ]; then
  if ! command -v podman >/dev/null; then
    $sudo_cmd apt-get update -qq || no_engine "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq podman >/dev/null \
      || no_engine "podman could not be installed"
  fi
  command -v unshare >/dev/null || no_engine "no unshare"
  # everything below runs in one private mount namespace (podman's network namespaces
  # are mounted there, and the cgroup2 mount is hidden there only)
  exec $sudo_cmd env AISL_CONTAINER_TEST_INNER=1 BASE_IMAGE="$BASE_IMAGE" PORT="$PORT" VENV="$VENV" \
    unshare --mount --propagation private bash "$PWD/scripts/test_container.sh" "$@"
fi

if mountpoint -q /sys/fs/cgroup/unified 2>/dev/null; then
  umount /sys/fs/cgroup/unified # crun refuses cgroup v1 with a cgroup2 mount beside it
fi
CONTAINERS_CONF="$(mktemp)"
printf '[containers]\ndefault_ulimits = []\n' >"$CONTAINERS_CONF"
export CONTAINERS_CONF
run_flags=(--cgroups=disabled --network host)

cleanup() {
  podman rm -f --ignore "$NAME" "$NAME-base-url" >/dev/null 2>&1 || true
  rm -f "$CONTAINERS_CONF"
}
trap cleanup EXIT
trap "exit 1" INT TERM # still cleans up (through EXIT) when timed out

# the base image: pulled, or built from the Debian mirror
if timeout 120 podman pull -q "$BASE_IMAGE" >/dev/null 2>&1; then
  base="$BASE_IMAGE"
  echo "base image: $base (pulled)"
else
  base="localhost/ai-search-lab-base:bookworm"
  if ! podman image exists "$base"; then
    echo "base image: $BASE_IMAGE cannot be pulled; building $base with debootstrap"
    if ! command -v debootstrap >/dev/null; then
      apt-get update -qq || no_engine "apt-get update failed"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null \
        || no_engine "debootstrap could not be installed"
    fi
    rootfs="$(mktemp -d)"
    timeout 600 debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
      bookworm "$rootfs" http://deb.debian.org/debian >/dev/null \
      || no_engine "no base image: $BASE_IMAGE cannot be pulled and debootstrap failed"
    cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -c . | podman import -q \
      --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt' \
      --change 'CMD ["/bin/bash"]' - "$base" >/dev/null \
      || no_engine "podman could not import the base image"
    rm -rf "$rootfs"
  fi
  echo "base image: $base (stand-in)"
fi

start=$SECONDS
# docker format keeps HEALTHCHECK (OCI images have no such field)
build_log="$(mktemp)"
if ! podman build -q --format docker --isolation chroot --network host \
  --build-arg BASE_IMAGE="$base" -t "$IMAGE" . >"$build_log" 2>&1; then
  tail -n 20 "$build_log" >&2
  no_engine "podman could not build the image here (its last lines are above)"
fi
rm -f "$build_log"
echo "built $IMAGE in $((SECONDS - start)) s"

fetch() { # fetch URL -> prints the body; fails on any HTTP error
  python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=3).read().decode())' "$1"
}
wait_healthy() { # wait_healthy URL: poll for up to 90 s
  for _ in $(seq 90); do
    if [ "$(fetch "$1" 2>/dev/null)" = "ok" ]; then
      return 0
    fi
    sleep 1
  done
  echo "no answer from $1 within 90 s" >&2
  return 1
}

start=$SECONDS
podman run -d --name "$NAME" "${run_flags[@]}" -e STREAMLIT_SERVER_PORT="$PORT" "$IMAGE" >/dev/null
wait_healthy "http://127.0.0.1:$PORT/_stcore/health" || { podman logs "$NAME" >&2; exit 1; }
echo "served /_stcore/health in $((SECONDS - start)) s"
podman healthcheck run "$NAME" >/dev/null 2>&1
echo "HEALTHCHECK: healthy"
for path in / /arena; do
  page="$(fetch "http://127.0.0.1:$PORT$path")"
  [[ "$page" == *'<div id="root">'* ]] || { echo "no page at $path" >&2; exit 1; }
done
echo "served the page shell at / and /arena"
user="$(podman exec "$NAME" id -u)"
[ "$user" != 0 ] || { echo "the server runs as root" >&2; exit 1; }
echo "server user id: $user"
podman exec "$NAME" sh -c 'test "$MALLOC_ARENA_MAX" = 2'
podman exec "$NAME" python scripts/check_runtime.py 2>/dev/null | tail -n 1
# the pages themselves, in Chromium (with scripts/test.sh's .venv and Chromium, as on CI)
venv_python="$VENV/bin/python"
if [ -x /usr/bin/chromium ] && [ -x "$venv_python" ] && "$venv_python" -c "import playwright" 2>/dev/null; then
  "$venv_python" scripts/check_page.py "http://127.0.0.1:$PORT" "" arena
else
  echo "no browser check: needs /usr/bin/chromium and $VENV with playwright (scripts/test.sh)"
fi

podman run -d --name "$NAME-base-url" "${run_flags[@]}" -e STREAMLIT_SERVER_PORT="$((PORT + 1))" \
  -e STREAMLIT_SERVER_BASE_URL_PATH=lab "$IMAGE" >/dev/null
wait_healthy "http://127.0.0.1:$((PORT + 1))/lab/_stcore/health"
podman healthcheck run "$NAME-base-url" >/dev/null 2>&1
echo "base URL path /lab: served /lab/_stcore/health, HEALTHCHECK healthy"
echo "container test passed"
