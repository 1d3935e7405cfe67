#!/usr/bin/env bash
# Contract test: schemathesis (pinned, from PyPI, in a venv under target/)
# against the OpenAPI document the service serves, all checks, positive and
# negative data, the examples, coverage and fuzzing phases. Loopback only;
# about ten minutes at the default 200 examples per operation.
#
#   scripts/contract-test.sh
#   EXAMPLES=50 scripts/contract-test.sh       # quicker
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

if [ ! -x "$venv/bin/schemathesis" ] || ! "$venv/bin/schemathesis" --version | grep -q "$SCHEMATHESIS_VERSION"; then
  echo "installing schemathesis $SCHEMATHESIS_VERSION in $venv…" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi
cargo build --release --quiet --bin tank-rules

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
./target/release/tank-rules --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

# One worker: with more, CPython 3.11's AST parser (used by Hypothesis to
# describe its filters) fails now and then in threads.
status=0
"$venv/bin/schemathesis" --config-file schemathesis.toml run \
  "http://127.0.0.1:$port/openapi.json" \
  --checks all --mode all --phases examples,coverage,fuzzing \
  --max-examples "$EXAMPLES" --seed "$SEED" --continue-on-failure \
  --workers 1 --no-color | tee "$work/schemathesis.out" || status=$?
if grep -qi panick "$work/server.log"; then
  echo "FAIL: the server panicked"; grep -i -m3 panick "$work/server.log"; status=1
fi
cases=$(grep -A1 '^Test cases:' "$work/schemathesis.out" | tail -1 | sed 's/^ *//')
echo "contract-test: $([ "$status" = 0 ] && echo PASS || echo FAIL) — schemathesis $SCHEMATHESIS_VERSION, all checks, $EXAMPLES examples an operation: ${cases:-no summary}"
exit "$status"
