#!/usr/bin/env bash
# Hostile-client test (issue 12): starts the service (scripts/service.sh) with default
# flags on a loopback port, and its admin port (--admin-addr) beside it, the
# shipped HAProxy (deploy/haproxy/haproxy.cfg) in front of it, and runs
# scripts/hostile.py against them: slow bodies, 2,000 unfinished 100 KB
# heads on the bare server and 1,000 through the proxy (issues 50, 74), replay amplification, AI cache filling, abandoned
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
PROXY_PORT=${PROXY_PORT:-$((PORT + 2))}
HEADS=${HEADS:-2000}
. scripts/service.sh tank-rules
if ! command -v haproxy >/dev/null; then
  echo "installing haproxy (Debian package)…" >&2
  (apt-get update -qq && apt-get install -y -qq haproxy) >/dev/null
fi

work=$(mktemp -d)
cleanup() { kill "${server:-}" "${proxy:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# The client needs a file per slow connection too.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
"$bin_dir/tank-rules" --addr "127.0.0.1:$PORT" --admin-addr "127.0.0.1:$ADMIN_PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && curl -sf "127.0.0.1:$ADMIN_PORT/healthz" >/dev/null && break
  sleep 0.1
done
# The project's HAProxy configuration, its three servers all this one.
LB_ADDR="127.0.0.1:$PROXY_PORT" REPLICA_1="127.0.0.1:$PORT" REPLICA_2="127.0.0.1:$PORT" \
  REPLICA_3="127.0.0.1:$PORT" haproxy -f deploy/haproxy/haproxy.cfg -db >"$work/haproxy.log" 2>&1 &
proxy=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$PROXY_PORT/readyz" >/dev/null && break; sleep 0.1; done
slots=$(nproc)
review_slots=$(( slots / 2 > 0 ? slots / 2 : 1 ))
# The connection cap the server settled on (its memory budget, its
# open-files limit), from its log.
cap=$(grep -oE 'max_connections=[0-9]+|allowed=[0-9]+' "$work/server.log" | tail -1 | cut -d= -f2)
status=0
python3 scripts/hostile.py --port "$PORT" --admin-port "$ADMIN_PORT" --pid "$server" --slow "$SLOW" --slots "$slots" \
  --review-slots "$review_slots" --heads "$HEADS" --max-connections "${cap:-4096}" --proxy-port "$PROXY_PORT" \
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
