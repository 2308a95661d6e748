import { createInitialRunState, reduceRun, type RunState } from '@kestrel/core';
import { createEventFactory, evs, scenarioActions, type WireEvent } from '@kestrel/testing';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fixedSource, withFinishReason } from '../test-support/fixed-source.test-helper.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { FinishNotice } from './finish-notice.js';
import { KestrelLabelsProvider } from './labels.js';

const TEXT = 'Here are the first items: apples, apricots';

/** A run played through the reducer: its root turn ends with `finish` (none when null), then `output` settles it. */
function runEndingWith(
  finish: string | null,
  output: Record<string, unknown> = { status: 'COMPLETED', assistantText: TEXT },
  settle = true,
): RunState {
  const e = createEventFactory();
  const events: WireEvent[] = [
    e.started(),
    e.received(),
    ...e.words(TEXT),
    ...(finish === null ? [] : [e.turnEnd(finish)]),
  ];
  if (settle) events.push(e.idle(), e.completed(output));
  return scenarioActions(evs(...events)).reduce(reduceRun, createInitialRunState());
}

describe('FinishNotice', () => {
  it.each([
    ['max-tokens', 'max-tokens', 'Stopped at the length limit: the answer may be incomplete.'],
    ['error', 'error', "The agent's last turn ended with an error."],
    ['tool-calls', 'tool-calls', "The agent's last turn ended with a tool call."],
    ['cancelled', 'cancelled', "The agent's last turn was cancelled."],
    ['refusal', 'other', 'The agent\'s last turn ended with reason "refusal".'],
  ])('notes a COMPLETED answer whose last root turn ended with %s (kind %s): "%s"', async (finish, kind, text) => {
    const { container } = render(<FinishNotice run={fixedSource(runEndingWith(finish))} />);
    const note = screen.getByRole('note');
    expect(note.textContent).toBe(text);
    expect(note.getAttribute('data-kestrel-part')).toBe('finish-notice');
    expect(note.getAttribute('data-kind')).toBe(kind);
    expect(note.getAttribute('data-finish-reason')).toBe(finish);
    // Not a live region: RunStatus says it once, with the outcome.
    expect(note.hasAttribute('aria-live')).toBe(false);
    await expectNoAxeViolations(container);
  });

  it.each([
    ['completed', runEndingWith('completed')],
    ['null (no root turn ended)', runEndingWith(null)],
    ['unknown (undefined)', withFinishReason(runEndingWith('max-tokens'), undefined)],
  ])('shows nothing for a COMPLETED run whose finish reason is %s', (_name, state) => {
    const { container } = render(<FinishNotice run={fixedSource(state)} />);
    expect(container.innerHTML).toBe('');
  });

  it.each([
    [
      'FAILED',
      runEndingWith('max-tokens', {
        status: 'FAILED',
        error: { code: 'too_long', message: 'The answer ran too long.' },
        assistantText: TEXT,
      }),
    ],
    [
      'CANCELLED',
      runEndingWith('cancelled', {
        status: 'CANCELLED',
        cancellation: { reason: 'Stopped', by: 'user' },
        assistantText: TEXT,
      }),
    ],
    [
      'WAITING',
      runEndingWith('tool-calls', {
        status: 'WAITING',
        interaction: { id: 'i1', kind: 'text', prompt: 'Which city?' },
        assistantText: TEXT,
      }),
    ],
    ['a run still streaming', runEndingWith('max-tokens', undefined, false)],
  ])(
    'shows nothing for %s: only a COMPLETED answer is qualified, other outcomes say why they stopped',
    (_name, state) => {
      const { container } = render(<FinishNotice run={fixedSource(state)} />);
      expect(container.innerHTML).toBe('');
    },
  );

  it('shows a kind it does not know as text, never as HTML, and cuts a long one', () => {
    const hostile = '<img src=x onerror="alert(1)">';
    const { container, rerender } = render(<FinishNotice run={fixedSource(runEndingWith(hostile))} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('note').textContent).toBe(`The agent's last turn ended with reason "${hostile}".`);
    const long = 'x'.repeat(500);
    rerender(<FinishNotice run={fixedSource(runEndingWith(long))} />);
    expect(screen.getByRole('note').textContent).toBe(`The agent's last turn ended with reason "${'x'.repeat(59)}…".`);
    expect(screen.getByRole('note').getAttribute('data-finish-reason')).toBe(long);
  });

  it('takes translated labels from a provider or its own prop, and passes className and ref through', () => {
    const ref = { current: null as HTMLParagraphElement | null };
    render(
      <KestrelLabelsProvider
        labels={{ finishNotice: (kind) => (kind === 'max-tokens' ? 'Längengrenze erreicht' : 'Anders beendet') }}
      >
        <FinishNotice run={fixedSource(runEndingWith('max-tokens'))} className="note" ref={ref} />
        <FinishNotice
          run={fixedSource(runEndingWith('error'))}
          labels={{ finishNotice: (_kind, reason) => `Ende: ${reason}` }}
        />
      </KestrelLabelsProvider>,
    );
    expect(screen.getAllByRole('note').map((note) => note.textContent)).toEqual([
      'Längengrenze erreicht',
      'Ende: error',
    ]);
    expect(ref.current?.className).toBe('note');
  });
});
