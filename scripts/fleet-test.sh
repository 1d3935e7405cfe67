#!/usr/bin/env bash
# Fleet test (issue 14): a real Redis, three replicas sharing it as their
# AI cache tier, and HAProxy in front with health checks on /readyz, all on
# loopback. Shows, with figures:
#   1. cross-replica cache: answers computed on one replica served by the
#      others (`cached: true`, Redis-tier hits);
#   2. a replica SIGKILLed under load: failed requests;
#   3. a rolling restart (SIGTERM, start again, one replica at a time) under
#      load: failed requests (goal 0);
#   4. Redis stopped and started under load: failed requests (goal 0), and
#      the tier recovering;
#   5. quotas across the fleet: the replicas restarted with API keys of
#      QUOTA requests a minute; a client sending 3x its quota through the
#      balancer gets 429 for everything beyond the fleet's quota (±10 %),
#      while a second client is unaffected; then, with Redis stopped, each
#      replica counts alone (a client gets up to three quotas);
#   6. a client's own X-Forwarded-For through HAProxy: the replicas trust
#      HAProxy (--trusted-proxies), a client from 127.0.0.2 names a new
#      address in every request and is still counted as 127.0.0.2 (an
#      address quota of XFF_QUOTA a minute, fleet-wide);
#   7. a review at the cap through HAProxy (issue 71): a Tank Battle
#      annotate of a 400-ply game, the replicas at their default caps (a
#      review cut at 30 s), runs once: tank_rules_reviews_total rises by
#      exactly 1 over the three replicas, and the client waits the cap,
#      not twice it.
# The replicas share a secret made for the run (--redis-secret-file), which
# seals the answers they store in Redis; it must appear in none of their
# output. HAProxy runs with the project's configuration,
# deploy/haproxy/haproxy.cfg.
# Installs redis-server, haproxy and wrk (Debian packages) when missing.
# Bounded: about three and a half minutes. Ends with one summary line.
#
#   scripts/fleet-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:-18600}            # HAProxy on BASE, replicas on BASE+1..3, admin BASE+11..13
REDIS_PORT=$((BASE + 20))
LOAD=${LOAD:-20s}
QUOTA=${QUOTA:-300}            # requests a minute of each client in section 5
XFF_QUOTA=${XFF_QUOTA:-10}     # requests a minute an address in section 6

need() { command -v "$1" >/dev/null || missing="$missing $2"; }
missing=""
need redis-server redis-server
need haproxy haproxy
need wrk wrk
if [ -n "$missing" ]; then
  echo "installing$missing (Debian packages)…" >&2
  (apt-get update -qq && apt-get install -y -qq $missing) >/dev/null
fi
. scripts/service.sh tank-rules

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}" "${replica_pid[@]:-}" "${haproxy_pid:-}" "${redis_pid:-}"; do
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

start_redis() {
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
    --maxmemory 64mb --maxmemory-policy allkeys-lru --loglevel warning >"$work/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && return; sleep 0.1; done
  echo "redis did not start"; exit 1
}

# The secret sealing the answers the replicas share, made for this run.
python3 -c 'import secrets; print(secrets.token_hex(32))' >"$work/redis-secret"
declare -a replica_pid
REPLICA_FLAGS=()
start_replica() { # n
  local n=$1
  "$bin_dir/tank-rules" --addr "127.0.0.1:$((BASE + n))" --admin-addr "127.0.0.1:$((BASE + 10 + n))" \
    --redis-url "redis://127.0.0.1:$REDIS_PORT/0" --redis-secret-file "$work/redis-secret" \
    --workers 1 --shutdown-timeout-secs 10 \
    "${REPLICA_FLAGS[@]}" >>"$work/replica$n.log" 2>&1 &
  replica_pid[$n]=$!
  for _ in $(seq 100); do curl -sf "127.0.0.1:$((BASE + n))/readyz" >/dev/null && return; sleep 0.05; done
  echo "replica $n did not start"; exit 1
}

