import { parseRunRecording, recordingToJsonLines, recordRun } from '@kestrel/core';
import { createScenarioSource, getScenario } from '@kestrel/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../components/axe-check.test-helper.js';
import { startLoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { RunInspector } from './run-inspector.js';
import { scenarioRecording } from './stories/support/scenario-recording.js';
import { layOutTimelines } from './timeline-layout.test-helper.js';

let restoreLayout: () => void;
beforeAll(() => {
  restoreLayout = layOutTimelines();
});
afterAll(() => restoreLayout());
afterEach(() => vi.restoreAllMocks());

const rows = () => within(screen.getByRole('listbox', { name: 'Timeline' })).getAllByRole('option');
const texts = () => rows().map((row) => row.textContent ?? '');
const details = () => screen.getByRole('region', { name: 'Selected entry' });
const stateAfter = (term: string) =>
  [...details().querySelectorAll('dt')].find((dt) => dt.textContent === term)?.nextElementSibling?.textContent;

/** The inspector of a finished run given its recording (the run's own state is the one the recording ends in). */
function inspect(name: string) {
  const scenario = getScenario(name);
  const recording = scenarioRecording(scenario);
  const view = render(
    <RunInspector run={createScenarioSource(scenario)} recording={recording} timelineHeight={4000} />,
  );
  return { recording, ...view };
}

describe('RunInspector given a recording', () => {
  it('interleaves the drop, the reconnect with its attempt and delay, the resume and its Last-Event-ID', async () => {
    const { container } = inspect('dropped-mid-stream');
    const lines = texts();
    const lost = lines.findIndex((line) => line.includes('connection lost: connection dropped'));
    expect(lost).toBeGreaterThan(0);
    expect(lines[lost + 1]).toMatch(/reconnecting \(attempt 1, in 0 ms\): connection dropped/);
    expect(lines[lost + 2]).toMatch(/GET \/v1\/runs\/run_dropped\/events \(Last-Event-ID \d+\)/);
    expect(lines.some((line) => /resumed after seq \d+/.test(line))).toBe(true);
    // Times and sizes as recorded: the message's data, 40 ms apart.
    expect(lines.find((line) => line.includes('run.started'))).toMatch(/\+0\.080 s \d+ B$/);
    await expectNoAxeViolations(container);
  });

  it('replays the recording to the state the run ended in, with the client happenings applied', async () => {
    const user = userEvent.setup();
    inspect('dropped-mid-stream');
    const list = screen.getByRole('listbox', { name: 'Timeline' });
    await user.click(list);
    await user.keyboard('{End}{Enter}');
    expect(stateAfter('phase')).toBe('settled');
    expect(stateAfter('status')).toBe('COMPLETED');
    const reconnecting = rows().find((row) => row.textContent?.includes('reconnecting'));
    await user.click(reconnecting as HTMLElement);
    expect(stateAfter('phase')).toBe('reconnecting');
  });

  it('shows a message the client refused as received, then the protocol error at its seq', async () => {
    const user = userEvent.setup();
    inspect('malformed-event');
    const invalid = rows().find((row) => row.getAttribute('data-entry-kind') === 'invalid');
    expect(invalid?.textContent).toMatch(/invalid message: .*callId/);
    const error = rows().at(-1);
    expect(error?.textContent).toMatch(/error protocol at seq \d+/);
    await user.click(error as HTMLElement);
    expect(stateAfter('phase')).toBe('error');
    expect(stateAfter('error')).toMatch(/^protocol: /);
  });

  it('says when a recording was truncated, and what was redacted', () => {
    const recording = { ...scenarioRecording(getScenario('completed-text')) };
    render(
      <RunInspector
        run={createScenarioSource(getScenario('completed-text'))}
        recording={{
          ...recording,
          redactions: ['texts'],
          truncated: { atMs: 120, maxBytes: 1000, droppedEntries: 7 },
        }}
      />,
    );
    const notes = screen.getByRole('region', { name: 'Recording' });
    expect(notes.textContent).toContain('7 entries left out after 0.120 s (the 1000 byte bound)');
    expect(notes.textContent).toContain('redactedtexts');
  });

  it('downloads the recording as the JSON parseRunRecording reads back, and as JSON Lines', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    const names: string[] = [];
    // jsdom has no object URLs and saves no files: keep what would have been saved (Chromium does it for real, e2e).
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:kestrel-test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { recording } = inspect('completed-text');
    await user.click(screen.getByRole('button', { name: 'Download recording' }));
    await user.click(screen.getByRole('button', { name: 'Download JSON Lines' }));
    expect(names).toEqual(['run_completed_text.kestrel-recording.json', 'run_completed_text.kestrel-recording.jsonl']);
    expect(parseRunRecording(JSON.parse(await (blobs[0] as Blob).text()))).toEqual(recording);
    expect(await (blobs[1] as Blob).text()).toBe(recordingToJsonLines(recording));
    // Nothing is left in the page.
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('has no download buttons without a recording', () => {
    render(<RunInspector run={createScenarioSource(getScenario('completed-text'))} />);
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
  });
});

describe('RunInspector following recordRun over a real server', () => {
  it('shows what the recorder heard as it happens, and replays it to the state the run reached', async () => {
    const user = userEvent.setup();
    const kestrel = await startLoopbackKestrel();
    try {
      const handle = kestrel
        .client({ scenario: 'dropped-mid-stream' })
        .start({ input: 'How many people live in Paris?' });
      const recorder = recordRun(handle);
      render(<RunInspector run={handle} recording={recorder} timelineHeight={4000} />);
      await handle.result;
      await waitFor(() => expect(texts().some((line) => /resumed after seq \d+/.test(line))).toBe(true));
      expect(texts()[0]).toMatch(/^· start /);
      expect(texts().some((line) => /200 POST \/v1\/sessions\/[^/]+\/runs/.test(line))).toBe(true);
      await user.click(screen.getByRole('listbox', { name: 'Timeline' }));
      await user.keyboard('{End}{Enter}');
      expect(stateAfter('phase')).toBe(handle.getState().phase);
      expect(stateAfter('status')).toBe('COMPLETED');
      expect(stateAfter('last seq')).toBe(String(handle.getState().lastSeq));
    } finally {
      await kestrel.close();
    }
  });
});
