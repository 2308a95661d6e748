import { describe, expect, it } from 'vitest';
import { RunClientError } from '../client/run-client-error.js';
import { RunUsageError } from '../client/run-usage-error.js';
import { isWaitOver } from './wait-over.js';

const refused = (status: number, code: string | null, runId: string | null = 'run_1') =>
  new RunClientError({ kind: 'http', status, code, message: `HTTP ${status} ${code ?? ''}` }, { runId });

describe('isWaitOver', () => {
  it('reads an interaction answered already or no longer known, or a run or session gone, as a finished wait', () => {
    expect(isWaitOver(refused(409, 'interaction_answered'))).toBe(true);
    expect(isWaitOver(refused(404, 'interaction_not_found'))).toBe(true);
    expect(isWaitOver(refused(404, 'run_not_found'))).toBe(true);
    expect(isWaitOver(refused(404, 'session_not_found'))).toBe(true);
  });

  it('leaves refusals that say nothing about the wait to the caller: the run still waits, to answer again', () => {
    expect(isWaitOver(refused(409, 'run_in_progress'))).toBe(false);
    expect(isWaitOver(refused(409, null))).toBe(false);
    expect(isWaitOver(refused(404, 'not_found'))).toBe(false); // a proxy's authorize refusal (docs/security.md)
    expect(isWaitOver(refused(404, null))).toBe(false);
  });

  it('leaves every other failure to the caller: the person can correct the answer or try again', () => {
    expect(isWaitOver(refused(409, 'interaction_answered', null))).toBe(false); // no run to read again
    expect(isWaitOver(refused(422, 'invalid_answer'))).toBe(false);
    expect(isWaitOver(refused(503, null))).toBe(false);
    expect(isWaitOver(new RunClientError({ kind: 'timeout', message: 'no answer', timeoutMs: 10 }))).toBe(false);
    expect(isWaitOver(new RunUsageError('already-answered', 'answered here'))).toBe(false);
    expect(isWaitOver(new Error('409'))).toBe(false);
  });
});
