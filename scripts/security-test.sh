#!/usr/bin/env bash
# Security test (issue 38, "The front door"): replays every attack of the
# issue against the service (scripts/service.sh) on loopback and through the project's
# HAProxy configuration (deploy/haproxy/haproxy.cfg), with
# scripts/security.py for the HTTP:
#   1. percent-encoded paths (/%761/…, /v%31/…, /%76%31/…) without a key,
#      and spending a key's quota; their access-log lines and metrics;
#   2. ai%2Dmove spending the search quota;
#   3. X-Forwarded-For spoofed through HAProxy (client from 127.0.0.2) and
#      from a trusted peer (a port on a hop, a hop that does not parse);
#   4. an IPv6 /64 sharing a quota, an IPv4-mapped address as its IPv4;
#   5. a Redis URL's password (and the Redis secret) in the output and in
#      --help;
#   6. answers in Redis (each behind its tag), and --redis-prefix;
#   7. 1,000 wrong API keys, Bearer in any casing, a keys file of BLAKE3
#      digests only (b3sum), the short-key warning, no key in any output;
#   8. Expect: 100-continue over the body limit, an unknown expectation;
#   9. no h2 in Cargo.lock;
# and the findings of issue 50 ("Priced by the work": what a client within
# its quota may spend), numbered 50.N:
#   50.1 a batch of reviews of long games: on the batch's one budget, and
#        priced at the sum of its items;
#   50.2 two clients reviewing at their full quota, a third playing ai-move
#        throughout: never refused (its latency reported);
#   50.3 request heads past actix-http's 128 KiB on a directly reachable
#        port (431 and closed; 3,500 connections sending 128 KB heads, RSS);
#   50.4 forged answers in Redis (a legal but wrong move with an invented
#        evaluation, illegal later pv moves, lines: [], absurd numbers, a
#        genuine value moved to another key, no tag or a forged one)
#        ignored and counted; a quota entry set far in the future costing
#        at most one window; six 64 MB values not read to their end (the
#        server's RSS before and after); --redis-url without a secret, or
#        with a short one, refusing to start; a rotation; no secret in any
#        output;
#   50.5 a streamed review whose client never reads (in a network namespace
#        with 4 KiB TCP buffers): its slot given back at its time cap;
#   50.6 2,000 malformed requests: a bounded number of log lines, the
#        suppressed ones counted;
#   50.7 a malformed keys file holding a key: the key in no output; a
#        review's searches in the metrics;
# and of issue 71 ("Every byte bounded"), numbered 71.N:
#   71.2 a compare claim whose request names an op of its own (the issue's
#        200 perfts under legal-moves claims; ai-move, annotate and replay
#        in the three games), as a compare, in a batch and in an NDJSON
#        batch: refused naming its request.op, nothing run (the pools'
#        metrics); a claimed perft priced as a search (quota 1);
#   71.5 a 503 costs nothing (no live slot: ten ai-moves and a batch's
#        two, the search quota untouched; a perft still pays); Swagger UI's
#        bundle on a server requiring keys: gzip-encoded once (server CPU a
#        fetch), an ETag and 304, counted by address without a key (429
#        past the quota), API routes still 401;
#   71.6 a 60 KB unknown field name, move, Tank War tank name (en, cs):
#        problems under 2 KB;
#   71.7 the Deployment's TANK_RULES_TRUSTED_PROXIES as shipped
#        (deploy/k8s/deployment.yaml), in a network namespace with a
#        cluster's addresses: another pod's X-Forwarded-For ignored (it is
#        counted by its own address), the balancer's honoured; the
#        RateLimit header after a batch shows both quotas as it left them.
# and the abuse cases of issue 77's puzzles, numbered 77.N: 77.1
# max_puzzles out of bounds; 77.2 a maximal game's puzzles within the
# review's cap; 77.3 a batch of them on the batch's budget; 77.4 no compare
# claim of one (and, with attack 2, its price, however its path is
# written; with 71.2, smuggled under a claim).
# Installs redis-server, haproxy, b3sum, iproute2 and procps (Debian
# packages) when missing; needs root for the network namespaces (CI runs as
# root).
# Loopback only; bounded (about three minutes after the build; Redis holds
# 384 MB for a moment in 50.4). Ends
# with one summary line; exits non-zero when any check fails or cannot run.
#
#   scripts/security-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${BASE:-18800}
PROXY=$BASE                     # HAProxy
FRONT=$((BASE + 1))             # API keys, access log; admin on BASE+11
DIGEST=$((BASE + 2))            # a keys file of BLAKE3 digests only
PROXIED=$((BASE + 3))           # behind HAProxy: trusts 127.0.0.1, 5 requests a minute an address
SPARE=$((BASE + 4))             # the servers of attacks 5 and 6; admin on BASE+14
REDIS_PORT=$((BASE + 20))

need() { command -v "$1" >/dev/null || missing="$missing $2"; }
missing=""
need redis-server redis-server
need redis-cli redis-tools
need haproxy haproxy
need b3sum b3sum
need ip iproute2
need sysctl procps
if [ -n "$missing" ]; then
  echo "installing$missing (Debian packages)…" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null
fi
for tool in redis-server redis-cli haproxy b3sum ip sysctl; do
  command -v "$tool" >/dev/null || { echo "security-test: FAIL — $tool could not be installed"; exit 1; }
