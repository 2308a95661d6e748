import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.js';
import { testReporters } from './scripts/test-reporters.js';

/*
 * One Vitest run, several projects: node for the framework-agnostic packages (real loopback HTTP), jsdom for
 * React, and (see .storybook) real Chromium for stories. `pnpm test` runs them all.
 */
export default defineConfig({
  test: {
    reporters: testReporters('unit'),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'apps/*/server/**/*.test.ts',
            'scripts/*.test.ts',
          ],
          // Type tests run once, on the machine's Node: tsc's verdict is the same on every Node, so the passes on
          // Node 22 and 24 (scripts/test-other-nodes.sh) set KESTREL_TYPE_TESTS=off.
          typecheck: {
            enabled: process.env.KESTREL_TYPE_TESTS !== 'off',
            include: ['packages/*/src/**/*.test-d.ts'],
            tsconfig: './tsconfig.json',
          },
          setupFiles: ['./scripts/vitest-fast-check-setup.ts'],
          testTimeout: 15_000,
          // Waits for what a loopback server sends: generous, so a machine under load slows them instead of failing them.
          expect: { poll: { timeout: 5_000 } },
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['packages/*/src/**/*.test.tsx', 'apps/*/src/**/*.test.tsx'],
          setupFiles: ['./scripts/vitest-dom-setup.ts', './scripts/vitest-fast-check-setup.ts'],
          testTimeout: 15_000,
          // Waits for what a loopback server sends: generous, so a machine under load slows them instead of failing them.
          expect: { poll: { timeout: 5_000 } },
        },
      },
      {
        // Every story is a test in real Chromium: it renders, its play function runs, and axe (addon-a11y) checks it.
        plugins: [storybookTest({ configDir: '.storybook' })],
        test: {
          name: 'storybook',
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
