#!/usr/bin/env bash
# How cost grows with work: `legal-moves`, `apply` and a cached `ai-move`
# of The Tank War at 12, 48 and 128 tanks and of Tank Wars on 8×8 and
# 26×26 boards, against the hello-world actix-web JSON endpoint (the
# ceiling), same machine, same load tool, same run. Every target is
# measured ROUNDS times, the rounds interleaved (hello, then each target in
# turn, again), and the table gives medians, so one noisy run cannot decide.
#
# The states are built here from each game's `GET initial`: The Tank War at
# 12 tanks is the default state (6×6); at 48 and 128 tanks it is that setup
# grown to a square board of min(26, tanks a side) columns, the tanks a side
# in ranks from their edge (A/B/C by column as in the default), each track
# its column to the far edge. Tank Wars is the default state (8×8) and the
# same vehicles with P2 moved to row 26 of a 26×26 board. `apply` plays a
# pick (or order) that is legal; `ai-move` asks for one round of search
# (`limits.max_depth` 1, `seed` 1), warmed once so that the runs measure the
# cached answer (checked: `"cached": true`). Every body is checked to answer
# 2xx before any run, and the script stops if one does not.
#
# The server runs with 2 workers (WORKERS), so 2 requests are served at
# once: a request costs 2 / throughput, "µs a request" = 2e6 / rps, and
# "µs more" = 2e6 / rps - 2e6 / hello rps. Loopback only; each wrk run is
# bounded by DURATION (ROUNDS × 16 runs in all: hello and 15 targets).
#
#   scripts/bench-scaling.sh                    # 3 rounds of 5 s per target, 64 connections
#   ROUNDS=5 DURATION=10s scripts/bench-scaling.sh
#   TARGETS="war128-apply wars26-apply" scripts/bench-scaling.sh
#   SERVER=/tmp/tank-rules scripts/bench-scaling.sh    # that binary, no build; HELLO=<path>
#                                               # for the ceiling (else the built one if any)
set -euo pipefail
[ -z "${SERVER:-}" ] || SERVER=$(realpath "$SERVER")
[ -z "${HELLO:-}" ] || HELLO=$(realpath "$HELLO")
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
WORKERS=${WORKERS:-2}
PORT=${PORT:-18280}
HELLO_PORT=${HELLO_PORT:-18281}
SERVER_FLAGS=${SERVER_FLAGS:-}
ALL_TARGETS=""
for size in war12 war48 war128 wars8 wars26; do
  ALL_TARGETS+=" $size-legal-moves $size-apply $size-ai-move"
done
TARGETS=${TARGETS:-$ALL_TARGETS}

