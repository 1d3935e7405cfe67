#!/usr/bin/env bash
# The Tank War's exact AI over HTTP (issue 23): starts the service
# (scripts/service.sh) with default flags on a loopback port, notes its
# memory at start, then runs the checker (engines/src/bin/tank_war_exact_check.rs):
# ai-move at the default limits (or MAX_TIME_MS) for both players from the
# start, the illustration's rounds and 1,000 positions of random
# playouts, each answer checked exact and an equilibrium against a solve
# of the whole game made by the checker without the server's table;
# latency of the first request and p50/p99. About 3 minutes and 2 GB
# (the checker's solve).
#
#   scripts/tank-war-exact.sh
#   POSITIONS=3000 scripts/tank-war-exact.sh
#   MAX_TIME_MS=1000 scripts/tank-war-exact.sh   # ai-move's max_time_ms
#
# An answer is exact when the game from its position is solved in half of
# ai-move's time. The test profile's build (TANK_RULES_PROFILE=test, as CI
# runs it) solves about 1.6 times slower than the release build (the
# checker's whole-game solve: 217 s against 138 s), and at the default
# 200 ms one position of the 1,006 was not solved in time there
# (2026-11-29); it is asked with 1 s. The release build at the default
# limits is issue 23's figure (BENCHMARKS, "The Tank War solved").
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-18187}
POSITIONS=${POSITIONS:-1000}
[ "${TANK_RULES_PROFILE:-release}" = test ] && MAX_TIME_MS=${MAX_TIME_MS:-1000}
. scripts/service.sh tank-rules tank_war_exact_check

work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$bin_dir/tank-rules" --addr "127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
rss() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$server/status"; }
echo "server RSS at start: $(rss VmRSS) kB"
status=0
"$bin_dir/tank_war_exact_check" --addr "127.0.0.1:$PORT" --positions "$POSITIONS" \
  ${MAX_TIME_MS:+--max-time-ms "$MAX_TIME_MS"} \
  | tee "$work/check.out" || status=$?
echo "server RSS after: $(rss VmRSS) kB, peak $(rss VmHWM) kB"
exit "$status"
