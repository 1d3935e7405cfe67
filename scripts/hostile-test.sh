#!/usr/bin/env bash
# Hostile-client test (issue 12): starts the service (scripts/service.sh) with default
# flags on a loopback port, and its admin port (--admin-addr) beside it, and
# runs scripts/hostile.py against it: slow bodies, 4,000 unfinished maximal
# heads (issue 50), replay amplification, AI cache filling, abandoned
# searches, a batch of long searches, maximal reviews, protocol corner
# cases; batches over the answer cap, readers and bodies that stall,
# echoes of what was sent, Swagger UI's and the board's assets, all at once
# (issue 71). Each attack's peak RSS and the admin port's /healthz
# meanwhile; idle RSS after the run against idle at start.
# Loopback only; bounded (about six minutes).
#
#   scripts/hostile-test.sh
#   SLOW=4000 scripts/hostile-test.sh     # more slow-body connections
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18183}
ADMIN_PORT=${ADMIN_PORT:-$((PORT + 1))}
SLOW=${SLOW:-2000}
HEADS=${HEADS:-4000}
. scripts/service.sh tank-rules

work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# The client needs a file per slow connection too.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
"$bin_dir/tank-rules" --addr "127.0.0.1:$PORT" --admin-addr "127.0.0.1:$ADMIN_PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && curl -sf "127.0.0.1:$ADMIN_PORT/healthz" >/dev/null && break
  sleep 0.1
done
slots=$(nproc)
review_slots=$(( slots / 2 > 0 ? slots / 2 : 1 ))
# The connection cap the server settled on (its memory budget, its
# open-files limit), from its log.
cap=$(grep -oE 'max_connections=[0-9]+|allowed=[0-9]+' "$work/server.log" | tail -1 | cut -d= -f2)
status=0
python3 scripts/hostile.py --port "$PORT" --admin-port "$ADMIN_PORT" --pid "$server" --slow "$SLOW" --slots "$slots" \
  --review-slots "$review_slots" --heads "$HEADS" --max-connections "${cap:-4096}" \
  | tee "$work/hostile.out" || status=$?
if ! kill -0 "$server" 2>/dev/null; then
  echo "FAIL: the server died"; tail -20 "$work/server.log"; exit 1
fi
errors=$(grep -c -i -E 'panick|too many open files' "$work/server.log" || true)
echo "server log: ${errors} panics or 'too many open files'"
[ "$errors" = 0 ] || status=1
passed=$(grep -c '^PASS' "$work/hostile.out" || true)
failed=$(grep -c '^FAIL' "$work/hostile.out" || true)
peak=$(grep -o 'peak [0-9]* kB' "$work/hostile.out" | head -1)
echo "hostile-test: $([ "$status" = 0 ] && echo PASS || echo FAIL) — $passed checks passed, $failed failed; server RSS $peak; $errors panics"
exit "$status"
