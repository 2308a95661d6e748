import { describe, expect, it } from 'vitest';
import { summarize, type VitestJsonReport } from './test-summary.js';

const report = (passed: number, failed = 0, pending = 0): VitestJsonReport => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: pending,
  numTodoTests: 0,
});

describe('the closing line of pnpm verify', () => {
  it('counts each run on each Node version and names every run, so the sum is not read as a test count', () => {
    const { line, failed } = summarize(
      new Map([
        ['unit-node22.json', report(1100)],
        ['unit-node20.json', report(1200, 0, 2)],
        ['e2e-node20.json', report(40)],
        ['unit-node24.json', report(1100)],
      ]),
    );
    expect(line).toBe(
      '3440 passed, 0 failed, 2 skipped over 4 runs (e2e on Node 20: 40 passed; unit on Node 20: 1200 passed; unit on Node 22: 1100 passed; unit on Node 24: 1100 passed)',
    );
    expect(failed).toBe(false);
  });

  it('fails when a test failed on one Node only, and says on which', () => {
    const { line, failed } = summarize(
      new Map([
        ['unit-node20.json', report(10)],
        ['unit-node24.json', report(9, 1)],
      ]),
    );
    expect(line).toContain('unit on Node 24: 9 passed, 1 failed');
    expect(failed).toBe(true);
  });
});
