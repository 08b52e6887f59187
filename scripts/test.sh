#!/usr/bin/env bash
# Command 2 of the README: the whole suite: types, unit and integration tests (vitest), then a
# production build and the browser tests (Playwright in Debian's Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh
start=$(date +%s)
echo "== typecheck"; npx tsc --noEmit -p .
echo "== unit and integration tests (vitest)"; npx vitest run
echo "== build"; PAL_SKIP_TYPECHECK=1 npx next build > /tmp/pal-test-build.log 2>&1 || { cat /tmp/pal-test-build.log; exit 1; }
echo "== browser tests (playwright)"; npx playwright test
echo "== whole suite took $(( $(date +%s) - start )) s"
