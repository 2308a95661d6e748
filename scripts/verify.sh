#!/usr/bin/env bash
# Every check CI runs, in order. Fails on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's heading says how long the one before it took, so the cost of every step shows in the CI log.
started=$SECONDS
step() { printf '\n(%ss)\n== %s\n' "$((SECONDS - started))" "$*"; started=$SECONDS; }
# Each test run also writes a JSON report here (named after the suite and its Node major); the last step sums
# them into one closing line, counting each run on each Node version (see scripts/test-summary.ts).
export KESTREL_RESULTS="$PWD/artifacts/test-results"
rm -rf "$KESTREL_RESULTS" && mkdir -p "$KESTREL_RESULTS"
step "chromium"; bash scripts/ensure-chromium.sh
step "typecheck"; pnpm run typecheck
step "lint"; pnpm run lint
step "format (prettier --check; fix with pnpm format)"; pnpm run format:check
step "@kestrel/ai-sdk against AI SDK 7 (types and tests, on pinned Node 22)"; bash scripts/test-ai-sdk-v7.sh
step "unit, component and story tests"; pnpm run test
step "unit tests (the node project) again on Node 22 and 24 (pinned, from the npm registry)"; bash scripts/test-other-nodes.sh 22 24
step "build packages"; pnpm run build
step "published entries exist"; pnpm exec tsx scripts/check-package-exports.ts
step "packed packages: publint --strict, attw (esm-only), type check in a Node-only and a DOM project, optional peers"; pnpm exec tsx scripts/check-packed-packages.ts
step "build storybook"; pnpm run build-storybook
step "bundle size budgets (useRun ≤ 15 kB gz, RunView ≤ 30 kB gz, excluding React and zod)"; pnpm run size
step "end-to-end tests (built demo + mock Kestrel in Chromium)"; pnpm run e2e
step "Next.js example: next build, then next start on 127.0.0.1 in Chromium"; pnpm run e2e:next
step "summary"; pnpm exec tsx scripts/test-summary.ts "$KESTREL_RESULTS"
