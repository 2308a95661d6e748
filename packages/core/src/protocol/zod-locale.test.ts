import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parseRunEvent } from './parse-run-event.js';
import { ProtocolError } from './protocol-error.js';
import { validateInteractionAnswer } from './validate-interaction-answer.js';
import { ensureDefaultLocale } from './zod-locale.js';

/*
 * Deliberately imports nothing that loads classic zod (@kestrel/testing does, through its invoice schema, and
 * classic registers English itself): this file sees what an app without classic zod sees.
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

describe('protocol messages without classic zod loaded', () => {
  it('say what was expected and what was received, not just "Invalid input"', () => {
    const event = { type: 'run.started', runId: 'run_1', seq: 'one', sessionId: 'ses_1', attempt: 1 };
    expect(reasonOf(() => parseRunEvent(event))).toBe('Invalid input: expected number, received string');
  });

  it('name the broken field of an interaction answer', () => {
    const interaction = { kind: 'text', id: 'int_1', prompt: 'Why?' } as const;
    expect(validateInteractionAnswer(interaction, { kind: 'text', text: 42 })).toEqual({
      valid: false,
      issues: [{ path: ['text'], message: 'Invalid input: expected string, received number' }],
    });
  });

  it("keep a locale the app chose before Kestrel's schemas loaded", () => {
    const before = z.config().localeError;
    const appLocale = () => 'app message';
    try {
      z.config({ localeError: appLocale });
      ensureDefaultLocale();
      expect(z.config().localeError).toBe(appLocale);
    } finally {
      z.config({ localeError: before });
    }
  });
});
