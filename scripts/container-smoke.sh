#!/usr/bin/env bash
# Container smoke test: builds the image from the Dockerfile with podman and
# runs it as a pod would (read-only root, uid 10001), on a machine with no
# container registry: the two base images the Dockerfile names are made
# locally, once, with debootstrap (Debian's packages are reachable):
#   - debian:bookworm-slim: a minbase bookworm root file system;
#   - rust:1-bookworm: the same plus gcc, libc6-dev, ca-certificates and
#     this machine's Rust toolchain.
# Then: build with --pull=never, run, check /healthz and one request per
# game, stop with SIGTERM within the grace period; prints the image's size
# and the times. Idempotent: what exists is reused. Needs root (podman and
# debootstrap as root; installs them from Debian's packages if missing).
#
#   scripts/container-smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-localhost/tank-rules:smoke}
PORT=${PORT:-18700}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
work=$(pwd)/target/container-smoke
mkdir -p "$work"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

missing=""
for tool in podman debootstrap runc; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  echo "installing$missing (Debian packages)…" >&2
  (apt-get update -qq && apt-get install -y -qq $missing) >/dev/null
fi

# podman's settings for this test only: runc, and default ulimits within
# this machine's (its defaults ask for more open files than it allows).
cat >"$work/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]

[engine]
runtime = "runc"
CONF
export CONTAINERS_CONF="$work/containers.conf"

# make_base NAME [packages] [extra setup function]
make_base() {
  local name=$1 include=$2 setup=${3:-}
  if podman image exists "$name"; then
    echo "base image $name: present"
    return
  fi
  local started rootfs
  started=$(now)
  rootfs=$(mktemp -d "$work/rootfs.XXXXXX")
  echo "base image $name: debootstrap --variant=minbase bookworm${include:+ --include=$include}…"
  debootstrap --variant=minbase ${include:+--include="$include"} bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; exit 1; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  [ -n "$setup" ] && "$setup" "$rootfs"
  tar -C "$rootfs" -c . | podman import \
    --change 'ENV PATH=/usr/local/cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["/bin/bash"]' - "$name" >/dev/null
  rm -rf "$rootfs"
  echo "base image $name: made in $(since "$started")"
}

# The builder gets this machine's toolchain (rustup's download server is not
# reachable) and CA certificates (to reach crates.io as this machine does).
add_toolchain() {
  local rootfs=$1 toolchain
  toolchain=$(rustc --print sysroot)
  mkdir -p "$rootfs/usr/local/rust" "$rootfs/usr/local/cargo/bin"
  cp -a "$toolchain/bin" "$toolchain/lib" "$rootfs/usr/local/rust/"
  ln -s /usr/local/rust/bin/cargo /usr/local/rust/bin/rustc "$rootfs/usr/local/cargo/bin/"
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
}

make_base docker.io/library/debian:bookworm-slim ""
make_base docker.io/library/rust:1-bookworm gcc,libc6-dev,ca-certificates add_toolchain

started=$(now)
echo "building $IMAGE (podman build --pull=never)…"
# The host's network: the build reaches crates.io as this machine does.
podman build --pull=never --network=host -t "$IMAGE" . >"$work/build.log" 2>&1 \
  || { tail -30 "$work/build.log"; exit 1; }
build_time=$(since "$started")
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
echo "built in $build_time; image size $((size / 1024 / 1024)) MiB"

podman rm -f tank-rules-smoke >/dev/null 2>&1 || true
started=$(now)
podman run -d --name tank-rules-smoke --read-only --user 10001:10001 --network=host \
  -e TANK_RULES_ADDR="127.0.0.1:$PORT" "$IMAGE" >/dev/null
cleanup() { podman rm -f tank-rules-smoke >/dev/null 2>&1 || true; }
trap cleanup EXIT
for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.05; done
echo "serving after $(since "$started")"

status=0
check() { # name expected-status method path [body]
  local code
  if [ -n "${5:-}" ]; then
    code=$(curl -s -o /dev/null -w '%{http_code}' -X "$3" "127.0.0.1:$PORT$4" -H 'content-type: application/json' -d "$5")
  else
    code=$(curl -s -o /dev/null -w '%{http_code}' -X "$3" "127.0.0.1:$PORT$4")
  fi
  if [ "$code" = "$2" ]; then echo "  ok   $1: $code"; else echo "  FAIL $1: $code (expected $2)"; status=1; fi
}
START='ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0'
WAR=$(curl -s "127.0.0.1:$PORT/v1/tank-war/initial")
COBI=$(curl -s "127.0.0.1:$PORT/v1/cobi-tank-wars/initial")
check healthz 200 GET /healthz
check "tank-battle apply" 200 POST /v1/tank-battle/apply "{\"position\":\"$START\",\"move\":\"k4-k9\"}"
check "tank-war ai-move" 200 POST /v1/tank-war/ai-move "{\"state\":$WAR,\"player\":\"U\",\"limits\":{\"max_depth\":2}}"
check "cobi-tank-wars score" 200 POST /v1/cobi-tank-wars/score "{\"state\":$COBI}"
user=$(podman exec tank-rules-smoke id -u 2>/dev/null || podman inspect --format '{{.Config.User}}' tank-rules-smoke)
echo "  runs as uid $user, read-only root: $(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' tank-rules-smoke)"

started=$(now)
podman stop -t 35 tank-rules-smoke >/dev/null
stopped=$(since "$started")
exit_code=$(podman inspect --format '{{.State.ExitCode}}' tank-rules-smoke)
echo "stopped by SIGTERM in $stopped (grace 35 s), exit code $exit_code"
[ "$exit_code" = 0 ] || status=1
[ "$status" = 0 ] && echo "OK" || echo "FAIL"
exit "$status"
