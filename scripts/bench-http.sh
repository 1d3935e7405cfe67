#!/usr/bin/env bash
# HTTP benchmark: the service's endpoints against a hello-world actix-web
# JSON endpoint (the ceiling), same machine, same load tool, same run.
# Separates the framework (`GET /healthz`), the `/v1` layers (a constant
# `GET /v1/tank-battle/initial`) and the endpoints. Every target is
# measured ROUNDS times, the rounds interleaved, each run right after a
# hello run (and the before build's, with BEFORE); the table gives the
# medians of the pairs' ratios, so neither one noisy run nor a machine
# whose speed drifts over minutes can decide.
# With BEFORE=<binary>, that build runs too, on its own port, each target
# measured right after the current build's, and the table adds after/before.
# Loopback only; each wrk run is bounded by DURATION.
#
#   scripts/bench-http.sh                       # 3 rounds of 5 s per target, 64 connections
#   ROUNDS=5 DURATION=10s scripts/bench-http.sh
#   BEFORE=/tmp/tank-rules-old scripts/bench-http.sh   # before/after, same run
#   BIN=/tmp/tank-rules-new BEFORE=/tmp/tank-rules-old scripts/bench-http.sh   # two kept builds
#   ACCEPT_ENCODING='gzip, br' scripts/bench-http.sh   # as a browser asks
#   TARGETS="healthz initial score" scripts/bench-http.sh
#   PIN=1 scripts/bench-http.sh                 # servers on core 0, wrk on core 1
#
# PIN=1 keeps the servers (one worker each) and wrk (one thread) off each
# other's core: a two-core machine shared by both measures a few percent
# of change in noise otherwise (see BENCHMARKS.md, "Pinned runs").
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-64}
PIN=${PIN:-0}
if [ "$PIN" = 1 ]; then
  serve=(taskset -c 0)
  load=(taskset -c 1)
  THREADS=${THREADS:-1}
  WORKERS=1
else
  serve=()
  load=()
  THREADS=${THREADS:-2}
  WORKERS=$(nproc)
