import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createEventFactory,
  createScenarioRun,
  createScenarioSource,
  evs,
  getScenario,
  type Scenario,
} from '@kestrel/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../../components/axe-check.test-helper.js';
import { nodesChangedBy } from '../../test-support/changed-nodes.test-helper.js';
import { listenToLiveRegions } from '../../test-support/live-regions.test-helper.js';
import { AssistantText, type RenderText } from '../../index.js';
import { MarkdownText } from '../markdown-text.js';
import { Answer, renderCodeBlock } from './copy-code-block.js';

// Vitest runs from the repository root; jsdom's import.meta.url is not a file URL.
const source = readFileSync(resolve('packages/react/src/markdown/docs-examples/copy-code-block.tsx'), 'utf8');

function region(name: string): string {
  const match = new RegExp(`// #region ${name}\\n([\\s\\S]*?)// #endregion ${name}`).exec(source);
  if (match?.[1] === undefined) throw new Error(`no region ${name} in copy-code-block.tsx`);
  return match[1].trim();
}

const answer = 'Run the tests:\n\n```sh\npnpm test\n```\n\nThen build:\n\n```\npnpm build\n```';

/** The shared plain answer, its text swapped for one with two code blocks. */
function codeAnswerScenario(): Scenario {
  const base = getScenario('completed-text');
  const e = createEventFactory({ runId: base.runId, sessionId: base.sessionId });
  return {
    ...base,
    steps: evs(
      e.started(),
      e.received(),
      e.words(answer),
      e.turnEnd('completed'),
      e.idle(),
      e.completed({ status: 'COMPLETED', assistantText: answer }),
    ),
    expected: { ...base.expected, assistantText: answer, draftText: answer },
  };
}

describe('the copy-code-block example in docs/components.md', () => {
  it('is shown exactly as the type-checked example', () => {
    expect(readFileSync(resolve('docs/components.md'), 'utf8')).toContain(region('copy-code-block'));
  });

  it('puts a copy button on each code block of the answer, which copies that block and says so', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const { container } = render(<Answer run={createScenarioRun(codeAnswerScenario())} />);
    await screen.findByRole('group', { name: 'Code, sh' });
    const blocks = [screen.getByRole('group', { name: 'Code, sh' }), screen.getByRole('group', { name: 'Code' })];
    await user.click(within(blocks[1]!).getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('pnpm build');
    expect(await navigator.clipboard.readText()).toBe('pnpm build');
    const status = within(blocks[1]!).getByRole('status');
    expect(status.textContent).toBe('Copied');
    expect(within(blocks[0]!).getByRole('status').textContent).toBe('');
    await expectNoAxeViolations(container);
    // A second copy empties the status first, so a screen reader hears "Copied" again.
    const seen: string[] = [];
    new MutationObserver(() => seen.push(status.textContent ?? '')).observe(status, {
      childList: true,
      characterData: true,
      subtree: true,
    });
    await user.click(within(blocks[1]!).getByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(seen.at(-1)).toBe('Copied'));
    expect(seen).toContain('');
  });

  it("announces the settled answer once, without the blocks' buttons and hidden labels", () => {
    // Seen streaming first: only a draft that settles in view is announced.
    const source = createScenarioSource(codeAnswerScenario(), { upTo: 4 });
    const renderText: RenderText = (text, { final, streaming = !final }) => (
      <MarkdownText streaming={streaming} renderCodeBlock={renderCodeBlock}>
        {text}
      </MarkdownText>
    );
    const { container } = render(<AssistantText run={source} renderText={renderText} />);
    const listening = listenToLiveRegions(container);
    act(() => {
      while (source.step());
    });
    expect(within(container).getAllByRole('button', { name: 'Copy code' })).toHaveLength(2);
    // Not "sh Copy code pnpm test": the language label is aria-hidden, and the button is a control, not the answer.
    expect(listening.stop()).toEqual(['Run the tests:\npnpm test\nThen build:\npnpm build']);
  });

  it('streams a long block in pieces, as the default block does, so its settled lines are not touched', () => {
    const lines = (to: number) =>
      Array.from({ length: to }, (_, index) => `const line${index} = ${'x'.repeat(60)};\n`).join('');
    const show = (code: string) => (
      <MarkdownText streaming renderCodeBlock={renderCodeBlock}>
        {`Here it is.\n\n\`\`\`ts\n${code}`}
      </MarkdownText>
    );
    const { container, rerender } = render(show(lines(120)));
    const code = container.querySelector('pre > code.language-ts')!;
    const settled = [...code.querySelectorAll('[data-kestrel-chunk]')].slice(0, -1);
    expect(settled.length).toBeGreaterThan(3);
    const changed = nodesChangedBy(code, () => rerender(show(`${lines(140)}const last`)));
    expect(changed.size).toBeGreaterThan(0);
    expect([...changed].filter((node) => settled.some((piece) => piece.contains(node)))).toEqual([]);
    expect(code.textContent).toBe(`${lines(140)}const last`);
  });

  it('says so when the clipboard refuses, or is missing (a page served over plain http)', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    const { unmount } = render(<Answer run={createScenarioRun(codeAnswerScenario())} />);
    const refused = await screen.findByRole('group', { name: 'Code, sh' });
    await user.click(within(refused).getByRole('button', { name: 'Copy code' }));
    expect(await within(refused).findByText('Could not copy')).toBeTruthy();
    unmount();

    const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    try {
      render(<Answer run={createScenarioRun(codeAnswerScenario())} />);
      const missing = await screen.findByRole('group', { name: 'Code, sh' });
      await user.click(within(missing).getByRole('button', { name: 'Copy code' }));
      expect(await within(missing).findByText('Could not copy')).toBeTruthy();
    } finally {
      if (clipboard === undefined) delete (navigator as { clipboard?: unknown }).clipboard;
      else Object.defineProperty(navigator, 'clipboard', clipboard);
    }
  });
});
