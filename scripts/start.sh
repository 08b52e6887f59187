#!/usr/bin/env bash
# Command 1 of the README: install, migrate, seed the demo data and accounts, build, serve.
# Re-running keeps existing data. PORT (default 3000) and PAL_DB (default data/pal.db) are honoured.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
PORT="${PORT:-3000}"
export NEXTAUTH_URL="${NEXTAUTH_URL:-http://localhost:$PORT}"
node bin/pal.mjs demo
# Build when there is no build yet or the sources are newer than it. The build log stays with this
# checkout (data/, git-ignored; not .next/, which the build empties): one fixed file in the system temp
# folder was shared, and overwritten, by every checkout on the machine.
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib db public next.config.ts package-lock.json -newer .next/BUILD_ID -print -quit 2>/dev/null)" ]; then
  echo "Building the app (first start takes a minute; log: data/build.log)..." >&2
  mkdir -p data
  PAL_SKIP_TYPECHECK=1 npx next build >data/build.log 2>&1 || { cat data/build.log >&2; exit 1; }
fi
echo ""
echo "PAL Studio is starting on http://localhost:$PORT  (sign in with the demo admin above; Ctrl+C stops it)"
exec npx next start -p "$PORT"
