import { scenarioActions, scenarioEvents, scenarios } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { continuationActions, expectReading, initialFor, play, reduceAll } from './play-scenario.test-helper.js';

/* Every shared scenario, played through reduceRun as a careful client plays it, must read as the scenario says. */
describe.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('scenario %s', (_name, scenario) => {
  it('meets its expected reading', () => {
    expectReading(play(scenario), scenario.expected);
  });

  it('settles exactly at run.completed, or not at all', () => {
    const actions = scenarioActions(scenario.steps);
    const states = reduceAll(initialFor(scenario), actions);
    actions.forEach((action, index) => {
      const before = states[index];
      const after = states[index + 1];
      if (after?.phase === 'settled' && before?.phase !== 'settled') expect(action.type).toBe('run.completed');
    });
  });

  it('keeps every event it accepted, in seq order', () => {
    const state = play(scenario);
    const seqs = state.events.toArray().map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(state.lastSeq).toBe(seqs.at(-1) ?? 0);
  });

  if (scenario.continuation !== undefined) {
    const continuation = scenario.continuation;
    it('answers the WAITING attempt: a new attempt that meets the continuation reading and keeps both attempts', () => {
      const first = play(scenario);
      expect(first).toMatchObject({ phase: 'settled', status: 'WAITING' });
      const states = reduceAll(first, continuationActions(scenario));
      const last = states.at(-1);
      if (last === undefined) throw new Error('no state');
      expectReading(last, continuation.expected);

      const sent = [...scenarioEvents(scenario.steps), ...scenarioEvents(continuation.steps)];
      expect(last.events.toArray().map((event) => event.seq)).toEqual(sent.map((event) => event.seq));
      expect(
        last.events
          .toArray()
          .filter((event) => event.type === 'run.started')
          .map((event) => event.attempt),
      ).toEqual([1, 2]);
      expect(last.attempt).toBe(2);
      // The answer opened a new attempt: nothing of the first one's motion or outcome leaks into it.
      const answered = states[1];
      expect(answered).toMatchObject({
        phase: 'connecting',
        result: null,
        output: null,
        status: null,
        draftText: '',
        finishReason: undefined,
      });
      expect(answered?.events).toBe(first.events);
      expect(last.draftText).toBe(continuation.expected.assistantText);
    });
  }
});
