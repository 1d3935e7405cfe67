#!/usr/bin/env bash
# Contract test: schemathesis (pinned, from PyPI, in a venv under target/)
# against the OpenAPI document the service serves, all checks, positive and
# negative data, the examples, coverage and fuzzing phases, the operations
# shared out among one schemathesis process a core. Loopback only;
# about three minutes on two cores at the default 200 examples an operation
# (no example database: schemathesis.toml).
#
#   scripts/contract-test.sh
#   EXAMPLES=50 scripts/contract-test.sh       # quicker
#   scripts/contract-test.sh --install-only    # schemathesis only (CI, beside the builds)
#
# schemathesis.toml holds the one allowance: a schema-valid request may be
# refused for a reason its schema cannot express (400 with a documented
# code, or 422 for a rule).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
EXAMPLES=${EXAMPLES:-200}
SEED=${SEED:-20261123}
venv=target/contract-venv

install() {
  if [ ! -x "$venv/bin/schemathesis" ] || ! "$venv/bin/schemathesis" --version | grep -q "$SCHEMATHESIS_VERSION"; then
    echo "installing schemathesis $SCHEMATHESIS_VERSION in $venv…" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
  fi
}
install
[ "${1:-}" != --install-only ] || exit 0
. scripts/service.sh tank-rules

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
shards=${SHARDS:-$(nproc)}
# A slot of each pool for every shard (each shard sends one request at a
# time): the contract is checked, not the capacity, so that a schema-valid
# request is never refused because another shard's review holds the long
# pool's one slot of a two-core machine (SERVICE_BUSY, as a slow run of
# 2026-11-29 found). The pools' refusals are the hostile and security
# tests' to check. The memory budget grows by the tables of the slots
# added, 32 MiB each (the default, 192 MiB, is sized for the default
# pools: a search a core, a review for two), so that the bytes in flight keep the room
# the default gives them (SERVICE_BUSY for every request otherwise, as
# the run of 67671a3 found).
cores=$(nproc)
default_tables=$(( cores + (cores / 2 > 1 ? cores / 2 : 1) ))
added=$(( 2 * shards > default_tables ? 2 * shards - default_tables : 0 ))
"$bin_dir/tank-rules" --addr "127.0.0.1:$port" \
  --max-concurrent-searches "$shards" --max-concurrent-reviews "$shards" \
  --memory-budget-mib $((192 + 32 * added)) >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

# The operations are dealt round-robin into one shard a core, each shard a
# schemathesis process of one worker: Hypothesis's generation is what takes
# the time, and schemathesis's own threads share one interpreter (and, with
# more than one, CPython 3.11's AST parser, used by Hypothesis to describe
# its filters, fails now and then). Dealt by operation name first (every
# game's `batch`, then every game's `apply`, ...), so each shard gets its
# share of the slow ones.
# A request may take a review's whole time cap (30 s: `annotate` and
# `puzzles` at level 8 do in this build), past schemathesis's 10 s default.
mapfile -t paths < <(python3 -c 'import json, sys
paths = json.load(open(sys.argv[1]))["paths"]
print("\n".join(sorted(paths, key=lambda p: (p.rsplit("/", 1)[-1], p))))' openapi/openapi.json)
pids=()
for ((k = 0; k < shards; k++)); do
  mine=()
  for ((i = k; i < ${#paths[@]}; i += shards)); do mine+=("${paths[i]}"); done
  [ "${#mine[@]}" -gt 0 ] || continue
  regex="^($(IFS='|'; echo "${mine[*]}" | sed 's/\./\\./g'))\$"
  "$venv/bin/schemathesis" --config-file schemathesis.toml run \
    "http://127.0.0.1:$port/openapi.json" --include-path-regex "$regex" \
    --checks all --mode all --phases examples,coverage,fuzzing --request-timeout 35 \
    --max-examples "$EXAMPLES" --seed "$SEED" --continue-on-failure \
    --workers 1 --no-color >"$work/shard$k.out" 2>&1 &
  pids+=("$!")
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
cat "$work"/shard*.out
if grep -qi panick "$work/server.log"; then
  echo "FAIL: the server panicked"; grep -i -m3 panick "$work/server.log"; status=1
fi
# Each shard's summary: "N generated, N passed" (or with failures); summed.
cases=$(grep -h -A1 '^Test cases:' "$work"/shard*.out | grep -v '^Test cases:' | grep -v '^--' \
  | python3 -c 'import re, sys
total = {}
for line in sys.stdin:
    for n, what in re.findall(r"(\d+) (\w+)", line):
        total[what] = total.get(what, 0) + int(n)
print(", ".join(f"{n} {what}" for what, n in total.items()))')
echo "contract-test: $([ "$status" = 0 ] && echo PASS || echo FAIL) — schemathesis $SCHEMATHESIS_VERSION, all checks, $EXAMPLES examples an operation, $shards shards: ${cases:-no summary}"
exit "$status"
