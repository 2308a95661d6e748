import { createLongStreamScenario, createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../components/axe-check.test-helper.js';
import { startLoopbackKestrel } from '../test-support/loopback-kestrel.test-helper.js';
import { useRun } from '../use-run.js';
import { RunInspector } from './run-inspector.js';
import { layOutTimelines } from './timeline-layout.test-helper.js';

let restoreLayout: () => void;
beforeAll(() => {
  restoreLayout = layOutTimelines();
});
afterAll(() => restoreLayout());

const timeline = () => screen.getByRole('listbox', { name: 'Timeline' });
const options = () => within(timeline()).getAllByRole('option');
const details = () => screen.getByRole('region', { name: 'Selected entry' });
const stateAfter = (term: string) => {
  const terms = [...details().querySelectorAll('dt')];
  return terms.find((dt) => dt.textContent === term)?.nextElementSibling?.textContent;
};

describe('RunInspector over a settled run', () => {
  it('lists every event with seq, type and session, and is axe-clean', async () => {
    const source = createScenarioSource(getScenario('subagent-turn-end'));
    const { container } = render(<RunInspector run={source} timelineHeight={2000} />);
    const rows = options();
    expect(rows).toHaveLength(source.getState().events.length);
    expect(rows[0]?.textContent).toMatch(/^1 run\.started root/);
    expect(rows.some((row) => /turn\/end ses_sub_research/.test(row.textContent ?? ''))).toBe(true);
    expect(rows[0]?.textContent).toMatch(/\d+ B$/);
    await expectNoAxeViolations(container);
  });

  it('is navigated with the keyboard: arrows, Home and End move, Enter selects and shows the state after it', async () => {
    const user = userEvent.setup();
    const source = createScenarioSource(getScenario('max-tokens'));
    render(<RunInspector run={source} timelineHeight={2000} />);
    const list = timeline();
    await user.click(list);
    await user.keyboard('{Home}{ArrowDown}{ArrowDown}');
    const active = document.getElementById(list.getAttribute('aria-activedescendant') ?? '');
    expect(active?.textContent).toMatch(/^3 /);
    await user.keyboard('{Enter}');
    expect(active?.getAttribute('aria-selected')).toBe('true');
    expect(stateAfter('phase')).toBe('streaming');
    expect(stateAfter('status')).toBe('—');
    await user.keyboard('{End}{Enter}');
    expect(stateAfter('phase')).toBe('settled');
    expect(stateAfter('status')).toBe('COMPLETED');
    expect(stateAfter('finishReason')).toBe('max-tokens');
    expect(within(details()).getByLabelText('Raw JSON').textContent).toContain('"type": "run.completed"');
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}{Enter}');
    expect(stateAfter('draft length')).toBe(`${getScenario('max-tokens').expected.assistantText?.length} chars`);
  });

  it('names the owned interval and the root turn/end that set the finish reason, and shows it on demand', async () => {
    const user = userEvent.setup();
    render(<RunInspector run={createScenarioSource(getScenario('subagent-turn-end'))} timelineHeight={2000} />);
    const derived = screen.getByRole('region', { name: 'Derived' });
    expect(derived?.textContent).toMatch(/owned intervalreceipt seq 2 → seq \d+/);
    expect(derived?.textContent).toMatch(/finishReasoncompleted, set by turn\/end seq \d+/);
    const setBy = within(derived).getAllByRole('button').at(-1) as HTMLElement;
    await user.click(setBy);
    expect(within(details()).getByLabelText('Raw JSON').textContent).toMatch(/"kind": "completed"/);
    expect(stateAfter('finishReason')).toBe('completed');
  });

  it('filters by type and by session', async () => {
    const user = userEvent.setup();
    const source = createScenarioSource(getScenario('subagent-turn-end'));
    render(<RunInspector run={source} timelineHeight={2000} />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'turn/end');
    expect(options().map((row) => row.textContent?.split(' ')[1])).toEqual(Array(4).fill('turn/end'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Session' }), 'root');
    expect(options()).toHaveLength(2);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Session' }), 'session:ses_sub_late');
    expect(options()).toHaveLength(1);
    expect(screen.getByText(`1 of ${source.getState().events.length} entries`)).toBeTruthy();
  });

  it('shows the protocol error a run ended in, at its seq, as the last entry', () => {
    render(<RunInspector run={createScenarioSource(getScenario('malformed-event'))} timelineHeight={2000} />);
    const last = options().at(-1);
    expect(last?.getAttribute('data-entry-kind')).toBe('client');
    expect(last?.textContent).toMatch(/error protocol at seq \d+:/);
  });

  it('shows raw JSON as text, never as HTML', async () => {
    const user = userEvent.setup();
    const source = createScenarioSource(getScenario('completed-text'), { upTo: 2 });
    render(<RunInspector run={source} timelineHeight={2000} />);
    act(() =>
      source.dispatch({
        type: 'text.delta',
        runId: source.getState().runId ?? '',
        sessionId: source.getState().sessionId ?? '',
        seq: source.getState().lastSeq + 1,
        delta: '<img src=x onerror="alert(1)">',
      }),
    );
    await user.click(options().at(-1) as HTMLElement);
    expect(document.querySelector('img')).toBeNull();
    expect(within(details()).getByLabelText('Raw JSON').textContent).toContain('<img src=x');
  });
});

describe('RunInspector with 100,000 events', () => {
  it('renders only the rows in view, and reaches and inspects the last one', async () => {
    const user = userEvent.setup();
    const source = createScenarioSource(createLongStreamScenario({ deltas: 100_000 }));
    render(<RunInspector run={source} timelineHeight={280} rowHeight={28} />);
    expect(screen.getByText('100005 entries')).toBeTruthy();
    expect(options().length).toBeLessThan(40);
    await user.click(timeline());
    await user.keyboard('{End}{Enter}');
    await waitFor(() => expect(options().at(-1)?.getAttribute('aria-posinset')).toBe('100005'));
    expect(stateAfter('phase')).toBe('settled');
    await user.keyboard('{PageUp}{ArrowUp}{Enter}');
    expect(stateAfter('phase')).toBe('streaming');
    expect(options().length).toBeLessThan(40);
  });
});

describe('RunInspector over a live run', () => {
  let kestrel: Awaited<ReturnType<typeof startLoopbackKestrel>>;
  beforeAll(async () => {
    kestrel = await startLoopbackKestrel();
  });
  afterAll(() => kestrel.close());

  function Live() {
    const run = useRun({ client: kestrel.client({ scenario: 'dropped-mid-stream' }) });
    return (
      <>
        <button type="button" onClick={() => run.start('Hello')}>
          Start
        </button>
        <RunInspector run={run} timelineHeight={2000} />
      </>
    );
  }

  it('grows as events arrive, timed since it started, and ends where the run did', async () => {
    const user = userEvent.setup();
    render(<Live />);
    expect(screen.getByText('0 entries')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Derived' })?.textContent).toMatch(/set by turn\/end/),
    );
    expect(options()[0]?.textContent).toMatch(/\+\d+\.\d{3} s/);
    await user.click(timeline());
    await user.keyboard('{End}{Enter}');
    await waitFor(() => expect(stateAfter('status')).toBe('COMPLETED'));
  });
});
