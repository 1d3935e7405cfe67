#!/usr/bin/env bash
# HTTP benchmark: the service's endpoints against a hello-world actix-web
# JSON endpoint (the ceiling), same machine, same load tool, same run.
# Loopback only; each wrk run is bounded by DURATION.
#
#   scripts/bench-http.sh              # 10 s per endpoint, 64 connections
#   DURATION=5s CONNECTIONS=32 scripts/bench-http.sh
#   ACCEPT_ENCODING='gzip, br' scripts/bench-http.sh   # as a browser asks
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
PORT=${PORT:-18180}
HELLO_PORT=${HELLO_PORT:-18181}

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)…" >&2
  (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
cargo build --release --quiet --bin tank-rules --example hello

work=$(mktemp -d)
cleanup() { kill "${server:-}" "${hello:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

./target/release/tank-rules --addr "127.0.0.1:$PORT" >"$work/server.log" 2>&1 &
server=$!
./target/release/examples/hello "127.0.0.1:$HELLO_PORT" >/dev/null 2>&1 &
hello=$!
for _ in $(seq 50); do
  curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && curl -s -o /dev/null "127.0.0.1:$HELLO_PORT/" && break
  sleep 0.1
done

rss_idle=$(awk '/VmRSS/ {print $2, $3}' "/proc/$server/status")

START='ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0'
body() { # name json
  cat >"$work/$1.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[$2]]
LUA
  if [ -n "${ACCEPT_ENCODING:-}" ]; then
    echo "wrk.headers[\"Accept-Encoding\"] = \"$ACCEPT_ENCODING\"" >>"$work/$1.lua"
  fi
}
body hello '{"name":"tank"}'
body legal-moves "{\"position\":\"$START\"}"
body apply "{\"position\":\"$START\",\"move\":\"k4-k9\"}"
body score "{\"position\":\"$START\"}"
body ai-move "{\"position\":\"$START\",\"limits\":{\"max_depth\":3},\"seed\":1}"
# Warm the AI cache so that the run measures cached answers.
curl -s -o /dev/null "127.0.0.1:$PORT/v1/tank-battle/ai-move" -H 'content-type: application/json' --data-binary "{\"position\":\"$START\",\"limits\":{\"max_depth\":3},\"seed\":1}"

# run NAME URL -> prints "NAME rps p50 p99 non2xx"
run() {
  local out
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/$1.lua" "$2")
  local rps p50 p99 bad
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  echo "$1 ${rps:-0} ${p50:-?} ${p99:-?} ${bad:-0}"
}

printf '%-14s %12s %10s %10s %8s %9s\n' endpoint 'requests/s' p50 p99 non-2xx 'vs hello'
ceiling=$(run hello "http://127.0.0.1:$HELLO_PORT/hello")
read -r _ hello_rps p50 p99 bad <<<"$ceiling"
printf '%-14s %12s %10s %10s %8s %9s\n' hello "$hello_rps" "$p50" "$p99" "$bad" 1.00
for endpoint in legal-moves apply score ai-move; do
  read -r _ rps p50 p99 bad <<<"$(run "$endpoint" "http://127.0.0.1:$PORT/v1/tank-battle/$endpoint")"
  ratio=$(awk -v a="$rps" -v b="$hello_rps" 'BEGIN { printf "%.2f", a / b }')
  printf '%-14s %12s %10s %10s %8s %9s\n' "$endpoint" "$rps" "$p50" "$p99" "$bad" "$ratio"
done
rss=$(awk '/VmRSS/ {print $2, $3}' "/proc/$server/status")
peak=$(awk '/VmHWM/ {print $2, $3}' "/proc/$server/status")
echo "server RSS: $rss_idle idle, $rss after the runs, $peak peak (AI cache: $(grep -o 'CacheConfig { max_bytes: [0-9]*' "$work/server.log" | head -1 | grep -o '[0-9]*') bytes)"
time_perft=$(curl -s -o /dev/null -w '%{time_total}' "127.0.0.1:$PORT/v1/tank-battle/perft" -H 'content-type: application/json' --data-binary "{\"position\":\"$START\",\"depth\":5}")
echo "perft(5) of the start position over HTTP: ${time_perft} s"
echo "machine: $(nproc) cores; wrk -t$THREADS -c$CONNECTIONS -d$DURATION"
