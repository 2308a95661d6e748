import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testReporters } from '../../../scripts/test-reporters.js';

/*
 * End-to-end tests: the BUILT demo served with the mock Kestrel on 127.0.0.1 (server/preview.ts), driven in
 * Debian's Chromium through playwright-core. One file at a time: the machine has 2 cores and one browser is enough.
 */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'e2e',
    reporters: testReporters('e2e'),
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 45_000,
    hookTimeout: 60_000,
  },
});
