#!/usr/bin/env bash
# The conformance runner (issue 53) against the service (scripts/service.sh) on a loopback
# port, for each game with a corpus: with the service adapter every case
# passes; with the adapter that breaks a rule the runner fails, naming the
# rule's tag and its first case (Tank Battle `mine`, The Tank War `pick`,
# Tank Wars `orders`); and Tank Battle's end-policy corpus passes with the
# service adapter. About 15 seconds.
#
#   scripts/conformance-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18188}
. scripts/service.sh tank-rules

work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$bin_dir/tank-rules" --addr "127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

base="http://127.0.0.1:$PORT"
failed=0
declare -A BROKEN=([tank-battle]=mine:illegal-mine- [tank-war]=pick:illegal-end-of-track-
  [cobi-tank-wars]=orders:illegal-bad-distance-)
for game in tank-battle tank-war cobi-tank-wars; do
  tag=${BROKEN[$game]%%:*} first=${BROKEN[$game]#*:}
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
  if [ "$status" -eq 1 ] && grep -q "^FAIL $first" "$work/broken.out" &&
    tail -n 1 "$work/broken.out" | grep -q "failing tags: .*$tag (first: $first"; then
    echo "PASS $game: the broken adapter fails, naming the $tag tag and its first case"
  else
    echo "FAIL $game: the broken adapter was not named (exit $status)"
    cat "$work/broken.out"
    failed=1
  fi
done
# Tank Battle under an end policy (issue 73): its own corpus, every case with
# `rules`, the repetition rule through `replay`.
if python3 conformance/run.py --corpus conformance/tank-battle/end-policy.jsonl \
  -- conformance/adapters/service.py "$base" | tee "$work/service.out"; then
  echo "PASS tank-battle/end-policy: the service adapter passes every case"
else
  echo "FAIL tank-battle/end-policy: the service adapter failed"
  failed=1
fi
if [ "$failed" -ne 0 ]; then
  echo "conformance-test: FAIL"
  exit 1
fi
echo "conformance-test: PASS"