done
. scripts/service.sh tank-rules
bin="$bin_dir/tank-rules"
# Attack 50.3 holds thousands of sockets.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Keys made for this run, so that finding one in a log means it leaked.
token() { python3 -c 'import secrets; print(secrets.token_hex(16))'; }
export KEY_MAIN="main-$(token)" KEY_FIVE="five-$(token)" KEY_SEARCH="search-$(token)"
export KEY_SHORT="Sh0rt$(token | cut -c1-6)" KEY_DIGEST="digest-$(token)"
cat >"$work/keys.json" <<KEYS
{"keys": [
  {"key": "$KEY_MAIN", "name": "main"},
  {"key": "$KEY_FIVE", "name": "five a minute", "requests_per_minute": 5},
  {"key": "$KEY_SEARCH", "name": "searcher"},
  {"key": "$KEY_SHORT", "name": "tiny-key"}
]}
KEYS
# The digest as deploy/README.md says to make it.
# The secret sealing the AI answers in Redis (attacks 5 and 6).
token >"$work/redis-secret"
digest=$(printf %s "$KEY_DIGEST" | b3sum --no-names)
cat >"$work/digests.json" <<KEYS
{"keys": [{"key_blake3": "$digest", "name": "digest only"}]}
KEYS

start() { # name port flags... (output in $work/name.out)
  local name=$1 port=$2
  shift 2
  "$bin" --addr "127.0.0.1:$port" --workers 2 "$@" >"$work/$name.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && return; sleep 0.05; done
  echo "security-test: FAIL — server $name did not start:"; tail -5 "$work/$name.out"; exit 1
}

redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no \
  --maxmemory 64mb --maxmemory-policy allkeys-lru --loglevel warning >"$work/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

# The search quota from the command line: the searcher's key has none of
# its own, so it gets the server's 2 a minute.
start front "$FRONT" --api-keys-file "$work/keys.json" --search-rate-limit-per-minute 2 \
  --access-log --admin-addr "127.0.0.1:$((BASE + 11))"
start digest "$DIGEST" --api-keys-file "$work/digests.json"
start proxied "$PROXIED" --trusted-proxies 127.0.0.1/32 --rate-limit-per-minute 5 --access-log
# The project's HAProxy configuration, its three servers all this one.
LB_ADDR="127.0.0.1:$PROXY" REPLICA_1="127.0.0.1:$PROXIED" REPLICA_2="127.0.0.1:$PROXIED" \
  REPLICA_3="127.0.0.1:$PROXIED" haproxy -f deploy/haproxy/haproxy.cfg -db >"$work/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -sf "127.0.0.1:$PROXY/readyz" >/dev/null && break; sleep 0.1; done
sleep 0.6 # health checks: all three up

status=0
python3 scripts/security.py --bin "$bin" --work "$work" --lock Cargo.lock \
  --front "$FRONT" --front-admin "$((BASE + 11))" --front-log "$work/front.out" \
  --digest "$DIGEST" --proxied "$PROXIED" --proxied-log "$work/proxied.out" --proxy "$PROXY" \
  --redis "$REDIS_PORT" --spare "$SPARE" --spare-admin "$((BASE + 14))" \
  --redis-secret-file "$work/redis-secret" \
  | tee "$work/security.out" || status=$?
for name in front digest proxied; do
  if grep -qi 'panick' "$work/$name.out"; then echo "FAIL server $name panicked"; status=1; fi
done
passed=$(grep -c '^PASS' "$work/security.out" || true)
failed=$(grep -c '^FAIL' "$work/security.out" || true)
[ "$failed" = 0 ] || status=1
# Every attack or finding each issue lists must have been replayed: issue
# 38's checks are numbered "N. …" (or "Na. …"), a later issue's "I.N …"
# (its finding N).
# Issue 54's are the board's checks (54.1-54.5); issue 77's the abuse
# cases of its new endpoint, puzzles (77.1-77.4).
declare -A EXPECTED=([38]="1 2 3 4 5 6 7 8 9" [50]="1 2 3 4 5 6 7" [54]="1 2 3 4 5" [71]="2 5 6 7" [75]="6" [77]="1 2 3 4 5")
replayed() { # issue: the numbers its checks carry, sorted
  if [ "$1" = 38 ]; then
    grep -oE '^(PASS|FAIL) [0-9]+[a-z]?\. ' "$work/security.out" | awk '{print $2}' | tr -d '.a-z'
  else
    grep -oE "^(PASS|FAIL) $1\.[0-9]+ " "$work/security.out" | awk '{print $2}' | cut -d. -f2
  fi | sort -nu | paste -sd' ' -
}
summary=""
for issue in $(printf '%s\n' "${!EXPECTED[@]}" | sort -n); do
  got=$(replayed "$issue")
  missing=$(comm -23 <(tr ' ' '\n' <<<"${EXPECTED[$issue]}" | sort) <(tr ' ' '\n' <<<"$got" | sort) | paste -sd' ' -)
  [ -z "$missing" ] || status=1
  if [ "$issue" = 38 ]; then
    summary+="issue 38's attacks 1-9: $(wc -w <<<"$got") replayed"
  elif [ "$issue" = 54 ]; then
    summary+="; the board's checks (issue 54): ${got// /, }"
  else
    summary+="; issue $issue's findings replayed: ${got// /, }"
  fi
  [ -z "$missing" ] || summary+=" (missing: $missing)"
done
echo "security-test: $([ "$status" = 0 ] && echo PASS || echo FAIL) — $passed attacks refused, priced, bounded or counted correctly, $failed failed ($summary)"
exit "$status"
