#!/usr/bin/env bash
# Every check CI runs, in order. Fails on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
step "chromium"; bash scripts/ensure-chromium.sh
step "typecheck"; pnpm run typecheck
step "lint"; pnpm run lint
step "unit, component and story tests"; pnpm run test
step "build packages"; pnpm run build
step "build storybook"; pnpm run build-storybook
step "bundle size budgets (useRun ≤ 15 kB gz, RunView ≤ 30 kB gz, excluding React and zod)"; pnpm run size
step "end-to-end tests (built demo + mock Kestrel in Chromium)"; pnpm run e2e
