#!/usr/bin/env bash
# The board's browser test (issue 54): Debian's Chromium (installed from
# Debian's packages when missing) driven by playwright-core through real
# input events, with axe-core, both pinned in tests/browser/package-lock.json
# (from npm; no browser download), against a release build on loopback.
# Screenshots are kept under target/board-test/. Fails when it cannot run.
#
#   scripts/board-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
fi
[ -x /usr/bin/chromium ] || { echo "FAIL: Debian's chromium could not be installed"; exit 1; }
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
cargo build --release --quiet --bin tank-rules

shots=target/board-test
mkdir -p "$shots"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
./target/release/tank-rules --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

node tests/browser/board.mjs "http://127.0.0.1:$port" "$shots"