fi
PORT=${PORT:-18180}
HELLO_PORT=${HELLO_PORT:-18181}
BEFORE_PORT=${BEFORE_PORT:-18182}
TARGETS=${TARGETS:-healthz initial validate score legal-moves apply ai-move}
SERVER_FLAGS=${SERVER_FLAGS:-}

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)…" >&2
  (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
BIN=${BIN:-}
if [ -n "$BIN" ]; then
  cargo build --release --quiet --example hello
else
  cargo build --release --quiet --bin tank-rules --example hello
  BIN=./target/release/tank-rules
fi

work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# shellcheck disable=SC2086 # flags are words
"${serve[@]}" "$BIN" --addr "127.0.0.1:$PORT" $SERVER_FLAGS >"$work/server.log" 2>&1 &
server=$!
pids+=("$server")
"${serve[@]}" ./target/release/examples/hello "127.0.0.1:$HELLO_PORT" >/dev/null 2>&1 &
pids+=($!)
builds=(after)
if [ -n "${BEFORE:-}" ]; then
  # shellcheck disable=SC2086
  "${serve[@]}" "$BEFORE" --addr "127.0.0.1:$BEFORE_PORT" $SERVER_FLAGS >"$work/before.log" 2>&1 &
  pids+=($!)
  builds=(before after)
fi
port_of() { [ "$1" = before ] && echo "$BEFORE_PORT" || echo "$PORT"; }
for _ in $(seq 50); do
  curl -sf "127.0.0.1:$PORT/healthz" >/dev/null && curl -s -o /dev/null "127.0.0.1:$HELLO_PORT/" && break
  sleep 0.1
done
[ -z "${BEFORE:-}" ] || for _ in $(seq 50); do curl -sf "127.0.0.1:$BEFORE_PORT/healthz" >/dev/null && break; sleep 0.1; done

rss_idle=$(awk '/VmRSS/ {print $2, $3}' "/proc/$server/status")

# shellcheck source=scripts/cheap-targets.sh
. scripts/cheap-targets.sh
script() { # name method path [json]
  {
    echo "wrk.method = \"$2\""
    echo "wrk.path = \"$3\""
    if [ -n "${4:-}" ]; then
      echo 'wrk.headers["Content-Type"] = "application/json"'
      echo "wrk.body = [[$4]]"
    fi
    if [ -n "${ACCEPT_ENCODING:-}" ]; then
      echo "wrk.headers[\"Accept-Encoding\"] = \"$ACCEPT_ENCODING\""
    fi
  } >"$work/$1.lua"
}
cheap_targets script
# Warm the AI caches so that the runs measure cached answers.
for build in "${builds[@]}"; do
  curl -s -o /dev/null "127.0.0.1:$(port_of "$build")/v1/tank-battle/ai-move" \
    -H 'content-type: application/json' --data-binary "$AI_BODY"
done

# run ROUND BUILD TARGET PORT -> appends "round build target rps p99_us non2xx"
run() {
  local out rps p99 bad
  out=$("${load[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/${3%%:*}.lua" "http://127.0.0.1:$4")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  echo "$1 $2 $3 ${rps:-0} ${p99:-?} ${bad:-0}" >>"$work/results"
}

# Hello runs right before each target, so that each target's ratio to it
# is taken within seconds (a shared machine's speed drifts over minutes).
# With BEFORE, the two builds take turns at running first.
for round in $(seq "$ROUNDS"); do
  order=("${builds[@]}")
  if [ "${#builds[@]}" -eq 2 ] && [ $((round % 2)) -eq 0 ]; then order=(after before); fi
  for target in $TARGETS; do
    run "$round" hello "hello:$target" "$HELLO_PORT"
    for build in "${order[@]}"; do
      run "$round" "$build" "$target" "$(port_of "$build")"
    done
  done
  echo "round $round of $ROUNDS done" >&2
done

python3 - "$work/results" "$TARGETS" "${BEFORE:+before}" "$WORKERS" <<'PY'
import statistics, sys
path, targets, has_before = sys.argv[1], sys.argv[2].split(), sys.argv[3] == "before"
workers = int(sys.argv[4])
rows = [line.split() for line in open(path)]
def micros(text):
    for unit, scale in (("us", 1), ("ms", 1000), ("s", 1_000_000)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float("nan")
def runs(build, target):
    """Each round's (requests/s, p99 µs, non-2xx) of a build on a target."""
    return {r[0]: (float(r[3]), micros(r[4]), int(r[5]))
            for r in rows if r[1] == build and r[2] == target}
def median(values):
    return statistics.median(values)
hello_all = [r for r in rows if r[1] == "hello"]
hello_rps = median(float(r[3]) for r in hello_all)
hello_p99 = median(micros(r[4]) for r in hello_all)
rounds = len({r[0] for r in hello_all})
print(f"hello (the ceiling): {hello_rps:,.0f} requests/s, p99 {hello_p99:.0f} µs "
      f"(median of its {len(hello_all)} runs, {rounds} rounds)")
header = (f"{'target':<12} {'requests/s':>11} {'p99 µs':>8} {'vs hello':>9} "
          f"{'p99/hello':>10} {'µs more':>8}")
if has_before:
    header += f" {'before':>11} {'after/before':>13}"
print(header)
for target in targets:
    after, hello = runs("after", target), runs("hello", f"hello:{target}")
    # Ratios pair by pair (each run against the hello run just before it),
    # then their median.
    ratio = median(after[k][0] / hello[k][0] for k in after)
    p99_ratio = median(after[k][1] / hello[k][1] for k in after)
    rps, p99 = median(v[0] for v in after.values()), median(v[1] for v in after.values())
    # The workers serve at once: a request's cost is workers / throughput.
    more = median(workers * 1e6 / after[k][0] - workers * 1e6 / hello[k][0] for k in after)
    bad = sum(v[2] for v in after.values())
    line = (f"{target:<12} {rps:>11,.0f} {p99:>8.0f} {ratio:>9.2f} "
            f"{p99_ratio:>10.2f} {more:>+8.1f}")
    if has_before:
        before = runs("before", target)
        line += (f" {median(v[0] for v in before.values()):>11,.0f}"
                 f" {median(after[k][0] / before[k][0] for k in after):>13.2f}")
        bad += sum(v[2] for v in before.values())
    if bad:
        line += f"  ({bad} non-2xx)"
    print(line)
print("vs hello, p99/hello, µs more and after/before: medians of the rounds' ratios, "
      "each run against the one just before it")
PY
rss=$(awk '/VmRSS/ {print $2, $3}' "/proc/$server/status")
peak=$(awk '/VmHWM/ {print $2, $3}' "/proc/$server/status")
echo "server RSS: $rss_idle idle, $rss after the runs, $peak peak"
echo "machine: $(nproc) cores; ${WORKERS} worker(s) a server$([ "$PIN" = 1 ] && echo ', servers on core 0, wrk on core 1'); wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds${SERVER_FLAGS:+; server flags: $SERVER_FLAGS}"
