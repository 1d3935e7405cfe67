#!/usr/bin/env bash
# What each optional layer costs a cheap request: the same release binary
# run in several configurations at once (no quota; a quota counted by the
# replica; a quota counted in Redis; API keys; the access log, written to
# a file; the plain server asked with the client's own X-Request-Id),
# each measured with wrk on
# `POST /v1/tank-battle/score`, alternately, ROUNDS rounds; prints the
# median requests/s and p99 of each, its ratio to the plain server's and
# the cost per request in microseconds (2 workers, so 2 requests are served
# at once: cost = 2 / rps - 2 / plain rps). Loopback only; bounded by
# ROUNDS x configurations x DURATION.
#
#   scripts/bench-layers.sh                      # 6 rounds (each configuration first once)
#   ROUNDS=12 DURATION=10s scripts/bench-layers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-6}
DURATION=${DURATION:-8s}
CONNECTIONS=${CONNECTIONS:-64}
BASE=${BASE:-18700}

for tool in wrk redis-server; do
  command -v "$tool" >/dev/null || {
    echo "installing wrk and redis-server (Debian packages)…" >&2
    (apt-get update -qq && apt-get install -y -qq wrk redis-server) >/dev/null
    break
  }
done
cargo build --release --quiet --bin tank-rules

work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

redis-server --port "$((BASE + 99))" --bind 127.0.0.1 --save '' --appendonly no --loglevel warning \
  >"$work/redis.log" 2>&1 &
pids+=($!)
printf '{"keys":[{"key":"bench-key","name":"bench"}]}\n' >"$work/keys.json"

# name and flags of each configuration; the first is the baseline. The
# last is the plain server again, asked with the client's own
# X-Request-Id (kept, where the others have one generated).
names=(plain quota quota+redis keys access-log client-id)
flags=(
  ""
  "--rate-limit-per-minute 1000000000"
  "--rate-limit-per-minute 1000000000 --redis-url redis://127.0.0.1:$((BASE + 99))/0 --redis-secret bench-layers-secret-0123456789"
  "--api-keys-file $work/keys.json"
  "--access-log"
  ""
)
for i in "${!names[@]}"; do
  # shellcheck disable=SC2086 # flags are words
  ./target/release/tank-rules --addr "127.0.0.1:$((BASE + i))" --workers 2 ${flags[$i]} \
    >"$work/server$i.log" 2>&1 &
  pids+=($!)
done
for i in "${!names[@]}"; do
  for _ in $(seq 50); do curl -sf "127.0.0.1:$((BASE + i))/healthz" >/dev/null && break; sleep 0.1; done
done

START='ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0'
cat >"$work/score.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Api-Key"] = "bench-key"
wrk.body = [[{"position":"$START"}]]
LUA
{ cat "$work/score.lua"; echo 'wrk.headers["X-Request-Id"] = "lb-4f2a9c:1837"'; } >"$work/client-id.lua"
script_of() { [ "${names[$1]}" = client-id ] && echo "$work/client-id.lua" || echo "$work/score.lua"; }

# Each round starts one configuration further on, so that none is always
# measured first (a shared machine's speed drifts within a round).
for round in $(seq "$ROUNDS"); do
  for k in "${!names[@]}"; do
    i=$(((k + round) % ${#names[@]}))
    out=$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$(script_of "$i")" \
      "http://127.0.0.1:$((BASE + i))/v1/tank-battle/score")
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
    p99=$(awk '$1=="99%" {print $2}' <<<"$out")
    bad=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
    echo "$i $rps $p99 ${bad:-0}" >>"$work/results"
    echo "round $round ${names[$i]}: $rps requests/s, p99 $p99, non-2xx ${bad:-0}" >&2
  done
done

python3 - "$work/results" "${names[@]}" <<'PY'
import statistics, sys
path, names = sys.argv[1], sys.argv[2:]
rows = [line.split() for line in open(path)]
def micros(text):
    units = {"us": 1, "ms": 1000, "s": 1_000_000}
    for unit in ("us", "ms", "s"):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * units[unit]
    return float("nan")
rps = {i: [float(r[1]) for r in rows if int(r[0]) == i] for i in range(len(names))}
p99 = {i: [micros(r[2]) for r in rows if int(r[0]) == i] for i in range(len(names))}
bad = sum(int(r[3]) for r in rows)
base = statistics.median(rps[0])
print(f"{'configuration':<14} {'requests/s':>11} {'p99 µs':>8} {'vs plain':>9} {'µs a request':>13}")
for i, name in enumerate(names):
    median = statistics.median(rps[i])
    cost = 2e6 / median - 2e6 / base
    print(f"{name:<14} {median:>11.0f} {statistics.median(p99[i]):>8.0f} {median / base:>9.2f} {cost:>+13.1f}")
print(f"medians of {len(rps[0])} rounds, alternating; non-2xx answers: {bad}")
PY