if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)…" >&2
  (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
if [ -z "${SERVER:-}" ]; then
  cargo build --release --quiet --bin tank-rules --example hello
  SERVER=./target/release/tank-rules
  HELLO=${HELLO:-./target/release/examples/hello}
else
  HELLO=${HELLO:-./target/release/examples/hello}
  [ -x "$HELLO" ] || { echo "no hello at $HELLO: the table leaves out the ratios to it" >&2; HELLO=""; }
fi

work=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# shellcheck disable=SC2086 # flags are words
"$SERVER" --addr "127.0.0.1:$PORT" --workers "$WORKERS" $SERVER_FLAGS >"$work/server.log" 2>&1 &
server=$!
pids+=("$server")
if [ -n "$HELLO" ]; then
  "$HELLO" "127.0.0.1:$HELLO_PORT" >/dev/null 2>&1 &
  pids+=($!)
fi
for _ in $(seq 50); do
  curl -sf "127.0.0.1:$PORT/healthz" >/dev/null \
    && { [ -z "$HELLO" ] || curl -s -o /dev/null "127.0.0.1:$HELLO_PORT/"; } && break
  sleep 0.1
done
curl -sf "127.0.0.1:$PORT/healthz" >/dev/null || { echo "the server did not start:" >&2; cat "$work/server.log" >&2; exit 1; }

rss_idle=$(awk '/VmRSS/ {print $2, $3}' "/proc/$server/status")

curl -sf "127.0.0.1:$PORT/v1/tank-war/initial" >"$work/war-initial.json"
curl -sf "127.0.0.1:$PORT/v1/cobi-tank-wars/initial" >"$work/wars-initial.json"

# The bodies, one file a target ($work/<target>.json), and "target method
# path" lines in $work/targets.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
compact = dict(separators=(",", ":"))
def square(col, row):
    return f"{chr(ord('a') + col)}{row}"

def war_state(per_side):
    """The default setup grown: per_side tanks a side on a square board."""
    n = min(26, per_side)
    tanks = []
    for owner in ("U", "D"):
        for i in range(per_side):
            rank, col = divmod(i, n)
            kind = "CABBAC"[col % 6]
            rows = range(n - rank, 0, -1) if owner == "U" else range(1 + rank, n + 1)
            tanks.append({"owner": owner, "name": f"{kind}{i + 1}", "type": kind,
                          "track": [square(col, r) for r in rows], "at": 0})
    return {"rows": n, "cols": n,
            "territory": ["U" * n] * (n // 2) + ["D" * n] * (n - n // 2),
            "tanks": tanks, "round": 0, "clock_ms": {"U": 120000, "D": 120000}}

def war_pick(state, owner):
    """The first tank of owner whose next square is free."""
    taken = {t["track"][t["at"]] for t in state["tanks"]}
    for t in state["tanks"]:
        if t["owner"] == owner and t["at"] + 1 < len(t["track"]) and t["track"][t["at"] + 1] not in taken:
            return t["name"]
    raise SystemExit(f"no legal pick for {owner}")

def wars_state(initial, n):
    """The default vehicles on an n×n board, P2's on row n."""
    state = json.loads(json.dumps(initial))
    state["cols"] = state["rows"] = n
    for v in state["vehicles"]:
        if v["owner"] == "P2":
            v["square"] = v["square"][0] + str(n)
    return state

targets = []
def target(name, path, body):
    with open(f"{work}/{name}.json", "w") as f:
        json.dump(body, f, **compact)
    targets.append(f"{name} POST {path}")

war_initial = json.load(open(f"{work}/war-initial.json"))
assert len(war_initial["tanks"]) == 12, len(war_initial["tanks"])
for tanks in (12, 48, 128):
    state = war_initial if tanks == 12 else war_state(tanks // 2)
    assert len(state["tanks"]) == tanks
    base = f"war{tanks}"
    target(f"{base}-legal-moves", "/v1/tank-war/legal-moves", {"state": state})
    moves = {"U": war_pick(state, "U"), "D": war_pick(state, "D")}
    target(f"{base}-apply", "/v1/tank-war/apply", {"state": state, "moves": moves})
    target(f"{base}-ai-move", "/v1/tank-war/ai-move",
           {"state": state, "player": "D", "limits": {"max_depth": 1}, "seed": 1})

wars_initial = json.load(open(f"{work}/wars-initial.json"))
assert wars_initial["cols"] == wars_initial["rows"] == 8, (wars_initial["cols"], wars_initial["rows"])
for n in (8, 26):
    state = wars_state(wars_initial, n)
    base = f"wars{n}"
    target(f"{base}-legal-moves", "/v1/cobi-tank-wars/legal-moves", {"state": state})
    # Every vehicle one square towards the enemy: on the board, no two meet.
    orders = {p: {v["id"]: {"dir": "N" if p == "P1" else "S", "dist": 1}
                  for v in state["vehicles"] if v["owner"] == p} for p in ("P1", "P2")}
    target(f"{base}-apply", "/v1/cobi-tank-wars/apply", {"state": state, "orders": orders, "seed": 1})
    target(f"{base}-ai-move", "/v1/cobi-tank-wars/ai-move",
           {"state": state, "player": "P1", "limits": {"max_depth": 1}, "seed": 1})

with open(f"{work}/targets", "w") as f:
    f.write("\n".join(targets) + "\n")
PY

# Each body answers 2xx (the ai-move ones twice, the second from the cache);
# "target body_bytes answer_bytes" lines in $work/sizes.
ask() { # target path -> the answer in $work/<target>.answer, its status on stdout
  curl -s -o "$work/$1.answer" -w '%{http_code}' "127.0.0.1:$PORT$2" \
    -H 'content-type: application/json' --data-binary "@$work/$1.json"
}
while read -r target method path; do
  case " $TARGETS " in *" $target "*) ;; *) continue ;; esac
  status=$(ask "$target" "$path")
  if [[ $status != 2?? ]]; then
    echo "$method $path ($target) answered $status:" >&2
    head -c 600 "$work/$target.answer" >&2
    echo >&2
    exit 1
  fi
  if [[ $target == *-ai-move ]]; then
    status=$(ask "$target" "$path")
    grep -q '"cached":true' "$work/$target.answer" || {
      echo "$target: the second answer ($status) is not from the cache:" >&2
      head -c 600 "$work/$target.answer" >&2
      echo >&2
      exit 1
    }
  fi
  {
    echo "local f = assert(io.open(\"$work/$target.json\", \"rb\"))"
    echo "wrk.method = \"$method\""
    echo "wrk.path = \"$path\""
    echo 'wrk.headers["Content-Type"] = "application/json"'
    echo 'wrk.body = f:read("*a")'
    echo 'f:close()'
  } >"$work/$target.lua"
  echo "$target $(wc -c <"$work/$target.json") $(wc -c <"$work/$target.answer")" >>"$work/sizes"
done <"$work/targets"
[ -s "$work/sizes" ] || { echo "no target in TARGETS=\"$TARGETS\"" >&2; exit 1; }
cat >"$work/hello.lua" <<'LUA'
wrk.method = "POST"
wrk.path = "/hello"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[{"name":"tank"}]]
LUA