start_redis
for n in 1 2 3; do start_replica "$n"; done
# The project's HAProxy configuration, its addresses from the environment.
LB_ADDR="127.0.0.1:$BASE" REPLICA_1="127.0.0.1:$((BASE + 1))" REPLICA_2="127.0.0.1:$((BASE + 2))" \
  REPLICA_3="127.0.0.1:$((BASE + 3))" haproxy -f deploy/haproxy/haproxy.cfg -db >"$work/haproxy.log" 2>&1 &
haproxy_pid=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$BASE/readyz" >/dev/null && break; sleep 0.1; done
sleep 1 # health checks: all three up

redis_hits() { # total Redis-tier hits over the replicas
  local total=0 n v
  for n in 1 2 3; do
    v=$(curl -s "127.0.0.1:$((BASE + 10 + n))/metrics" \
      | awk '/^tank_rules_ai_cache_lookups_total/ && /tier="redis"/ && /result="hit"/ {s += $NF} END {print s + 0}')
    total=$((total + ${v%.*}))
  done
  echo "$total"
}

echo "== 1. cross-replica cache"
python3 - "$BASE" <<'PY'
import json, sys, urllib.request
base = int(sys.argv[1])
START = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
def ai(seed):
    body = json.dumps({"position": START, "limits": {"max_depth": 3}, "seed": seed}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{base}/v1/tank-battle/ai-move", data=body,
                                 headers={"Content-Type": "application/json", "Connection": "close"})
    return json.loads(urllib.request.urlopen(req, timeout=30).read())
seeds = range(5000, 5060)
first = [ai(s) for s in seeds]
fresh = sum(1 for a in first if not a["cached"])
repeats = [ai(s) for s in seeds for _ in range(3)]
hits = sum(1 for a in repeats if a["cached"])
same = all(r["move"] == f["move"] for f, group in zip(first, [repeats[i:i + 3] for i in range(0, len(repeats), 3)]) for r in group)
print(f"first pass: {len(first)} requests, {fresh} searched; repeats through the balancer: "
      f"{hits}/{len(repeats)} cached ({100 * hits / len(repeats):.1f}%), same moves: {same}")
sys.exit(0 if hits >= 0.95 * len(repeats) and same else 1)
PY
echo "Redis-tier hits over the replicas: $(redis_hits)"

