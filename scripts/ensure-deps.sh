#!/usr/bin/env bash
# Installs npm dependencies when node_modules is missing or older than the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."
# `npm install` (which follows the lock file) rather than `npm ci`: this registry does not serve the
# other platforms' optional binaries (e.g. @next/swc-darwin-arm64), so the lock file cannot list
# them and `npm ci` would refuse it as out of sync.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies (npm install from package-lock.json)..." >&2
  npm install --no-audit --no-fund
fi
