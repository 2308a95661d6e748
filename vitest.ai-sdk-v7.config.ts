import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { testReporters } from './scripts/test-reporters.js';

/*
 * The @kestrel/ai-sdk tests again, against AI SDK 7 (`ai@7`, `@ai-sdk/react@4`, installed side by side as the npm
 * aliases `ai-v7` and `ai-react-v7`). Only the package's own imports are redirected: AI SDK 7 itself resolves its
 * own `ai`. AI SDK 7 needs Node 22+, so scripts/test-ai-sdk-v7.sh runs this on a pinned Node 22.
 */
const installed = (alias: string) => fileURLToPath(new URL(`./packages/ai-sdk/node_modules/${alias}`, import.meta.url));
const aiSdk7 = [
  { find: /^ai$/, replacement: installed('ai-v7') },
  { find: /^@ai-sdk\/react$/, replacement: installed('ai-react-v7') },
];

export default defineConfig({
  resolve: { alias: aiSdk7 },
  test: {
    reporters: testReporters('ai-sdk-v7'),
    projects: [
      {
        resolve: { alias: aiSdk7 },
        test: {
          name: 'ai-sdk-v7-node',
          environment: 'node',
          include: ['packages/ai-sdk/src/**/*.test.ts'],
          setupFiles: ['./scripts/vitest-ai-sdk-v7-setup.ts', './scripts/vitest-fast-check-setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: aiSdk7 },
        test: {
          name: 'ai-sdk-v7-dom',
          environment: 'jsdom',
          include: ['packages/ai-sdk/src/**/*.test.tsx'],
          setupFiles: [
            './scripts/vitest-ai-sdk-v7-setup.ts',
            './scripts/vitest-dom-setup.ts',
            './scripts/vitest-fast-check-setup.ts',
          ],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
