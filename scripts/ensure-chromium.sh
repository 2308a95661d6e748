#!/usr/bin/env bash
# Browser tests use Debian's Chromium (never a downloaded browser). Install it when it is missing.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium (about a minute)..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
  exit 0
fi
echo "Chromium is missing: install Debian's 'chromium' package (binary /usr/bin/chromium) and run again." >&2
exit 1
