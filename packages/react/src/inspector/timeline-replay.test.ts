import { readFileSync } from 'node:fs';
import {
  createInitialRunState,
  parseRunRecording,
  reduceRun,
  type RunAction,
  type RunRecording,
  type RunState,
} from '@kestrel/core';
import { createLongStreamScenario, createScenarioSource, getScenario, scenarios } from '@kestrel/testing';
import { describe, expect, it } from 'vitest';
import { scenarioRecording } from './stories/support/scenario-recording.js';
import { RecordingTimeline } from './timeline-from-recording.js';
import { StateTimeline } from './timeline-from-state.js';
import type { TimelineEntry } from './timeline-entry.js';
import { TimelineReplay } from './timeline-replay.js';

/** The timeline the inspector builds from a scenario's final run state (no recording). */
function timelineOf(name: string): { entries: readonly TimelineEntry[]; final: RunState } {
  const source = createScenarioSource(getScenario(name));
  const timeline = new StateTimeline(() => 0);
  timeline.update(source.getState());
  return { entries: timeline.entries, final: source.getState() };
}

const view = (state: RunState) => ({
  phase: state.phase,
  status: state.status,
  finishReason: state.finishReason,
  draft: state.draftText.length,
  lastSeq: state.lastSeq,
  error: state.error?.kind ?? null,
});

/** Replays a recording's timeline and checks it ends where the recording says the run ended. */
function replayRecording(recording: RunRecording) {
  const timeline = new RecordingTimeline();
  timeline.update(recording);
  const replay = new TimelineReplay();
  replay.extend(timeline.entries);
  const final = replay.finalState;
  expect({ phase: final.phase, status: final.status, lastSeq: final.lastSeq, eventCount: final.events.length }).toEqual(
    recording.final,
  );
  return { timeline, final };
}

describe('replaying a timeline through the run reducer', () => {
  it.each(scenarios.map((scenario) => scenario.name))(
    'ends "%s" in the state the run itself reached, from its events alone',
    (name) => {
      const { entries, final } = timelineOf(name);
      const replay = new TimelineReplay();
      replay.extend(entries);
      const { draft, ...settled } = view(final);
      const { draft: replayedDraft, ...replayed } = view(replay.finalState);
      expect(replayed).toEqual(settled);
      // The draft is kept across a settled attempt; a respond attempt starts it over, in both.
      expect(replayedDraft).toBe(draft);
    },
  );

  it.each(scenarios.map((scenario) => scenario.name))(
    'ends a recording of "%s" in the state the recorded run reached, client happenings included',
    (name) => {
      const recording = scenarioRecording(getScenario(name));
      const { final } = replayRecording(recording);
      expect(view(final)).toEqual(view(createScenarioSource(getScenario(name)).getState()));
    },
  );

  it('ends the demo run recorded through the real client (the committed atlas file) in its recorded final state', () => {
    const file = new URL(
      '../components/stories/recordings/demo-dropped-mid-stream.kestrel-recording.json',
      import.meta.url,
    );
    const recording = parseRunRecording(JSON.parse(readFileSync(file, 'utf8')));
    const { timeline } = replayRecording(recording);
    expect(timeline.entries.some((entry) => entry.kind === 'client' && entry.happening.type === 'resume')).toBe(true);
  });

  it('gives the state after any entry of 100,000, equal to reducing every entry before it', () => {
    const scenario = createLongStreamScenario({ deltas: 100_000 });
    const source = createScenarioSource(scenario);
    const timeline = new StateTimeline(() => 0);
    timeline.update(source.getState());
    const replay = new TimelineReplay();
    replay.extend(timeline.entries);
    expect(replay.length).toBe(100_005);
    const picked = [0, 1, 255, 256, 257, 512, 511, 50_000, 99_999, 100_004];
    const expected = new Map<number, ReturnType<typeof view>>();
    let state = createInitialRunState();
    timeline.entries.forEach((entry, index) => {
      if (entry.kind === 'event') state = reduceRun(state, entry.event as RunAction);
      if (picked.includes(index)) expected.set(index, view(state));
    });
    // Out of order on purpose: back, forth, across checkpoints.
    for (const index of picked) expect(view(replay.stateAfter(index))).toEqual(expected.get(index));
  });

  it('steps forward and back through a live run as it grows', () => {
    const source = createScenarioSource(getScenario('completed-text'), { upTo: 5 });
    const timeline = new StateTimeline(() => 0);
    const replay = new TimelineReplay();
    timeline.update(source.getState());
    replay.extend(timeline.entries);
    const early = view(replay.stateAfter(replay.length - 1));
    source.step(100);
    timeline.update(source.getState());
    replay.extend(timeline.entries);
    expect(view(replay.stateAfter(replay.length - 1))).toEqual(view(source.getState()));
    expect(view(replay.stateAfter(early.lastSeq - 1))).toEqual(early);
  });

  it('refuses an index outside the timeline with a RangeError naming it', () => {
    const replay = new TimelineReplay();
    replay.extend(timelineOf('completed-text').entries);
    expect(() => replay.stateAfter(999)).toThrow(/no timeline entry at index 999/);
    expect(() => replay.stateAfter(-1)).toThrow(RangeError);
  });
});

describe('what the inspector derives', () => {
  const seqAt = (entries: readonly TimelineEntry[], index: number | null) => {
    const entry = index === null ? undefined : entries[index];
    return entry?.kind === 'event' ? { seq: entry.event.seq, type: entry.event.type } : null;
  };

  it('names the root turn/end that set the finish reason, not a sub-agent one or one after agent.idle', () => {
    const { entries } = timelineOf('subagent-turn-end');
    const replay = new TimelineReplay();
    replay.extend(entries);
    const setBy = entries[replay.facts.finishReasonSetAt ?? -1];
    expect(setBy?.kind === 'event' && setBy.event.type === 'turn/end' ? setBy.event.reason.kind : null).toBe(
      'completed',
    );
    expect(replay.finalState.finishReason).toBe('completed');
    expect(seqAt(entries, replay.facts.intervalOpenedAt)?.type).toBe('message.received');
    expect(seqAt(entries, replay.facts.intervalClosedAt)?.type).toBe('agent.idle');
  });

  it('has no owned interval and no turn/end for a run seen without its receipt', () => {
    const replay = new TimelineReplay();
    replay.extend(timelineOf('malformed-event').entries);
    expect(replay.facts.finishReasonSetAt).toBeNull();
    expect(replay.facts.intervalClosedAt).toBeNull();
  });

  it('ends a timeline that ended in a protocol error in that error, at its seq', () => {
    const { entries, final } = timelineOf('malformed-event');
    const last = entries.at(-1);
    expect(last?.kind).toBe('client');
    expect(last?.kind === 'client' ? last.happening : null).toMatchObject({
      type: 'error',
      error: { kind: 'protocol' },
    });
    const replay = new TimelineReplay();
    replay.extend(entries);
    expect(replay.finalState.error).toEqual(final.error);
  });
});
