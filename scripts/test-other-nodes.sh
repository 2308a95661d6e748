#!/usr/bin/env bash
# Runs the unit (node) Vitest project again on each pinned Node given (22, 24), besides the full run on the machine's
# own Node. That project holds what depends on Node's version: the core's client, SSE and the reducer, the server
# helpers and the proxy over real HTTP on 127.0.0.1, the mock Kestrel, server rendering. The component (dom)
# project renders React in jsdom, the same on every Node, and it was half of these passes' time (CI stays under 20
# minutes without it); stories and e2e run in Chromium. They all run once, in the main pass; so do the type tests
# (tsc's verdict is the same on every Node).
# Every version runs even when an earlier one failed, so one pass shows all of them; the exit status is 1 if any did.
set -euo pipefail
cd "$(dirname "$0")/.."
failed=()
for major in "$@"; do
  node_bin="$(bash scripts/ensure-node.sh "$major")"
  printf '\n-- Node %s (%s)\n' "$("$node_bin" --version)" "$node_bin"
  started=$SECONDS
  # The Node directory goes first on PATH, so anything Vitest starts with `node` runs on the same version.
  if ! PATH="$(dirname "$node_bin"):$PATH" KESTREL_TYPE_TESTS=off "$node_bin" node_modules/vitest/vitest.mjs run --project node; then
    failed+=("$major")
  fi
  printf -- '-- Node %s: %s s\n' "$major" "$((SECONDS - started))"
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "unit tests failed on Node ${failed[*]}" >&2
  exit 1
fi
