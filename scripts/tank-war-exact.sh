#!/usr/bin/env bash
# The Tank War's exact AI over HTTP (issue 23): starts a release build
# with default flags on a loopback port, notes its memory at start, then
# runs the checker (src/bin/tank_war_exact_check.rs): ai-move at the
# default limits for both players from the start, the illustration's
# rounds and 1,000 positions of random playouts, each answer checked
# exact and an equilibrium against a solve of the whole game made by the
# checker without the server's table; latency of the first request and
# p50/p99. About 3 minutes and 2 GB (the checker's solve).
#
#   scripts/tank-war-exact.sh
#   POSITIONS=3000 scripts/tank-war-exact.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18187}
POSITIONS=${POSITIONS:-1000}
cargo build --release --quiet --bin tank-rules --bin tank_war_exact_check

work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

./target/release/tank-rules --addr "127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
rss() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$server/status"; }
echo "server RSS at start: $(rss VmRSS) kB"
status=0
./target/release/tank_war_exact_check --addr "127.0.0.1:$PORT" --positions "$POSITIONS" \
  | tee "$work/check.out" || status=$?
echo "server RSS after: $(rss VmRSS) kB, peak $(rss VmHWM) kB"
exit "$status"
