#!/usr/bin/env bash
# The board's browser test (issue 54): Debian's Chromium (installed from
# Debian's packages when missing) driven by playwright-core through real
# input events, with axe-core, both pinned in tests/browser/package-lock.json
# (from npm; no browser download), against the service on loopback
# (scripts/service.sh).
# Screenshots are kept under target/board-test/. Fails when it cannot run.
#
#   scripts/board-test.sh
#   scripts/board-test.sh --install-only    # Chromium and the npm packages only (CI)
#   env BOARD_SCREENSHOTS=docs/board scripts/board-test.sh   # the docs' screenshots too
set -euo pipefail
cd "$(dirname "$0")/.."

install() {
  if [ ! -x /usr/bin/chromium ]; then
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
  fi
  [ -x /usr/bin/chromium ] || { echo "FAIL: Debian's chromium could not be installed"; exit 1; }
  if [ ! tests/browser/node_modules/.package-lock.json -nt tests/browser/package-lock.json ]; then
    (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
}
install
[ "${1:-}" != --install-only ] || exit 0
. scripts/service.sh tank-rules

shots=target/board-test
mkdir -p "$shots"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
cleanup() { kill "${server:-}" "${keyed_server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$bin_dir/tank-rules" --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server=$!
# A second server that asks for API keys, with a quota of 8 requests a
# minute for the page's key: the key box, then a 429 as a message.
keyed=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
key=board-test-key-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
printf '{"keys":[{"key":"%s","name":"board","requests_per_minute":8}]}' "$key" >"$work/keys.json"
"$bin_dir/tank-rules" --addr "127.0.0.1:$keyed" --api-keys-file "$work/keys.json" >"$work/keyed.log" 2>&1 &
keyed_server=$!
for p in "$port" "$keyed"; do
  for _ in $(seq 50); do curl -sf "127.0.0.1:$p/healthz" >/dev/null && break; sleep 0.1; done
done

node tests/browser/board.mjs "http://127.0.0.1:$port" "$shots" "http://127.0.0.1:$keyed" "$key"
# Issue 76: the board as players see it (the games drawn as render.svg
# draws them, a player's words, the AI on its turn, running clocks,
# plurals, a phone's screen, axe-core at both sizes).
node tests/browser/looks.mjs "http://127.0.0.1:$port" "$shots"
# Issue 77: a game's puzzles solved on the board, a wrong try refused.
node tests/browser/puzzles.mjs "http://127.0.0.1:$port"
# The screenshots of each view (playing, finished, reviewed; wide and a
# phone's): BOARD_SCREENSHOTS=docs/board writes the committed ones.
mkdir -p "${BOARD_SCREENSHOTS:-$shots}"
node tests/browser/screenshots.mjs "http://127.0.0.1:$port" "${BOARD_SCREENSHOTS:-$shots}"
