#!/usr/bin/env bash
# Playwright drives Debian's Chromium (no browser download is possible here). Installs it when missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests..." >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The browser tests need /usr/bin/chromium: run 'sudo apt-get install chromium' (Debian/Ubuntu)." >&2
  exit 1
fi
