import { createEventFactory } from './event-factory.js';
import { splitIntoDeltas } from './markdown-answer.js';
import { ev, evs, type Scenario } from './scenario.js';

/** Options of `createLongStreamScenario`: how many deltas to stream and the scenario's name. */
export interface LongStreamOptions {
  /** How many `text.delta` events the answer streams in. Default 10 000. */
  readonly deltas?: number;
  /** The answer, cut into `deltas` pieces by `splitIntoDeltas`. Default `w0 w1 w2 …`, one word per delta. */
  readonly text?: string;
  readonly name?: string;
}

/**
 * A COMPLETED run whose answer arrives as many small `text.delta` events: the load for render-budget tests and
 * benchmarks. Not in the shared `scenarios` list (stories and per-scenario tests would all pay for it); pass it to
 * the scenario handler or mock server with `scenarios: [...scenarios, createLongStreamScenario()]`.
 *
 * @example
 * const longStream = createLongStreamScenario({ deltas: 10_000 });
 * const handler = createScenarioHandler({ scenarios: [...scenarios, longStream] });
 */
export function createLongStreamScenario(options: LongStreamOptions = {}): Scenario {
  const deltas = options.deltas ?? 10_000;
  const e = createEventFactory({ runId: 'run_long_stream' });
  const pieces =
    options.text === undefined
      ? Array.from({ length: deltas }, (_, i) => `w${i} `)
      : splitIntoDeltas(options.text, deltas);
  const text = pieces.join('');
  return {
    name: options.name ?? 'long-stream',
    title: `Long stream: ${deltas} text deltas`,
    description: `A long answer streamed as ${deltas} small text deltas, then settled COMPLETED.`,
    group: 'completed',
    input: 'Write a very long answer',
    runId: e.runId,
    sessionId: e.sessionId,
    steps: [
      ...evs(e.started(), e.received(), ...pieces.map((piece) => e.text(piece)), e.turnEnd('completed'), e.idle()),
      ev(e.completed({ status: 'COMPLETED', assistantText: text })),
    ],
    expected: {
      phase: 'settled',
      status: 'COMPLETED',
      finishReason: 'completed',
      assistantText: text,
      draftText: text,
      eventCount: deltas + 5,
    },
  };
}
