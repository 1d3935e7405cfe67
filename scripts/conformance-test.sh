#!/usr/bin/env bash
# The conformance runner (issue 53) against a release build on a loopback
# port: with the service adapter every case passes; with the adapter that
# breaks a rule the runner fails, naming the `mine` tag and its first case.
# About 15 seconds.
#
#   scripts/conformance-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18188}
cargo build --release --quiet --bin tank-rules

work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

./target/release/tank-rules --addr "127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

base="http://127.0.0.1:$PORT"
failed=0
for game in tank-battle; do
  corpus="conformance/$game/corpus.jsonl"
  if python3 conformance/run.py --corpus "$corpus" -- conformance/adapters/service.py "$base" \
    | tee "$work/service.out"; then
    echo "PASS $game: the service adapter passes every case"
  else
    echo "FAIL $game: the service adapter failed"
    failed=1
  fi
  status=0
  python3 conformance/run.py --corpus "$corpus" -- conformance/adapters/broken.py "$base" \
    >"$work/broken.out" || status=$?
  tail -n 1 "$work/broken.out"
  if [ "$status" -eq 1 ] && grep -q '^FAIL illegal-mine-' "$work/broken.out" &&
    tail -n 1 "$work/broken.out" | grep -q 'failing tags: mine (first: illegal-mine-'; then
    echo "PASS $game: the broken adapter fails, naming the mine tag and its first case"
  else
    echo "FAIL $game: the broken adapter was not named (exit $status)"
    cat "$work/broken.out"
    failed=1
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "conformance-test: FAIL"
  exit 1
fi
echo "conformance-test: PASS"