# run ROUND TARGET PORT -> appends "round target rps p99 non2xx"
run() {
  local out rps p99 bad
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$work/$2.lua" "http://127.0.0.1:$3")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  bad=$(awk '/Non-2xx/ {print $NF}' <<<"$out")
  echo "$1 $2 ${rps:-0} ${p99:-?} ${bad:-0}" >>"$work/results"
}

for round in $(seq "$ROUNDS"); do
  [ -z "$HELLO" ] || run "$round" hello "$HELLO_PORT"
  while read -r target _ _; do
    run "$round" "$target" "$PORT"
  done <"$work/sizes"
  echo "round $round of $ROUNDS done" >&2
done

python3 - "$work/results" "$work/sizes" "$work/war-initial.json" "$WORKERS" <<'PY'
import json, statistics, sys
results, sizes, war_initial, workers = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = [line.split() for line in open(results)]
def micros(text):
    for unit, scale in (("us", 1), ("ms", 1000), ("s", 1_000_000)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float("nan")
def figures(target):
    picked = [r for r in rows if r[1] == target]
    return (statistics.median(float(r[2]) for r in picked),
            statistics.median(micros(r[3]) for r in picked),
            sum(int(r[4]) for r in picked), len(picked))
default = json.load(open(war_initial))
def state_of(target):
    game, size = ("tank-war", int(target[3:].split("-")[0])) if not target.startswith("wars") \
        else ("tank-wars", int(target[4:].split("-")[0]))
    if game == "tank-war":
        n = default["cols"] if size == 12 else min(26, size // 2)
        return game, f"{size} tanks, {n}×{n}"
    return game, f"{size}×{size} board"
has_hello = any(r[1] == "hello" for r in rows)
if has_hello:
    hello_rps, hello_p99, hello_bad, rounds = figures("hello")
    print(f"hello (the ceiling): {hello_rps:,.0f} requests/s, p99 {hello_p99:.0f} µs, "
          f"{workers * 1e6 / hello_rps:.1f} µs a request (median of {rounds} rounds)")
else:
    print("hello (the ceiling): not run")
print(f"{'game':<9} {'state':<17} {'endpoint':<11} {'body B':>7} {'answer B':>8} "
      f"{'requests/s':>11} {'p99 µs':>8} {'vs hello':>8} {'µs a request':>12} {'µs more':>8}")
total_bad = 0
for line in open(sizes):
    target, body, answer = line.split()
    game, state = state_of(target)
    endpoint = target.split("-", 1)[1]
    rps, p99, bad, rounds = figures(target)
    total_bad += bad
    # WORKERS workers serve at once: a request's cost is WORKERS / throughput.
    cost = workers * 1e6 / rps
    ratio = f"{rps / hello_rps:>8.2f}" if has_hello else f"{'-':>8}"
    more = f"{cost - workers * 1e6 / hello_rps:>+8.1f}" if has_hello else f"{'-':>8}"
    out = (f"{game:<9} {state:<17} {endpoint:<11} {int(body):>7,} {int(answer):>8,} "
           f"{rps:>11,.0f} {p99:>8.0f} {ratio} {cost:>12.1f} {more}")
    if bad:
        out += f"  ({bad} non-2xx)"
    print(out)
if has_hello:
    total_bad += hello_bad
print(f"medians of {rounds} rounds, alternating; non-2xx answers: {total_bad}; "
      f"µs a request = {workers}e6 / requests/s ({workers} server workers)")
PY
rss=$(awk '/VmRSS/ {print $2, $3}' "/proc/$server/status")
peak=$(awk '/VmHWM/ {print $2, $3}' "/proc/$server/status")
echo "server RSS: $rss_idle idle, $rss after the runs, $peak peak"
echo "machine: $(nproc) cores; wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds; server --workers $WORKERS${SERVER_FLAGS:+ $SERVER_FLAGS}"
