#!/usr/bin/env bash
# Load test: a bounded wrk run (loopback only, fixed duration) mixing the
# endpoints of both games, with ever-new AI requests so that the answer
# cache fills up to its capacity. Reports errors, non-2xx answers and the
# server's RSS before and after.
#
#   scripts/load-test.sh                         # 30 s, 32 connections, 32 MiB cache
#   DURATION=60s CACHE_MIB=4 scripts/load-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-30s}
CONNECTIONS=${CONNECTIONS:-32}
THREADS=${THREADS:-2}
PORT=${PORT:-18182}
CACHE_MIB=${CACHE_MIB:-32}

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)…" >&2
  (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
. scripts/service.sh tank-rules

work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$bin_dir/tank-rules" --addr "127.0.0.1:$PORT" --cache-mib "$CACHE_MIB" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
WAR=$(curl -s "127.0.0.1:$PORT/v1/tank-war/initial")
COBI=$(curl -s "127.0.0.1:$PORT/v1/cobi-tank-wars/initial")
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
before=$(rss)

cat >"$work/mix.lua" <<LUA
local start = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
local war = [[$WAR]]
local cobi = [[$COBI]]
local orders = '{"P1":{"P1-1":{"dir":"N","dist":2},"P1-2":{"dir":"E","dist":1},"P1-3":{"dir":"W","dist":3}},'
  .. '"P2":{"P2-1":{"dir":"S","dist":1},"P2-2":{"dir":"S","dist":3},"P2-3":{"dir":"E","dist":2}}}'
local n = 0
local mix = {
  function() return "/v1/tank-battle/legal-moves", '{"position":"' .. start .. '"}' end,
  function() return "/v1/tank-battle/validate", '{"position":"' .. start .. '","move":"k4-k9"}' end,
  function() return "/v1/tank-battle/apply", '{"position":"' .. start .. '","move":"j4-j5"}' end,
  function() return "/v1/tank-battle/score", '{"position":"' .. start .. '"}' end,
  function() return "/v1/tank-battle/replay", '{"moves":["k4-k5","a8-a7","k5-k6"]}' end,
  function() return "/v1/tank-battle/perft", '{"position":"' .. start .. '","depth":2}' end,
  -- A new seed each time: a search (depth 1) and a new cache entry.
  function() return "/v1/tank-battle/ai-move", '{"position":"' .. start .. '","limits":{"max_depth":1},"seed":' .. n .. '}' end,
  function() return "/v1/tank-war/legal-moves", '{"state":' .. war .. '}' end,
  function() return "/v1/tank-war/apply", '{"state":' .. war .. ',"moves":{"U":"LA","D":"RC"}}' end,
  function() return "/v1/tank-war/ai-move", '{"state":' .. war .. ',"player":"U","limits":{"max_depth":1},"seed":' .. n .. '}' end,
  function() return "/v1/cobi-tank-wars/apply", '{"state":' .. cobi .. ',"orders":' .. orders .. ',"seed":' .. n .. '}' end,
  function() return "/v1/cobi-tank-wars/ai-move", '{"state":' .. cobi .. ',"player":"P2","limits":{"max_nodes":2000},"seed":' .. n .. '}' end,
  function() return "/v1/tank-battle/batch", '{"requests":[{"op":"score","position":"' .. start .. '"},{"op":"validate","position":"' .. start .. '","move":"k4-k9"}]}' end,
  function() return "GET", "/v1/tank-battle/render.svg?moves_from=j4" end,
  function() return "GET", "/metrics" end,
}
request = function()
  n = n + 1
  local path, body = mix[(n % #mix) + 1]()
  if path == "GET" then
    return wrk.format("GET", body)
  end
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end

-- Answers counted by status, per thread, summed at the end.
local threads = {}
setup = function(thread) table.insert(threads, thread) end
statuses = {}
response = function(status) statuses[status] = (statuses[status] or 0) + 1 end
done = function()
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
  end
  for status, count in pairs(total) do
    io.write(string.format("status %d: %d\n", status, count))
  end
end
LUA

echo "server RSS before: ${before} kB (AI answer cache: $CACHE_MIB MiB)"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/mix.lua" "http://127.0.0.1:$PORT" | tee "$work/wrk.txt"
after=$(rss)
peak=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
echo "server RSS after: ${after} kB (peak ${peak} kB)"
health=$(curl -s -o /dev/null -w '%{http_code}' "127.0.0.1:$PORT/healthz")
echo "healthz after the run: $health"
sleep "${SETTLE:-12}"
echo "server RSS ${SETTLE:-12} s after the run: $(rss) kB"
# 503 is the designed answer when every search slot stays taken for the
# whole wait; anything else but 200 is a failure.
unexpected=$(awk '/^status / && $2 != "200:" && $2 != "503:" {print}' "$work/wrk.txt")
busy=$(awk '$1 == "status" && $2 == "503:" {print $3}' "$work/wrk.txt")
errors=$(awk '/Socket errors/ {print}' "$work/wrk.txt")
if [ -n "$unexpected" ] || [ -n "$errors" ] || [ "$health" != 200 ]; then
  echo "FAIL: ${unexpected:-no unexpected status}; ${errors:-no socket errors}; healthz $health"
  exit 1
fi
echo "OK: no status but 200 and 503 (busy: ${busy:-0}), zero socket errors"
