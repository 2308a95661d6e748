import { createLongStreamScenario, createMarkdownAnswer, createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { nodesChangedBy } from '../test-support/changed-nodes.test-helper.js';
import { listenToLiveRegions } from '../test-support/live-regions.test-helper.js';
import { ANNOUNCED_CHARS } from './answer-announcement.js';
import { AssistantText } from './assistant-text.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';
import { ANNOUNCEMENT_KEPT_MS } from './settled-announcement.js';

/** The visually hidden live region that announces the settled answer. */
const announcer = (container: HTMLElement) => container.querySelector<HTMLElement>('[aria-live="polite"]');

const playToEnd = (source: { step: () => boolean }) =>
  act(() => {
    while (source.step()) {
      // play to run.completed
    }
  });

describe('AssistantText', () => {
  it('streams the draft in a group that is not live, then shows only the final text in that same group, labelled as what a failed run said', async () => {
    const scenario = getScenario('failed-retryable');
    const source = createScenarioSource(scenario, { until: (state) => state.draftText.split(' ').length > 4 });
    const { container } = render(<AssistantText run={source} />);
    const draft = screen.getByRole('group', { name: 'Assistant response, in progress' });
    expect(draft.getAttribute('aria-busy')).toBe('true');
    expect(draft.getAttribute('data-kestrel-part')).toBe('draft');
    expect(draft.textContent).toContain('I started looking');
    expect(draft.textContent).toContain('in progress');
    // A reader that ignores aria-busy still hears nothing: the draft is in no live region.
    expect(draft.closest('[aria-live], [role="log"], [role="status"], [role="alert"]')).toBeNull();
    // The live region is there, empty, before the answer: its text will be an addition, which is announced.
    expect(announcer(container)?.textContent).toBe('');
    await expectNoAxeViolations(container);

    const listening = listenToLiveRegions(container);
    playToEnd(source);
    expect(source.getState().draftText).toContain('I started looking up the exchange rates');
    const finalText = 'I could not finish the conversion because the model provider is overloaded.';
    // The same group now shows the final text, and only it: the draft never stands in for the outcome.
    expect(screen.getByRole('group', { name: 'Assistant response, from a run that failed' })).toBe(draft);
    expect(draft.getAttribute('data-kestrel-part')).toBe('assistant-text');
    expect(draft.getAttribute('data-state')).toBe('final');
    expect(draft.querySelector('[data-kestrel-text]')?.textContent).toBe(finalText);
    expect(draft.textContent).not.toContain('in progress');
    expect(draft.closest('[aria-live], [role="log"], [role="status"], [role="alert"]')).toBeNull();
    // Not announced: a failed run's text is not an answer, and the status (not part of this test) says it failed.
    expect(listening.stop()).toEqual([]);
    await expectNoAxeViolations(container);
  });

  it('keeps the elements that showed the draft when the answer settles: nothing is mounted again', () => {
    const text = createMarkdownAnswer({ length: 12_000 });
    const source = createScenarioSource(createLongStreamScenario({ text, deltas: 300 }), {
      until: (state) => state.draftText === text,
    });
    const { container } = render(<AssistantText run={source} />);
    const region = screen.getByRole('group', { name: 'Assistant response, in progress' });
    const shown = region.querySelector('[data-kestrel-text]')!;
    const pieces = [...shown.querySelectorAll('[data-kestrel-chunk]')];
    expect(pieces.length).toBeGreaterThan(5);
    const changed = nodesChangedBy(shown, () => playToEnd(source));
    expect(source.getState().phase).toBe('settled');
    const final = container.querySelector('[data-kestrel-part="assistant-text"]');
    expect(final).toBe(region);
    expect(final?.querySelector('[data-kestrel-text]')).toBe(shown);
    expect([...shown.querySelectorAll('[data-kestrel-chunk]')]).toEqual(pieces);
    expect([...changed]).toEqual([]);
    expect(shown.textContent).toBe(text);
  });

  it('announces a long answer once, as plain text cut at a word boundary, then says it continues on the page', () => {
    const text = createMarkdownAnswer({ length: 12_000 });
    const source = createScenarioSource(createLongStreamScenario({ text, deltas: 300 }), { upTo: 10 });
    const { container } = render(<AssistantText run={source} />);
    const listening = listenToLiveRegions(container);
    playToEnd(source);
    const [heard, ...more] = listening.stop();
    expect(more).toEqual([]);
    const continues = '… (the answer continues on the page)';
    expect(heard?.endsWith(continues)).toBe(true);
    const spoken = heard!.slice(0, -continues.length);
    expect(spoken.length).toBeLessThanOrEqual(ANNOUNCED_CHARS);
    expect(spoken.length).toBeGreaterThan(ANNOUNCED_CHARS - 200);
    expect(text.startsWith(spoken)).toBe(true);
    expect(/\s/.test(text[spoken.length]!)).toBe(true);
    // One text node: the answer is never HTML, even where it looks like it.
    expect([...announcer(container)!.childNodes].map((node) => node.nodeType)).toEqual([Node.TEXT_NODE]);
  });

  it('announces nothing for a run first seen settled, and empties its announcement after 7 seconds', () => {
    const settled = render(<AssistantText run={createScenarioSource(getScenario('completed-text'))} />);
    expect(screen.getByRole('group', { name: 'Assistant response' }).textContent).toContain('Canberra');
    expect(announcer(settled.container)?.textContent).toBe('');
    settled.unmount();

    vi.useFakeTimers();
    try {
      const source = createScenarioSource(getScenario('completed-text'), { upTo: 4 });
      const { container } = render(<AssistantText run={source} />);
      playToEnd(source);
      expect(announcer(container)?.textContent).toContain('Canberra');
      act(() => vi.advanceTimersByTime(ANNOUNCEMENT_KEPT_MS - 1));
      expect(announcer(container)?.textContent).toContain('Canberra');
      act(() => vi.advanceTimersByTime(1));
      // Browsing the page now finds the answer once, where it is shown.
      expect(announcer(container)?.textContent).toBe('');
      expect(screen.getByRole('group', { name: 'Assistant response' }).textContent).toContain('Canberra');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the final text, not the draft, even when they differ by whitespace', () => {
    render(<AssistantText run={createScenarioSource(getScenario('cancelled'))} />);
    // A cancelled run's text, named as what it said until the stop.
    expect(screen.getByRole('group', { name: 'Assistant response, stopped before the end' }).textContent).toBe(
      'Tides are caused mainly by the Moon',
    );
  });

  it('tells its text renderer whether more of the text is on its way: not once the stream broke', () => {
    const seen: string[] = [];
    const scenario = getScenario('truncated');
    const source = createScenarioSource(scenario, { upTo: -1 });
    render(
      <AssistantText
        run={source}
        renderText={(text, { final, streaming }) => {
          seen.push(`${final} ${streaming}`);
          return text;
        }}
      />,
    );
    act(() => void source.step());
    expect([seen[0], seen.at(-1)]).toEqual(['false true', 'false false']);
  });

  it('marks streamed text as incomplete when the stream broke, and renders nothing without text', async () => {
    const { container } = render(<AssistantText run={createScenarioSource(getScenario('truncated'))} />);
    // No longer named "in progress": the marker inside says what it is.
    const draft = screen.getByRole('group', { name: 'Assistant response' });
    expect(draft.getAttribute('data-state')).toBe('interrupted');
    expect(announcer(container)?.textContent).toBe('');
    expect(draft.querySelector('[data-kestrel-marker]')?.textContent).toBe('Incomplete text, not a result');
    await expectNoAxeViolations(container);
    const { container: empty } = render(<AssistantText run={createScenarioSource(getScenario('failed-no-text'))} />);
    expect(empty.innerHTML).toBe('');
  });

  it('never shows the draft as text with no result once an outcome was received, even if an error followed', () => {
    const source = createScenarioSource(getScenario('event-after-completed'));
    expect(source.getState().phase).toBe('error');
    expect(source.getState().output).not.toBeNull();
    const { container } = render(<AssistantText run={source} />);
    expect(container.innerHTML).toBe('');
  });

  it('renders text as text, never as HTML', () => {
    const scenario = getScenario('completed-text');
    const source = createScenarioSource(scenario, { upTo: 4 });
    act(() =>
      source.dispatch({
        type: 'text.delta',
        runId: scenario.runId,
        sessionId: scenario.sessionId,
        seq: 99,
        delta: '<img src=x onerror="alert(1)"><b>bold</b>',
      }),
    );
    const { container } = render(<AssistantText run={source} />);
    expect(container.querySelector('img, b')).toBeNull();
    expect(screen.getByRole('group').textContent).toContain('<b>bold</b>');
  });

  it('takes a text renderer, a className and a ref', () => {
    const ref = { current: null as HTMLDivElement | null };
    render(
      <AssistantText
        ref={ref}
        className="answer"
        run={createScenarioSource(getScenario('completed-text'))}
        renderText={(text, { final, streaming }) => (
          <em data-final={final} data-streaming={streaming}>
            {text.toUpperCase()}
          </em>
        )}
      />,
    );
    expect(ref.current?.className).toBe('answer');
    expect(ref.current?.querySelector('em')?.getAttribute('data-final')).toBe('true');
    expect(ref.current?.querySelector('em')?.getAttribute('data-streaming')).toBe('false');
    expect(ref.current?.textContent).toContain('THE CAPITAL OF AUSTRALIA');
  });

  describe('given a long plain-text draft streaming in', () => {
    const scenario = getScenario('completed-text');
    const line = (n: number) => `Line ${n}: ${'lorem ipsum '.repeat(20)}\n`;
    const stream = () => {
      const source = createScenarioSource(scenario, { upTo: 4 });
      let seq = 1000;
      const append = (delta: string) =>
        act(() =>
          source.dispatch({
            type: 'text.delta',
            runId: scenario.runId,
            sessionId: scenario.sessionId,
            seq: seq++,
            delta,
          }),
        );
      return { source, append };
    };

    it('shows it as pieces cut at line breaks whose text is the draft, character for character', () => {
      const { source, append } = stream();
      for (let n = 0; n < 40; n += 1) append(line(n));
      render(<AssistantText run={source} />);
      const text = screen.getByRole('group').querySelector('[data-kestrel-text]')!;
      const pieces = [...text.querySelectorAll('[data-kestrel-chunk]')];
      expect(pieces.length).toBeGreaterThan(3);
      expect(pieces.slice(0, -1).every((piece) => piece.textContent.endsWith('\n'))).toBe(true);
      expect(text.textContent).toBe(source.getState().draftText);
    });

    it('changes only its last piece as text arrives, so settled lines are not laid out again', () => {
      const { source, append } = stream();
      for (let n = 0; n < 40; n += 1) append(line(n));
      render(<AssistantText run={source} />);
      const text = screen.getByRole('group').querySelector('[data-kestrel-text]')!;
      const settled = [...text.querySelectorAll('[data-kestrel-chunk]')].slice(0, -1);
      expect(settled.length).toBeGreaterThan(2);
      const changed = nodesChangedBy(text, () => {
        append('more words ');
        append(line(40));
      });
      expect(changed.size).toBeGreaterThan(0);
      expect([...changed].filter((node) => settled.some((piece) => piece.contains(node)))).toEqual([]);
      expect(text.textContent).toBe(source.getState().draftText);
    });
  });
});