cat >"$work/mix.lua" <<'LUA'
local start = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
local n = 0
-- FRESH=1: every search is new (seeds never asked before), so it goes
-- past both cache tiers to a search.
local fresh = os.getenv("FRESH") == "1"
-- Each thread gets its own range of seeds (set in setup, below).
salt = 0
local mix = {
  {"/v1/tank-battle/legal-moves", '{"position":"' .. start .. '"}'},
  {"/v1/tank-battle/apply", '{"position":"' .. start .. '","move":"k4-k9"}'},
  {"/v1/tank-battle/score", '{"position":"' .. start .. '"}'},
  -- A few hundred distinct searches: misses first, then Redis and memory hits.
  {"/v1/tank-battle/ai-move", nil},
}
request = function()
  n = n + 1
  local item = mix[(n % #mix) + 1]
  local seed = fresh and (salt + n) or (n % 300)
  local body = item[2] or ('{"position":"' .. start .. '","limits":{"max_depth":2},"seed":' .. seed .. '}')
  return wrk.format("POST", item[1], {["Content-Type"] = "application/json"}, body)
end
local threads = {}
local run = os.time() * 1000
setup = function(thread)
  table.insert(threads, thread)
  thread:set("salt", run + #threads * 100000000)
end
statuses = {}
response = function(status) statuses[status] = (statuses[status] or 0) + 1 end
done = function(summary)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do total[status] = (total[status] or 0) + count end
  end
  local bad = 0
  for status, count in pairs(total) do
    io.write(string.format("status %d: %d\n", status, count))
    if status >= 300 then bad = bad + count end
  end
  local e = summary.errors
  io.write(string.format("FAILED %d (non-2xx %d, connect %d, read %d, write %d, timeout %d) of %d\n",
    bad + e.connect + e.read + e.write + e.timeout, bad, e.connect, e.read, e.write, e.timeout, summary.requests))
end
LUA

load() { # label outfile [FRESH]
  FRESH=${3:-0} wrk -t2 -c16 -d"$LOAD" -s "$work/mix.lua" "http://127.0.0.1:$BASE" >"$2" 2>&1
}
failed() { awk '/^FAILED/ {print $2}' "$1"; }
summary() { awk '/^FAILED/ {print}' "$1"; awk '/Requests\/sec/ {print "  " $0}' "$1"; }

status=0

echo "== 2. SIGKILL one replica under load"
load kill "$work/kill.txt" &
loader=$!
sleep 5
kill -9 "${replica_pid[2]}"
wait "${replica_pid[2]}" 2>/dev/null || true
sleep 7
start_replica 2
wait "$loader"
summary "$work/kill.txt"
echo "  (replica 2 SIGKILLed 5 s in, started again 7 s later)"

echo "== 3. rolling restart under load (SIGTERM, start again, one at a time)"
load rolling "$work/rolling.txt" &
loader=$!
sleep 2
for n in 1 2 3; do
  kill -TERM "${replica_pid[$n]}"
  wait "${replica_pid[$n]}" 2>/dev/null || true
  start_replica "$n"
  sleep 2.5 # two health checks to be back in the pool
done
wait "$loader"
summary "$work/rolling.txt"
[ "$(failed "$work/rolling.txt")" = 0 ] || status=1

echo "== 4. Redis stopped and started under load"
before=$(redis_hits)
load redis "$work/redis.txt" 1 &
loader=$!
sleep 5
redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || kill "$redis_pid"
wait "$redis_pid" 2>/dev/null || true
sleep 5
start_redis
wait "$loader"
summary "$work/redis.txt"
[ "$(failed "$work/redis.txt")" = 0 ] || status=1
errors=0
for n in 1 2 3; do
  v=$(curl -s "127.0.0.1:$((BASE + 10 + n))/metrics" \
    | awk '/^tank_rules_ai_cache_lookups_total/ && /tier="redis"/ && /result="error"/ {s += $NF} END {print s + 0}')
  errors=$((errors + ${v%.*}))
done
# The tier is back: new answers are stored and served across replicas.
python3 - "$BASE" <<'PY'
import json, sys, urllib.request
base = int(sys.argv[1])
START = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
def ai(seed):
    body = json.dumps({"position": START, "limits": {"max_depth": 2}, "seed": seed}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{base}/v1/tank-battle/ai-move", data=body,
                                 headers={"Content-Type": "application/json", "Connection": "close"})
    return json.loads(urllib.request.urlopen(req, timeout=30).read())
for s in range(9000, 9010):
    ai(s)
hits = sum(ai(s)["cached"] for s in range(9000, 9010) for _ in range(3))
print(f"after Redis came back: {hits}/30 repeats cached")
PY
after=$(redis_hits)
echo "  Redis-tier errors while it was down (those searches were answered by a search): $errors; Redis-tier hits $before -> $after"
[ "$after" -gt "$before" ] || status=1
[ "$errors" -gt 0 ] || status=1

echo "== 5. quotas across the fleet ($QUOTA requests a minute a key, three replicas)"
cat >"$work/keys.json" <<KEYS
{"keys": [
  {"key": "heavy-key", "name": "heavy", "requests_per_minute": $QUOTA},
  {"key": "light-key", "name": "light", "requests_per_minute": $QUOTA},
  {"key": "heavy-key-2", "name": "heavy, Redis stopped", "requests_per_minute": $QUOTA},
  {"key": "light-key-2", "name": "light, Redis stopped", "requests_per_minute": $QUOTA}
]}
KEYS
REPLICA_FLAGS=(--api-keys-file "$work/keys.json")
for n in 1 2 3; do
  kill -TERM "${replica_pid[$n]}"
  wait "${replica_pid[$n]}" 2>/dev/null || true
  start_replica "$n"
done
sleep 1 # health checks: all three back
quota_run() { # label heavy-key light-key heavy-count -> one line of figures, exit 1 if off
  python3 - "$BASE" "$QUOTA" "$@" <<'PY'
import http.client, json, sys, threading, time
base, quota = int(sys.argv[1]), int(sys.argv[2])
label, heavy_key, light_key, heavy_n = sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
START = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
body = json.dumps({"position": START})
counts = {}
lock = threading.Lock()
def client(key, n):
    conn = http.client.HTTPConnection("127.0.0.1", base, timeout=10)
    for _ in range(n):
        conn.request("POST", "/v1/tank-battle/score", body,
                     {"Content-Type": "application/json", "X-Api-Key": key})
        response = conn.getresponse()
        response.read()
        with lock:
            counts[(key, response.status)] = counts.get((key, response.status), 0) + 1
# The heavy client on 8 connections, the light one on 1, at once.
per = heavy_n // 8
threads = [threading.Thread(target=client, args=(heavy_key, per)) for _ in range(8)]
threads.append(threading.Thread(target=client, args=(light_key, quota // 3)))
started = time.monotonic()
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.monotonic() - started
heavy_ok, heavy_429 = counts.get((heavy_key, 200), 0), counts.get((heavy_key, 429), 0)
light_ok = counts.get((light_key, 200), 0)
other = {k: v for k, v in counts.items() if k[1] not in (200, 429)}
# GCRA refills one request every 60/quota s: what the fleet's quota allows
# over the run.
fleet = quota + quota * elapsed / 60
print(f"{label}: heavy client sent {8 * per} in {elapsed:.1f} s: {heavy_ok} answered 200, {heavy_429} 429 "
      f"(fleet quota over the run {fleet:.0f}: {heavy_ok / fleet:.2f}x); light client {light_ok}/{quota // 3} 200"
      + (f"; other statuses {other}" if other else ""))
ok = light_ok == quota // 3 and not other
if label == "fleet":
    ok = ok and abs(heavy_ok - fleet) <= 0.10 * quota
else:  # each replica counts alone: more than the fleet's quota, at most three quotas
    ok = ok and heavy_ok > 1.5 * fleet and heavy_ok <= 3 * fleet + 0.10 * quota
sys.exit(0 if ok else 1)
PY
}
quota_run fleet heavy-key light-key $((3 * QUOTA)) | tee "$work/quota.txt" || status=1
redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || kill "$redis_pid"
wait "$redis_pid" 2>/dev/null || true
quota_run "Redis stopped" heavy-key-2 light-key-2 $((4 * QUOTA)) | tee "$work/quota-fallback.txt" || status=1
fallbacks=0
for n in 1 2 3; do
  v=$(curl -s "127.0.0.1:$((BASE + 10 + n))/metrics" \
    | awk '/^tank_rules_quota_checks_total/ && /result="fallback"/ {s += $NF} END {print s + 0}')
  fallbacks=$((fallbacks + ${v%.*}))
done
outages=$(cat "$work"/replica*.log | grep -c 'Redis failed' || true)
echo "  quota checks decided by a replica alone while Redis was down: $fallbacks; outage log lines: $outages (one per replica per outage since its start)"
[ "$fallbacks" -gt 0 ] || status=1
start_redis

echo "== 6. a client's own X-Forwarded-For through HAProxy ($XFF_QUOTA requests a minute an address)"
# The replicas trust HAProxy (127.0.0.1) to name the client; the client
# connects from 127.0.0.2 and names another address in every request. The
# line HAProxy appends comes last, so the client is counted as 127.0.0.2.
REPLICA_FLAGS=(--trusted-proxies 127.0.0.1/32 --rate-limit-per-minute "$XFF_QUOTA")
for n in 1 2 3; do
  kill -TERM "${replica_pid[$n]}"
  wait "${replica_pid[$n]}" 2>/dev/null || true
  start_replica "$n"
  curl -sf "127.0.0.1:$((BASE + n))/v1/games" >/dev/null # its link to Redis in use
done
sleep 1 # health checks: all three back
python3 - "$BASE" "$XFF_QUOTA" <<'PY' | tee "$work/xff.txt" || status=1
import http.client, json, sys
base, quota = int(sys.argv[1]), int(sys.argv[2])
START = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
conn = http.client.HTTPConnection("127.0.0.1", base, timeout=10, source_address=("127.0.0.2", 0))
counts = {}
sent = 3 * quota
for i in range(sent):
    conn.request("POST", "/v1/tank-battle/score", json.dumps({"position": START}),
                 {"Content-Type": "application/json", "X-Forwarded-For": f"10.{i // 250}.{i % 250}.7"})
    response = conn.getresponse()
    response.read()
    counts[response.status] = counts.get(response.status, 0) + 1
answered, limited = counts.get(200, 0), counts.get(429, 0)
print(f"spoofed X-Forwarded-For through HAProxy: {answered} of {sent} answered (quota {quota} a minute "
      f"for 127.0.0.2, fleet-wide); {limited} x 429" + (f"; other statuses {counts}" if answered + limited != sent else ""))
sys.exit(0 if abs(answered - quota) <= 1 and answered + limited == sent else 1)
PY
fallbacks=0
for n in 1 2 3; do
  v=$(curl -s "127.0.0.1:$((BASE + 10 + n))/metrics" \
    | awk '/^tank_rules_quota_checks_total/ && /result="fallback"/ {s += $NF} END {print s + 0}')
  fallbacks=$((fallbacks + ${v%.*}))
done
echo "  quota checks decided by a replica alone meanwhile: $fallbacks"

echo "== 7. a review at the cap through HAProxy, run once"
# Issue 71: with `timeout server` equal to the review cap and `retry-on
# all-retryable-errors`, HAProxy gave up on a review just before its answer
# and ran it again on another replica (the client waited 60 s, two reviews
# cut). The replicas at their default caps (--annotate-max-time-ms, 30 s:
# what the shipped configuration must outwait), a game of 400 plies judged
# with a budget no replica finishes within the cap.
REPLICA_FLAGS=()
for n in 1 2 3; do
  kill -TERM "${replica_pid[$n]}"
  wait "${replica_pid[$n]}" 2>/dev/null || true
  start_replica "$n"
done
sleep 1 # health checks: all three back
python3 - "$BASE" <<'PY' | tee "$work/review.txt" || status=1
import http.client, json, random, re, sys, time
base = int(sys.argv[1])
START = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
PLIES = 400
def post(port, path, body, timeout=10):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = conn.getresponse()
    answer = response.read()
    conn.close()
    return response.status, answer
def game(seed):
    """A legal game of at most PLIES moves, played at random (seeded) through
    replica 1's legal-moves and apply."""
    rng, position, moves = random.Random(seed), START, []
    while len(moves) < PLIES:
        legal = json.loads(post(base + 1, "/v1/tank-battle/legal-moves", {"position": position})[1])["moves"]
        if not legal:
            break
        applied = json.loads(post(base + 1, "/v1/tank-battle/apply",
                                  {"position": position, "move": rng.choice(legal)["move"]})[1])
        moves.append(applied["move"])
        position = applied["position"]
        if applied.get("finished"):
            break
    return moves
def reviews(n):
    """Replica n's tank_rules_reviews_total by result, the long-pool slots
    it has given (a review takes one as it starts: this counts a review
    whose client left before its answer, which tank_rules_reviews_total
    does not), and those in use now."""
    conn = http.client.HTTPConnection("127.0.0.1", base + 10 + n, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    conn.close()
    counted, taken, busy = {}, 0.0, 0.0
    for line in text.splitlines():
        m = re.match(r'^tank_rules_reviews_total\{(.*)\} ([0-9.e+-]+)$', line)
        if m:
            result = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1))).get("result", "?")
            counted[result] = counted.get(result, 0) + float(m.group(2))
        long_pool = 'pool="long"' in line
        if line.startswith("tank_rules_slot_requests_total{") and long_pool and 'result="busy"' not in line:
            taken += float(line.rsplit(" ", 1)[1])
        if line.startswith("tank_rules_slots_in_use{") and long_pool:
            busy += float(line.rsplit(" ", 1)[1])
    return counted, taken, busy
with open("deploy/haproxy/haproxy.cfg") as f:
    timeout = next(int(m.group(1)) for m in map(re.compile(r'^\s*timeout server (\d+)s\b').match, f) if m)
moves = next(g for g in (game(seed) for seed in range(71, 91)) if len(g) == PLIES)
before = {n: reviews(n) for n in (1, 2, 3)}
started = time.monotonic()
try:  # HAProxy's retries included: at most 1 + 3 tries, each up to its timeout
    status, answer = post(base, "/v1/tank-battle/annotate", {"moves": moves, "limits": {"max_nodes": 20000000}},
                          timeout=5 * timeout)
except OSError as e:
    status, answer = f"no answer ({type(e).__name__})", b""
waited = time.monotonic() - started
try:
    code = json.loads(answer).get("code", "") if status != 200 else ""
except (ValueError, AttributeError):  # not the service's: HAProxy's own page
    code = "(" + answer.decode(errors="replace").strip().splitlines()[0][:60] + ")" if answer else "(empty)"
# A review HAProxy ran again would still be running: wait for every
# replica's long pool to be idle before counting.
deadline = time.monotonic() + 2 * timeout
while time.monotonic() < deadline and any(reviews(n)[2] for n in (1, 2, 3)):
    time.sleep(0.5)
after = {n: reviews(n) for n in (1, 2, 3)}
rose = {n: {r: int(v - before[n][0].get(r, 0)) for r, v in after[n][0].items() if v > before[n][0].get(r, 0)}
        for n in (1, 2, 3)}
slots = {n: int(after[n][1] - before[n][1]) for n in (1, 2, 3)}
total = sum(sum(r.values()) for r in rose.values())
cut = sum(r.get("cut", 0) for r in rose.values())
print(f"review of {len(moves)} plies through HAProxy (timeout server {timeout} s): {status} {code} after "
      f"{waited:.1f} s; tank_rules_reviews_total rose "
      + ", ".join(f"r{n} +{sum(rose[n].values())}" + (f" {rose[n]}" if rose[n] else "") for n in (1, 2, 3))
      + f", long slots taken r1 +{slots[1]}, r2 +{slots[2]}, r3 +{slots[3]}"
      + f"; {total} review(s) counted, {sum(slots.values())} run, in all (goal 1)")
sys.exit(0 if total == 1 and cut == 1 and sum(slots.values()) == 1 and waited < timeout else 1)
PY

if grep -qi panick "$work"/replica*.log; then
  echo "FAIL: a replica panicked"; status=1
fi
if grep -qF -f "$work/redis-secret" "$work"/replica*.log; then
  echo "FAIL: the Redis secret is in a replica's output"; status=1
fi
verdict=$([ "$status" = 0 ] && echo PASS || echo FAIL)
echo "fleet-test: $verdict — kill: $(failed "$work/kill.txt") failed; rolling restart: $(failed "$work/rolling.txt") failed; Redis stopped: $(failed "$work/redis.txt") failed; $(cut -d';' -f1 "$work/quota.txt"); $(cut -d';' -f1 "$work/quota-fallback.txt"); $(cut -d';' -f1 "$work/xff.txt"); $(cut -d';' -f1,3 "$work/review.txt")"
exit "$status"
