#!/usr/bin/env bash
# Lints the committed OpenAPI document as the generators and linters a
# user would reach for read it: Spectral (`spectral:oas`) and Redocly's
# `recommended` rules (from npm), openapi-spec-validator and
# openapi-generator's `validate` (from PyPI; Java runs it), all installed
# under target/ on first use. Fails on any Spectral error or warning, any
# Redocly error, and any validator's error.
set -euo pipefail
cd "$(dirname "$0")/.."

SPECTRAL_VERSION=${SPECTRAL_VERSION:-6.16.3}
VALIDATOR_VERSION=${VALIDATOR_VERSION:-0.9.0}
REDOCLY_VERSION=${REDOCLY_VERSION:-1.34.3}
GENERATOR_VERSION=${GENERATOR_VERSION:-7.12.0}
tools=target/openapi-lint
mkdir -p "$tools"
if [ ! -x "$tools/node_modules/.bin/spectral" ]; then
  echo "installing @stoplight/spectral-cli $SPECTRAL_VERSION…" >&2
  (cd "$tools" && npm init -y >/dev/null && npm install --silent "@stoplight/spectral-cli@$SPECTRAL_VERSION")
fi
if [ ! -x "$tools/node_modules/.bin/redocly" ]; then
  echo "installing @redocly/cli $REDOCLY_VERSION…" >&2
  (cd "$tools" && npm install --silent "@redocly/cli@$REDOCLY_VERSION")
fi
if [ ! -x "$tools/venv/bin/openapi-spec-validator" ] || [ ! -x "$tools/venv/bin/openapi-generator-cli" ]; then
  echo "installing openapi-spec-validator $VALIDATOR_VERSION and openapi-generator-cli $GENERATOR_VERSION…" >&2
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install --quiet "openapi-spec-validator==$VALIDATOR_VERSION" \
    "openapi-generator-cli==$GENERATOR_VERSION"
fi
command -v java >/dev/null || { echo "FAIL: openapi-generator needs Java"; exit 1; }
echo 'extends: ["spectral:oas"]' >"$tools/.spectral.yaml"
"$tools/node_modules/.bin/spectral" lint openapi/openapi.json \
  --ruleset "$tools/.spectral.yaml" --fail-severity warn
"$tools/venv/bin/openapi-spec-validator" openapi/openapi.json
"$tools/node_modules/.bin/redocly" lint openapi/openapi.json --extends recommended
"$tools/venv/bin/openapi-generator-cli" validate -i openapi/openapi.json
echo "lint-openapi: PASS — Spectral (oas), Redocly (recommended), openapi-spec-validator, openapi-generator validate"
