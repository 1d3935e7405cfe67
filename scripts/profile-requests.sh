#!/usr/bin/env bash
# What a request costs the server, counted in instructions: each target's
# server (one worker) runs under valgrind's callgrind, gets 200 requests
# to warm up, then N more on one keep-alive connection, sent as wrk sends
# them (Host, and Content-Type and Content-Length for a body). The counts
# cover exactly those N requests (callgrind is zeroed before and dumped
# after them), so they do not drift with the machine's load the way
# requests/s do: a change's cost shows to the instruction. The kernel's
# share (reading and writing the socket) is not counted.
#
# Prints instructions a request for the hello-world ceiling and each
# target, and each target's top functions by their own cost; keeps the
# callgrind files in OUT for callgrind_annotate.
#
#   scripts/profile-requests.sh                      # all targets, 2,000 requests each
#   N=500 TARGETS="validate score" scripts/profile-requests.sh
#   BIN=/tmp/tank-rules-old scripts/profile-requests.sh   # another build
#   TOP=0 scripts/profile-requests.sh                # totals only
#   TARGETS="batch-en batch-cs" scripts/profile-requests.sh   # a batch of 256
#       refused moves (a problem each), in English and in Czech (issue 51:
#       a Czech answer costs at most 1.15x the English one)
set -euo pipefail
cd "$(dirname "$0")/.."

N=${N:-2000}
TOP=${TOP:-8}
TARGETS=${TARGETS:-healthz initial validate score legal-moves apply ai-move}
PORT=${PORT:-18280}
OUT=${OUT:-target/profile-requests}
BIN=${BIN:-./target/release/tank-rules}

if ! command -v valgrind >/dev/null; then
  echo "installing valgrind (Debian package)…" >&2
  (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi
cargo build --release --quiet --bin tank-rules --example hello
mkdir -p "$OUT"
rm -f "$OUT"/callgrind.*

# shellcheck source=scripts/cheap-targets.sh
. scripts/cheap-targets.sh
declare -A METHOD PATHS BODY HEADER
add() { METHOD[$1]=$2; PATHS[$1]=$3; BODY[$1]=${4:-}; HEADER[$1]=${5:-}; }
cheap_targets add
# The same batch of 256 refused moves in each language.
refused="{\"op\":\"apply\",\"position\":\"$START\",\"move\":\"a11-a10\"}"
batch="{\"requests\":[$(printf "$refused,%.0s" $(seq 255))$refused]}"
add batch-en POST /v1/tank-battle/batch "$batch" "Accept-Language: en"
add batch-cs POST /v1/tank-battle/batch "$batch" "Accept-Language: cs"

# send COUNT TARGET: COUNT requests on one connection; fails on a non-2xx.
send() {
  python3 - "$PORT" "${METHOD[$2]}" "${PATHS[$2]}" "$1" "${BODY[$2]}" "${HEADER[$2]}" <<'PY'
import socket, sys
port, method, path, n, body = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5].encode()
head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
if sys.argv[6]:
    head += sys.argv[6] + "\r\n"
if body:
    head += f"Content-Length: {len(body)}\r\nContent-Type: application/json\r\n"
request = head.encode() + b"\r\n" + body
conn = socket.create_connection(("127.0.0.1", port))
buf = b""
for _ in range(n):
    conn.sendall(request)
    while b"\r\n\r\n" not in buf:
        buf += conn.recv(65536)
    head, _, rest = buf.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")[1:]
                   if line.lower().startswith(b"content-length:")), 0)
    while len(rest) < length:
        rest += conn.recv(65536)
    buf = rest[length:]
    if status >= 300:
        sys.exit(f"{method} {path}: {status}")
PY
}

# profile TARGET COMMAND...: prints "TARGET instructions-a-request".
profile() {
  local target=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.$target.%p" \
    "$@" >"$OUT/$target.log" 2>&1 &
  local vg=$!
  for _ in $(seq 300); do
    curl -s -o /dev/null "127.0.0.1:$PORT/" && break
    sleep 0.2
  done
  send 200 "$target"
  callgrind_control --zero "$vg" >/dev/null 2>&1
  send "$N" "$target"
  callgrind_control --dump "$vg" >/dev/null 2>&1
  kill "$vg"
  wait "$vg" 2>/dev/null || true
  local dump
  dump=$(ls "$OUT"/callgrind."$target".*.1)
  local total
  total=$(callgrind_annotate "$dump" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  echo "$target $((total / N))" >>"$OUT/totals"
  if [ "$TOP" -gt 0 ]; then
    echo "--- $target: top functions by own instructions a request"
    callgrind_annotate --threshold=100 "$dump" 2>/dev/null |
      awk -v n="$N" -v top="$TOP" -v total="$total" '
        /file:function/ {on = 1; next}
        on && k < top && /^ *[0-9,]+ / {
          v = $1; gsub(",", "", v); v += 0;
          # The entry of each thread is charged with everything: skipped.
          if (v > 0.9 * total) next;
          sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, ""); sub(/ \[.*\]$/, ""); sub(/^\?\?\?:/, "");
          printf "%8.0f  %s\n", v / n, substr($0, 1, 140);
          k++
        }'
  fi
}

# Under callgrind the server's idle memory is measured at about 105 MiB at
# start, so the default budget (192 MiB, less the AI cache and the search
# tables) leaves nothing for requests and every one is answered 503: the
# servers profiled here get a budget that holds them.
export TANK_RULES_MEMORY_BUDGET_MIB=${TANK_RULES_MEMORY_BUDGET_MIB:-1024}

rm -f "$OUT/totals"
profile hello ./target/release/examples/hello "127.0.0.1:$PORT"
for target in $TARGETS; do
  profile "$target" "$BIN" --addr "127.0.0.1:$PORT" --workers 1
done

hello=$(awk '$1 == "hello" {print $2}' "$OUT/totals")
echo
printf '%-12s %14s %9s %10s\n' target "instructions" "vs hello" "more"
awk -v hello="$hello" '{printf "%-12s %14d %9.2f %+10d\n", $1, $2, $2 / hello, $2 - hello}' "$OUT/totals"
echo "instructions a request in the server's own code and libraries ($N requests each, one worker; kernel not counted); $BIN"
