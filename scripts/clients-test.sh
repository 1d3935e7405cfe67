#!/usr/bin/env bash
# Generated clients (issue 25): from the committed openapi/openapi.json,
#   - TypeScript: openapi-typescript types and openapi-fetch calls, built
#     with `tsc --strict` (no casts, no `any` in the flow);
#   - Python: openapi-python-client (clients/python/config.yaml: SVG read as
#     text, the `D`-property post-hook), checked with `mypy --strict`;
# each running clients/*/flow through every game (initial, legal moves, an
# illegal step switched on its code, apply, ai-move at a level, score, a
# typed batch, a picture) against a release server on loopback that needs
# an API key. Generator versions are pinned (package-lock.json, below).
# Needs the npm registry and PyPI; fails when either cannot be reached.
#
#   scripts/clients-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON_GENERATOR=openapi-python-client==0.29.1
MYPY=mypy==1.19.1
KEY=clients-test-key
venv=target/clients-venv

cargo build --release --quiet --bin tank-rules
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
printf '{"keys":[{"key":"%s","name":"clients-test"}]}\n' "$KEY" >"$work/keys.json"
./target/release/tank-rules --addr "127.0.0.1:$port" --api-keys-file "$work/keys.json" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port"

# --- TypeScript ----------------------------------------------------------
(
  cd clients/typescript
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  npm run --silent generate >/dev/null
  # No casts (comments aside): no `as`, no `<T>value` assertion, no `any`,
  # no non-null assertion (`x!.y`, `x!)`).
  if sed 's://.*$::' src/flow.ts | grep -nE '\bas\s|[=(,:]\s*<[A-Z][A-Za-z]*>|\bany\b|[]A-Za-z0-9_)]!(\.|\)|;|,)'; then
    echo "FAIL: clients/typescript/src/flow.ts casts (lines above)"; exit 1
  fi
  npm run --silent build
  node dist/flow.js "$url" "$KEY" | tee "$work/typescript.out"
)

# --- Python --------------------------------------------------------------
if [ ! -x "$venv/bin/openapi-python-client" ] || ! "$venv/bin/pip" show -q mypy >/dev/null 2>&1; then
  echo "installing $PYTHON_GENERATOR and $MYPY in $venv…" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "$PYTHON_GENERATOR" "$MYPY"
fi
(
  cd clients/python
  "../../$venv/bin/openapi-python-client" generate --path ../../openapi/openapi.json \
    --config config.yaml --output-path tank-rules-client --overwrite >"$work/generate.out" 2>&1 \
    || { cat "$work/generate.out"; exit 1; }
  if grep -qi 'warning' "$work/generate.out"; then
    cat "$work/generate.out"; echo "FAIL: the Python generator warned"; exit 1
  fi
  grep -q 'src_fields = dict(src_dict)' tank-rules-client/tank_rules_client/models/tank_war_clocks.py \
    || { echo "FAIL: the post-generation hook (unshadow.py) did not run"; exit 1; }
  "../../$venv/bin/pip" install --quiet --force-reinstall ./tank-rules-client
  "../../$venv/bin/mypy" --strict flow.py
  "../../$venv/bin/python" flow.py "$url" "$KEY" | tee "$work/python.out"
)

if grep -qi panick "$work/server.log"; then
  echo "FAIL: the server panicked"; exit 1
fi
echo "clients-test: PASS — $(cat "$work/typescript.out"); $(cat "$work/python.out")"
