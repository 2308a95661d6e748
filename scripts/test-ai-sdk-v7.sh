#!/usr/bin/env bash
# @kestrel/ai-sdk against AI SDK 7 (ai@7, @ai-sdk/react@4, installed beside 6 as the npm aliases ai-v7 and
# ai-react-v7): its sources and tests type-checked against 7's declarations, then its unit and component tests run
# with `ai` resolved to 7 (vitest.ai-sdk-v7.config.ts). AI SDK 7 needs Node 22+, so they run on the pinned Node 22
# from scripts/ensure-node.sh. The main test pass covers AI SDK 6 on the machine's Node.
set -euo pipefail
cd "$(dirname "$0")/.."
node_bin="$(bash scripts/ensure-node.sh 22)"
started=$SECONDS
pnpm exec tsc -p packages/ai-sdk/tsconfig.ai-v7.json
PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run -c vitest.ai-sdk-v7.config.ts
printf -- '-- AI SDK 7 on Node %s: %s s\n' "$("$node_bin" --version)" "$((SECONDS - started))"
