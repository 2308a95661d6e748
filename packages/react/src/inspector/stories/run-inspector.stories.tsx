import { parseRunRecording, redactTexts } from '@kestrel/core';
import { createLongStreamScenario, createScenarioRun, getScenario } from '@kestrel/testing';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { Beside, LiveInspected } from './support/inspected-scenario.js';
import { scenarioRecording } from './support/scenario-recording.js';

/**
 * The run inspector (`@kestrel/react/inspector`) beside the `<RunView>` of the same run: every event with its seq,
 * session, time and size, the client's own happenings between them, the state after a selected entry.
 */
const meta = { title: 'Inspector/RunInspector', component: Beside } satisfies Meta<typeof Beside>;
export default meta;
type Story = StoryObj<typeof meta>;

const listbox = (canvasElement: HTMLElement) => within(canvasElement).getByRole('listbox', { name: 'Timeline' });
const stateAfter = (canvasElement: HTMLElement, term: string) =>
  [...canvasElement.querySelectorAll('[data-kestrel-inspector-part="state"] dt')].find((dt) => dt.textContent === term)
    ?.nextElementSibling?.textContent;

const dropped = getScenario('dropped-mid-stream');
const malformed = getScenario('malformed-event');
const completed = getScenario('completed-text');
const longStream = createLongStreamScenario({ deltas: 100_000, name: 'long-stream-100k' });

/** A live run over the real run client: the timeline grows as events arrive; press Play. */
export const Live: StoryObj<typeof LiveInspected> = {
  render: (args) => <LiveInspected {...args} />,
  args: { scenario: 'subagent-turn-end', eventDelayMs: 30 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: /^Play/ }));
    const derived = canvas.getByRole('region', { name: 'Derived' });
    await waitFor(() => expect(derived.textContent).toMatch(/set by turn\/end seq \d+/), { timeout: 8000 });
    // The last entry is the terminal event only once the run has settled (the RunView beside it says so).
    await waitFor(
      () => expect(canvasElement.querySelector('[data-kestrel-run][data-phase="settled"]')).not.toBeNull(),
      {
        timeout: 8000,
      },
    );
    await userEvent.click(listbox(canvasElement));
    await userEvent.keyboard('{End}{Enter}');
    await waitFor(() => expect(stateAfter(canvasElement, 'phase')).toBe('settled'));
  },
};

/** A recorded run whose connection dropped: the drop, the reconnect wait, the resume with its Last-Event-ID. */
export const Resumed: Story = {
  args: { run: createScenarioRun(dropped), recording: scenarioRecording(dropped) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const resumed = canvas.getByRole('option', { name: /resumed after seq \d+/ });
    await userEvent.click(resumed);
    await expect(stateAfter(canvasElement, 'phase')).toBe('streaming');
    await expect(canvas.getByRole('option', { name: /reconnecting \(attempt 1/ })).toBeTruthy();
  },
};

/** A recorded run broken by a malformed event: the message as received, then the protocol error naming its seq. */
export const ProtocolErrorAtSeq: Story = {
  args: { run: createScenarioRun(malformed), recording: scenarioRecording(malformed) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('option', { name: /error protocol at seq \d+/ }));
    await expect(stateAfter(canvasElement, 'phase')).toBe('error');
  },
};

/** 100,000 events: only the rows in view are in the page; End, Enter and the state after the last one. */
export const HundredThousandEvents: Story = {
  args: { run: createScenarioRun(longStream) },
  play: async ({ canvasElement }) => {
    const list = listbox(canvasElement);
    await expect(within(list).getAllByRole('option').length).toBeLessThan(60);
    await userEvent.click(list);
    await userEvent.keyboard('{End}{Enter}');
    await waitFor(() => expect(stateAfter(canvasElement, 'phase')).toBe('settled'));
    await expect(stateAfter(canvasElement, 'draft length')).toBe('688890 chars');
  },
};

/**
 * A run that waited for a person, answered in the view beside it: both attempts' events in one timeline, and the
 * state after the last one (the second attempt's COMPLETED).
 */
export const WaitingAnswered: StoryObj<typeof LiveInspected> = {
  render: (args) => <LiveInspected {...args} />,
  args: { scenario: 'waiting-approval', eventDelayMs: 20 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: /^Play/ }));
    await userEvent.click(await canvas.findByRole('button', { name: 'Approve' }, { timeout: 8000 }));
    await waitFor(
      () => expect(canvasElement.querySelector('[data-kestrel-run][data-status="COMPLETED"]')).not.toBeNull(),
      { timeout: 8000 },
    );
    // Both attempts are in the timeline: the first, which ended WAITING, and the one the answer started.
    const type = canvas.getByRole('combobox', { name: 'Type' });
    for (const kind of ['run.started', 'run.completed']) {
      await userEvent.selectOptions(type, kind);
      await expect(within(listbox(canvasElement)).getAllByRole('option')).toHaveLength(2);
    }
    await userEvent.selectOptions(type, '');
    await userEvent.click(listbox(canvasElement));
    await userEvent.keyboard('{End}{Enter}');
    await waitFor(() => expect(stateAfter(canvasElement, 'status')).toBe('COMPLETED'));
  },
};

const fullRecording = scenarioRecording(completed);
const KEPT_ENTRIES = 12;
/** The same recording as `recordRun` leaves it past its `maxBytes`, then with the model's text redacted. */
const cutAndRedacted = redactTexts(
  parseRunRecording({
    ...fullRecording,
    entries: fullRecording.entries.slice(0, KEPT_ENTRIES),
    truncated: {
      atMs: fullRecording.entries[KEPT_ENTRIES - 1]!.t,
      maxBytes: 2048,
      droppedEntries: fullRecording.entries.length - KEPT_ENTRIES,
    },
  }),
);

/**
 * A recording that hit its byte bound and had its text redacted before it was shared: the notes say both, the
 * timeline stops where the recording did, and no kept delta shows the model's words.
 */
export const TruncatedAndRedacted: Story = {
  args: { run: createScenarioRun(completed), recording: cutAndRedacted },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const notes = canvas.getByRole('region', { name: 'Recording' });
    await expect(notes.querySelector('[data-state="truncated"]')?.textContent).toMatch(
      /^\d+ entries left out after [\d.]+ s \(the 2048 byte bound\)/,
    );
    await expect(within(notes).getByText('texts')).toBeTruthy();
    // The timeline is the kept entries (its set size, not the rows a virtual list happens to render).
    const rows = within(listbox(canvasElement)).getAllByRole('option');
    await expect(rows[0]!.getAttribute('aria-setsize')).toBe(String(KEPT_ENTRIES));
    // Every kept delta, opened: its raw JSON holds the placeholder, not the model's words.
    const deltas = rows.filter((row) => /\.delta/.test(row.textContent ?? ''));
    await expect(deltas.length).toBeGreaterThan(0);
    for (const delta of deltas) {
      await userEvent.click(delta);
      await expect(canvas.getByLabelText('Raw JSON').textContent).toContain('"delta": "[redacted]"');
    }
  },
};
