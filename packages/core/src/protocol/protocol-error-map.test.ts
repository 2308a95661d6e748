import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parseRunEvent } from './parse-run-event.js';
import { ProtocolError } from './protocol-error.js';
import { protocolErrorMap } from './protocol-error-map.js';
import { runOutputSchema } from './schemas.js';
import { validateInteractionAnswer } from './validate-interaction-answer.js';

/*
 * Deliberately imports nothing that loads classic zod (@kestrel/testing does, through its invoice schema, and
 * classic registers its English locale globally): this file sees what an app without classic zod sees.
 */
function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ProtocolError) return error.reason;
    throw error;
  }
  throw new Error('expected a ProtocolError');
}

const started = { type: 'run.started', runId: 'run_1', seq: 1, sessionId: 'ses_1', attempt: 1 };

describe('protocol messages without a zod locale', () => {
  it('leave the global zod configuration as the app set it', () => {
    expect(z.config().localeError).toBeUndefined();
  });

  it.each([
    [{ ...started, seq: 'one' }, 'Invalid input: expected number, received string'],
    [{ ...started, seq: null }, 'Invalid input: expected number, received null'],
    [{ ...started, runId: '' }, 'Too small: expected string to have >=1 characters'],
    [{ ...started, attempt: 0 }, 'Too small: expected number to be >=1'],
    [{ ...started, type: 'progress', label: 'l', fraction: 2 }, 'Too big: expected number to be <=1'],
    [
      { ...started, type: 'log', level: 'loud', message: 'm' },
      'Invalid option: expected one of "debug"|"info"|"warn"|"error"',
    ],
  ])('say what was expected and what was received for %j', (event, reason) => {
    expect(reasonOf(() => parseRunEvent(event))).toBe(reason);
  });

  it('name the broken field of an interaction answer', () => {
    const interaction = { kind: 'text', id: 'int_1', prompt: 'Why?' } as const;
    expect(validateInteractionAnswer(interaction, { kind: 'text', text: 42 })).toEqual({
      valid: false,
      issues: [{ path: ['text'], message: 'Invalid input: expected string, received number' }],
    });
  });

  it('give the same words to an app that parses with an exported schema and the map', () => {
    const result = runOutputSchema.safeParse({ status: 'COMPLETED', assistantText: '' }, { error: protocolErrorMap });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['assistantText'], message: 'expected a non-empty string' });
    const wrongStatus = runOutputSchema.safeParse({ status: 'DONE' }, { error: protocolErrorMap });
    expect(wrongStatus.error?.issues[0]).toMatchObject({
      path: ['status'],
      message: 'Invalid option: expected one of "COMPLETED"|"FAILED"|"CANCELLED"|"WAITING"',
    });
  });

  it('step aside for a locale the app chose', () => {
    const before = z.config().localeError;
    try {
      z.config({ localeError: () => 'app message' });
      expect(reasonOf(() => parseRunEvent({ ...started, seq: 'one' }))).toBe('app message');
    } finally {
      z.config({ localeError: before });
    }
  });
});
