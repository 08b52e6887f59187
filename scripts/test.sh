#!/usr/bin/env bash
# Command 2 of the README: the whole suite: types, lint, format check, unit and integration tests (vitest), then a
# production build, the browser tests (Playwright in Debian's Chromium) and the reliability checks on that
# build (npm run test:reliability), and the real-server suite (npm run test:real-server: the CLI against llama.cpp's
# llama-server, built once per machine). Ends with one "N passed, N failed" line over all four, naming any failed static check.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
bash scripts/ensure-chromium.sh || exit 1
start=$(date +%s)
out=$(mktemp -d)
status=0
# Each stage's heading carries the seconds since the suite started, so a log says where the time went.
stage() { echo "== [$(($(date +%s) - start)) s] $*"; }
failed_checks=() # static checks are not tests, but the closing line must still name them
stage "typecheck"
npx tsc --noEmit -p . || { status=1; failed_checks+=(typecheck); }
stage "lint (eslint: Next.js rules, lib/ and db/ never import app/, components/ or cli/)"
npx eslint . || { status=1; failed_checks+=(lint); }
stage "import cycles (madge: no module may import itself through others, type imports included)"
npm run --silent check:cycles || { status=1; failed_checks+=(import-cycles); }
stage "format (prettier --check; npm run format fixes it)"
npx prettier --check . > "$out/prettier.log" 2>&1 || { tail -n 20 "$out/prettier.log"; status=1; failed_checks+=(format); }
stage "unit and integration tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$out/vitest.json" || status=1
stage "build"
if PAL_SKIP_TYPECHECK=1 npx next build > "$out/build.log" 2>&1; then
  stage "browser tests (playwright)"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$out/playwright.json" npx playwright test --reporter=list,json || status=1
  stage "reliability (SIGKILL, backup/restore, model endpoint faults, load, full disk: test/reliability, on the build above)"
  npx vitest run --config vitest.reliability.config.ts --reporter=default --reporter=json --outputFile.json="$out/reliability.json" || status=1
else
  cat "$out/build.log"; status=1; failed_checks+=(build)
fi
stage "real server (pal against llama.cpp's llama-server on a synthetic model: test/real-server; the first run on a machine builds llama-server, ~10 min)"
npx vitest run --config vitest.real-server.config.ts --reporter=default --reporter=json --outputFile.json="$out/real-server.json" || status=1
SUITE_FAILED_CHECKS="${failed_checks[*]:-}" node scripts/test-summary.mjs "$out/vitest.json" "$out/playwright.json" "$out/reliability.json" "$out/real-server.json" || status=1
echo "== whole suite took $(( $(date +%s) - start )) s"
rm -rf "$out"
exit $status
