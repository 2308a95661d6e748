import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testReporters } from '../../../scripts/test-reporters.js';

/*
 * The BUILT Next.js example (`next build` first) served by `next start` on 127.0.0.1 with the mock Kestrel behind
 * its proxy route, driven in Debian's Chromium through playwright-core.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'next-e2e',
    reporters: testReporters('next-e2e'),
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 45_000,
    hookTimeout: 60_000,
  },
});
