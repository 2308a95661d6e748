import { getScenario } from '@kestrel/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEffect } from '../run/run-effect.js';
import { rejection, startLoopbackKestrel, testClient, type LoopbackKestrel } from './loopback-kestrel.test-helper.js';
import type { RunHandle } from './types.js';

let kestrel: LoopbackKestrel;
beforeEach(async () => {
  kestrel = await startLoopbackKestrel();
});
afterEach(() => kestrel.close());

/** Effects and state notifications in the order a handle delivered them. */
function journal(handle: RunHandle): string[] {
  const seen: string[] = [];
  handle.subscribeEffects((effect: RunEffect) => seen.push(`effect:${effect.type}:${handle.getState().phase}`));
  handle.subscribe(() => seen.push(`state:${handle.getState().phase}`));
  return seen;
}

describe('a handle tells what happened to its attempt', () => {
  it('names the run, then settles once, each before subscribers hear of the new state', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const seen = journal(handle);
    const event = await handle.result;
    const effects = seen.filter((entry) => entry.startsWith('effect:'));
    expect(effects).toEqual(['effect:run-identified:streaming', 'effect:settled:settled']);
    expect(seen.indexOf('effect:settled:settled')).toBeLessThan(seen.indexOf('state:settled'));
    expect(event).toBe(handle.getState().result);
  });

  it('fails with the same error state.error holds and result rejects with, when the stream is cut short', async () => {
    const scenario = getScenario('truncated');
    const handle = testClient(kestrel, { scenario: scenario.name }).start({ input: scenario.input });
    const failures: RunEffect[] = [];
    handle.subscribeEffects((effect) => {
      if (effect.type === 'failed') failures.push(effect);
    });
    const error = await rejection(handle.result);
    expect(failures).toEqual([{ type: 'failed', error: handle.getState().error }]);
    expect(error.detail).toBe(handle.getState().error);
  });

  it('says detached when the app stops following, and tells an unsubscribed listener nothing', async () => {
    const scenario = getScenario('completed-text');
    const handle = testClient(kestrel, { scenario: scenario.name, delayMs: 50 }).start({ input: scenario.input });
    const kept: string[] = [];
    const dropped: string[] = [];
    handle.subscribeEffects((effect) => kept.push(effect.type));
    handle.subscribeEffects((effect) => dropped.push(effect.type))();
    handle.detach();
    expect((await rejection(handle.result)).kind).toBe('detached');
    expect(kept).toEqual(['detached']);
    expect(dropped).toEqual([]);
  });
});
