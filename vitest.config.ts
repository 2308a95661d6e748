import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/*
 * One Vitest run, several projects: node for the framework-agnostic packages (real loopback HTTP), jsdom for
 * React, and (see .storybook) real Chromium for stories. `pnpm test` runs them all.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/server/**/*.test.ts'],
          typecheck: { enabled: true, include: ['packages/*/src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
          testTimeout: 15_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['packages/*/src/**/*.test.tsx', 'apps/*/src/**/*.test.tsx'],
          setupFiles: ['./scripts/vitest-dom-setup.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
