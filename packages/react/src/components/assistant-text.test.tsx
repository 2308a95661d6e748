import { createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AssistantText } from './assistant-text.js';
import { expectNoAxeViolations } from './axe-check.test-helper.js';

describe('AssistantText', () => {
  it('streams the draft in a region that is not live, then puts only the final text in the log region that waited for it', async () => {
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
    const log = screen.getByRole('log', { name: 'Assistant response' });
    expect(log.textContent).toBe('');
    expect(log.hasAttribute('data-kestrel-part')).toBe(false);
    await expectNoAxeViolations(container);

    act(() => {
      while (source.step()) {
        // play to run.completed
      }
    });
    const streamed = source.getState().draftText;
    expect(streamed).toContain('I started looking up the exchange rates');
    // The same log region, there since the draft began, now holds the final text: one addition, announced once.
    expect(screen.getByRole('log', { name: 'Assistant response' })).toBe(log);
    expect(log.getAttribute('data-kestrel-part')).toBe('assistant-text');
    // The draft never stands in for the outcome: only output.assistantText is shown.
    expect(log.textContent).toBe('I could not finish the conversion because the model provider is overloaded.');
    expect(screen.queryByRole('group', { name: 'Assistant response, in progress' })).toBeNull();
    expect(screen.queryByText(/in progress/)).toBeNull();
    await expectNoAxeViolations(container);
  });

  it('shows the final text, not the draft, even when they differ by whitespace', () => {
    render(<AssistantText run={createScenarioSource(getScenario('cancelled'))} />);
    expect(screen.getByRole('log').textContent).toBe('Tides are caused mainly by the Moon');
  });

  it('marks streamed text as incomplete when the stream broke, and renders nothing without text', async () => {
    const { container } = render(<AssistantText run={createScenarioSource(getScenario('truncated'))} />);
    const draft = screen.getByRole('group', { name: 'Assistant response, in progress' });
    expect(draft.getAttribute('data-state')).toBe('interrupted');
    expect(screen.getByRole('log').textContent).toBe('');
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
        renderText={(text, { final }) => <em data-final={final}>{text.toUpperCase()}</em>}
      />,
    );
    expect(ref.current?.className).toBe('answer');
    expect(ref.current?.querySelector('em')?.getAttribute('data-final')).toBe('true');
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
      const changed = new Set<Node>();
      const observer = new MutationObserver((records) => records.forEach((record) => changed.add(record.target)));
      observer.observe(text, { subtree: true, childList: true, characterData: true });
      append('more words ');
      append(line(40));
      observer.takeRecords().forEach((record) => changed.add(record.target));
      observer.disconnect();
      expect(changed.size).toBeGreaterThan(0);
      expect([...changed].filter((node) => settled.some((piece) => piece.contains(node)))).toEqual([]);
      expect(text.textContent).toBe(source.getState().draftText);
    });
  });
});
