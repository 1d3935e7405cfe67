#!/usr/bin/env bash
# Real-browser check of Swagger UI: starts the release binary on a free
# loopback port, opens it in headless Chromium (Debian's, driven by
# playwright-core), and for every operation clicks "Try it out" and
# "Execute" with the example values Swagger UI fills in. Fails unless every
# operation answers 2xx. Output: one line per operation, a summary, and
# target/swagger-ui-check/swagger.png (a screenshot of the page).
#
#   scripts/swagger-ui-check.sh
#
# Installs what it lacks: Debian's chromium (apt-get, as root) and
# playwright-core (npm, into target/swagger-ui-check/; no browser download).
# Builds nothing unless target/release/tank-rules is missing. Env:
# TANK_RULES_BIN (binary to run, default target/release/tank-rules),
# CHROMIUM (default /usr/bin/chromium), SWAGGER_UI_CHECK_VERBOSE=1 (print
# each request URL and answer excerpt).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=target/swagger-ui-check
PLAYWRIGHT_CORE_VERSION=1.65.1
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
BIN=${TANK_RULES_BIN:-target/release/tank-rules}
mkdir -p "$OUT"

apt_install() {
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "$@" >/dev/null
}

if [ ! -x "$CHROMIUM" ]; then
    echo "== installing Debian's chromium"
    apt_install chromium
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "== installing node and npm"
    apt_install nodejs npm
fi
if [ ! -f "$OUT/node_modules/playwright-core/package.json" ]; then
    echo "== installing playwright-core $PLAYWRIGHT_CORE_VERSION into $OUT"
    [ -f "$OUT/package.json" ] || echo '{"private":true}' >"$OUT/package.json"
    (cd "$OUT" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund \
        --loglevel=error "playwright-core@$PLAYWRIGHT_CORE_VERSION")
fi
if [ ! -x "$BIN" ]; then
    echo "== $BIN missing: building it"
    cargo build --release --bin tank-rules
fi

PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
echo "== starting $BIN on 127.0.0.1:$PORT"
"$BIN" --addr "127.0.0.1:$PORT" >"$OUT/service.log" 2>&1 &
SERVICE_PID=$!
stop_service() {
    if kill -0 "$SERVICE_PID" 2>/dev/null; then
        kill -TERM "$SERVICE_PID" 2>/dev/null || true
        wait "$SERVICE_PID" 2>/dev/null || true
    fi
}
trap stop_service EXIT

status=0
node scripts/swagger-ui-check.mjs \
    --base "http://127.0.0.1:$PORT" \
    --chromium "$CHROMIUM" \
    --out "$OUT" || status=$?

if [ "$status" -ne 0 ]; then
    echo "== swagger-ui-check FAILED (service log: $OUT/service.log)" >&2
fi
exit "$status"
