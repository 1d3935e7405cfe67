#!/usr/bin/env bash
# Lighthouse on each of the board's views (issue 76): accessibility and
# performance, with Lighthouse's default mobile emulation and throttling,
# in Debian's Chromium (scripts/board-test.sh installs it; no browser
# download), Lighthouse pinned in tests/lighthouse/package-lock.json (from
# npm), against the release service on loopback. Prints each view's scores
# and fails when accessibility is under 95 or performance under 90. Not in
# CI: its performance score is a timing, measured here for BENCHMARKS.
#
#   scripts/lighthouse.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/board-test.sh --install-only
if [ ! tests/lighthouse/node_modules/.package-lock.json -nt tests/lighthouse/package-lock.json ]; then
  (cd tests/lighthouse && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
. scripts/service.sh tank-rules

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
work=$(mktemp -d)
cleanup() { kill "${server:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
"$bin_dir/tank-rules" --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done

failed=0
for game in tank-battle tank-war cobi-tank-wars; do
  CHROME_PATH=/usr/bin/chromium tests/lighthouse/node_modules/.bin/lighthouse \
    "http://127.0.0.1:$port/board/#game=$game" --chrome-flags="--headless=new --no-sandbox" \
    --only-categories=accessibility,performance --output=json --output-path="$work/$game.json" --quiet
  python3 - "$work/$game.json" "$game" <<'PY' || failed=1
import json, sys
report = json.load(open(sys.argv[1]))
scores = {name: round(100 * c["score"]) for name, c in report["categories"].items()}
audits = report["audits"]
timings = ", ".join(f"{k} {audits[k]['displayValue']}" for k in
                    ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time",
                     "cumulative-layout-shift"])
print(f"{sys.argv[2]}: accessibility {scores['accessibility']}, performance {scores['performance']} ({timings})")
sys.exit(0 if scores["accessibility"] >= 95 and scores["performance"] >= 90 else 1)
PY
done
[ "$failed" = 0 ] && echo "lighthouse: PASS" || { echo "lighthouse: FAIL"; exit 1; }
