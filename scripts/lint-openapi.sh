#!/usr/bin/env bash
# Lints the committed OpenAPI document with Spectral (`spectral:oas`, from
# npm) and openapi-spec-validator (from PyPI), both installed under
# target/ on first use. Fails on any Spectral error or warning and on any
# validator error.
set -euo pipefail
cd "$(dirname "$0")/.."

SPECTRAL_VERSION=${SPECTRAL_VERSION:-6.16.3}
VALIDATOR_VERSION=${VALIDATOR_VERSION:-0.9.0}
tools=target/openapi-lint
mkdir -p "$tools"
if [ ! -x "$tools/node_modules/.bin/spectral" ]; then
  echo "installing @stoplight/spectral-cli $SPECTRAL_VERSION…" >&2
  (cd "$tools" && npm init -y >/dev/null && npm install --silent "@stoplight/spectral-cli@$SPECTRAL_VERSION")
fi
if [ ! -x "$tools/venv/bin/openapi-spec-validator" ]; then
  echo "installing openapi-spec-validator $VALIDATOR_VERSION…" >&2
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet "openapi-spec-validator==$VALIDATOR_VERSION"
fi
echo 'extends: ["spectral:oas"]' >"$tools/.spectral.yaml"
"$tools/node_modules/.bin/spectral" lint openapi/openapi.json \
  --ruleset "$tools/.spectral.yaml" --fail-severity warn
"$tools/venv/bin/openapi-spec-validator" openapi/openapi.json
