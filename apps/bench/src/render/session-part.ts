import { createMarkdownAnswer, splitIntoDeltas } from '@kestrel/testing';
import { log, writePartResult } from '../harness.js';
import { browserRounds, runRotatedRounds, type RotatedRounds } from '../rounds.js';
import { openBrowserBench, type SessionTrialResult } from './render-browser.js';
import { summariseSession, type SessionPartResult } from './session-results.js';
import { SESSION_CONTENDERS, type SessionContender } from './session-trial-types.js';

/*
 * Issue 18's benchmark in real Chromium: a conversation of BENCH_SESSION_RUNS (default 1,000) settled runs, then one
 * more run streaming a 20 kB markdown answer in 4,000 deltas at 2,000 events/s. `<SessionView>` on a session
 * controller that read the history through the mock's seeded listing, against `useChat` (throttle 50) holding the
 * same history as initial messages. Each contender once per round, in rotated order, in a fresh page; medians.
 * BENCH_SESSION_DELTAS (default 4,000) sets the streaming answer's deltas (about 5 characters each).
 */
const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer (got ${process.env[name]})`);
  return value;
};
const runs = positive('BENCH_SESSION_RUNS', 1_000);
const deltaCount = positive('BENCH_SESSION_DELTAS', 4_000);
const rate = 2_000;
const text = createMarkdownAnswer({ length: deltaCount * 5 });
const deltas = splitIntoDeltas(text, deltaCount);
const rounds = browserRounds();
const contenders = SESSION_CONTENDERS;
// The stream alone takes deltas / rate seconds; loading and mounting the history get 30 s more.
const timeoutMs = Math.round((deltas.length / rate) * 4_000) + 30_000;

const bench = await openBrowserBench();
let collected: RotatedRounds<SessionContender, SessionTrialResult>;
try {
  collected = await runRotatedRounds(
    contenders,
    rounds,
    (contender) => bench.session({ contender, runs, deltas, rate, timeoutMs }),
    log,
    (result) =>
      `${result.items} items, first paint ${result.initialRenderMs} ms, ${result.domNodesAfterMount} → ${result.domNodesAtEnd} DOM nodes, ${result.commitsWhileStreaming} commits while streaming (max ${result.maxCommitsPerFrame}/frame, motion ${result.maxMotionCommitsPerFrame}/frame), history changed ${result.settledChanged}, mutated ${result.settledMutations}, ${result.longTasks} long tasks${result.contentOk ? '' : ', ANSWER NOT SHOWN'}`,
  );
} finally {
  await bench.close();
}
const { samples, failures, orders } = collected;

const result: SessionPartResult = {
  environment: 'chromium',
  chromiumVersion: bench.version,
  runs,
  answer: { chars: text.length, deltas: deltas.length, rate },
  rounds,
  orders,
  failures,
  contenders: contenders.flatMap((contender) => {
    const trials = samples.get(contender)!;
    return trials.length === 0 ? [] : [summariseSession(contender, trials)];
  }),
};
writePartResult(result);
