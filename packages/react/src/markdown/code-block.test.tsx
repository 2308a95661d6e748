import { render } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { nodesChangedBy } from '../test-support/changed-nodes.test-helper.js';
import type { MarkdownCodeBlock, RenderCodeBlock } from './code-block.js';
import { MarkdownText } from './markdown-text.js';

// A fenced block inside a list item, as a model writes steps.
const listWithFence = ['- step', '', '  ```sh', '  pnpm test', '  ```'];

/** A renderer that records the code each block was mounted with: a remount shows as a second entry. */
function mountRecorder(): { readonly mounts: string[]; readonly render: RenderCodeBlock } {
  const mounts: string[] = [];
  function Counted({ code, complete }: MarkdownCodeBlock) {
    const [first] = useState(code);
    useEffect(() => void mounts.push(first), [first]);
    return <pre data-complete={String(complete)}>{code}</pre>;
  }
  return { mounts, render: (block) => <Counted {...block} /> };
}

const asFigure: RenderCodeBlock = ({ code, language }) => (
  <figure data-language={language ?? 'none'}>
    <pre>{code}</pre>
  </figure>
);

describe('MarkdownText renderCodeBlock', () => {
  it('hands every code block to the renderer, fenced, indented and inside a list, with its language word', () => {
    const seen: MarkdownCodeBlock[] = [];
    const record: RenderCodeBlock = (block) => {
      seen.push(block);
      return asFigure(block);
    };
    const text = ['```ts title="a.ts"', 'const a = 1 < 2;', '```', '', '    indented()', '', ...listWithFence].join(
      '\n',
    );
    const { container } = render(<MarkdownText renderCodeBlock={record}>{text}</MarkdownText>);
    expect(seen).toEqual([
      { code: 'const a = 1 < 2;', language: 'ts', complete: true },
      { code: 'indented()', language: undefined, complete: true },
      { code: 'pnpm test', language: 'sh', complete: true },
    ]);
    // The renderer's markup replaces the default one; the code reaches the page as text.
    expect([...container.querySelectorAll('figure')].map((figure) => figure.dataset.language)).toEqual([
      'ts',
      'none',
      'sh',
    ]);
    expect(container.querySelector('code')).toBeNull();
    expect(container.querySelector('figure pre')?.textContent).toBe('const a = 1 < 2;');
  });

  it('renders the default <pre><code> without a renderer, with the language as a class', () => {
    const { container } = render(<MarkdownText>{'```ts\n<script>x()</script>\n```\n\n```\nplain\n```'}</MarkdownText>);
    const codes = [...container.querySelectorAll('pre > code')];
    expect(codes.map((code) => [code.className, code.textContent])).toEqual([
      ['language-ts', '<script>x()</script>'],
      ['', 'plain'],
    ]);
    expect(container.querySelector('script')).toBeNull();
  });

  it('gives a growing code block its new text at each streamed update', () => {
    const { container, rerender } = render(
      <MarkdownText streaming renderCodeBlock={asFigure}>
        {'Intro.\n\n```js\nlet a'}
      </MarkdownText>,
    );
    expect(container.querySelector('figure pre')?.textContent).toBe('let a');
    rerender(
      <MarkdownText streaming renderCodeBlock={asFigure}>
        {'Intro.\n\n```js\nlet a = 1;\nlet b'}
      </MarkdownText>,
    );
    expect(container.querySelector('figure pre')?.textContent).toBe('let a = 1;\nlet b');
  });

  it('changes only the last piece of a long code block as it streams, so its settled lines are not laid out again', () => {
    // A model writing a whole file in one block: before, the block was one text node, replaced at every update.
    const lines = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, index) => `const line${from + index} = ${'x'.repeat(60)};\n`).join('');
    const show = (code: string) => <MarkdownText streaming>{`Here it is.\n\n\`\`\`ts\n${code}`}</MarkdownText>;
    const { container, rerender } = render(show(lines(0, 120)));
    const code = container.querySelector('pre > code.language-ts')!;
    const settled = [...code.querySelectorAll('[data-kestrel-chunk]')].slice(0, -1);
    expect(settled.length).toBeGreaterThan(3);
    const changed = nodesChangedBy(code, () => {
      rerender(show(lines(0, 121)));
      rerender(show(`${lines(0, 140)}const last`));
    });
    expect(changed.size).toBeGreaterThan(0);
    expect([...changed].filter((node) => settled.some((piece) => piece.contains(node)))).toEqual([]);
    expect(container.querySelector('pre > code')).toBe(code);
    expect(code.textContent).toBe(`${lines(0, 140)}const last`);
  });

  it('reaches the code blocks of settled, memoised groups when the renderer changes', () => {
    // 40 code blocks: the first of them are one full settled group, which React skips while its blocks are unchanged.
    const text = Array.from({ length: 40 }, (_, index) => `\`\`\`txt\nblock ${index}\n\`\`\``).join('\n\n');
    const { container, rerender } = render(<MarkdownText streaming>{text}</MarkdownText>);
    const groups = container.querySelectorAll('[data-kestrel-markdown-group]');
    expect(groups.length).toBeGreaterThan(1);
    const settledGroup = groups[0]!;
    const inGroup = settledGroup.querySelectorAll('pre > code').length;
    expect(inGroup).toBeGreaterThan(0);
    rerender(
      <MarkdownText streaming renderCodeBlock={asFigure}>
        {text}
      </MarkdownText>,
    );
    expect(settledGroup.isConnected).toBe(true);
    expect(settledGroup.querySelectorAll('figure')).toHaveLength(inGroup);
    expect(container.querySelectorAll('figure')).toHaveLength(40);
    expect(container.querySelector('code')).toBeNull();
  });

  it("keeps a code block's element, state and focus while the blocks around it settle into a group", () => {
    let mounts = 0;
    function Counted({ code }: MarkdownCodeBlock) {
      useEffect(() => {
        mounts += 1;
      }, []);
      return <button type="button">{code}</button>;
    }
    const renderCounted: RenderCodeBlock = (block) => <Counted {...block} />;
    const paragraphs = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, index) => `Paragraph ${from + index}.`).join('\n\n');
    const show = (text: string) => (
      <MarkdownText streaming renderCodeBlock={renderCounted}>
        {text}
      </MarkdownText>
    );
    const head = `${paragraphs(0, 3)}\n\n\`\`\`sh\nfirst\n\`\`\`\n\n`;
    const { container, rerender } = render(show(`${head}${paragraphs(3, 6)}`));
    const button = container.querySelector('button')!;
    button.focus();
    // Past 32 settled blocks the first 32 become a full group, and more text streams on after them.
    for (let to = 7; to <= 70; to += 7) rerender(show(`${head}${paragraphs(3, to)}`));
    expect(container.querySelectorAll('[data-kestrel-markdown-group]').length).toBeGreaterThan(1);
    expect(container.querySelector('button')).toBe(button);
    expect(document.activeElement).toBe(button);
    expect(mounts).toBe(1);
  });

  describe('complete', () => {
    // Every kind of end a code block has: a closing fence (longer than the opening, or of tildes), a later block,
    // a list item's end, the end of the answer (a fence never closed, an indented block).
    const answer = [
      'Intro.',
      '',
      '```ts',
      'const a = 1;',
      '``x not a fence',
      '````',
      'Right after the fence.',
      '',
      '````markdown',
      'An example in an example:',
      '```python',
      'print(1)',
      '```',
      '````',
      '',
      '~~~',
      'a tab after it is not a closing fence',
      '~~~\t',
      '~~~',
      '',
      '~~~',
      'tilde ``` inside',
      '~~~~~ ',
      '',
      '    indented()',
      'A paragraph ends it.',
      '',
      ...listWithFence,
      '- next',
      '',
      '```js',
      'console.log("never closed");',
      '',
      '    still code',
    ].join('\n');
    const shown = (container: HTMLElement) =>
      [...container.querySelectorAll('pre')].map((pre) => ({ code: pre.textContent, complete: pre.dataset.complete }));
    const asPre: RenderCodeBlock = ({ code, complete }) => <pre data-complete={String(complete)}>{code}</pre>;

    it('is true once a block cannot change, and stays true with the same code at every later prefix', () => {
      const { container, rerender } = render(
        <MarkdownText streaming renderCodeBlock={asPre}>
          {''}
        </MarkdownText>,
      );
      let before: ReturnType<typeof shown> = [];
      const incomplete = new Set<number>();
      for (let end = 1; end <= answer.length; end++) {
        rerender(
          <MarkdownText streaming renderCodeBlock={asPre}>
            {answer.slice(0, end)}
          </MarkdownText>,
        );
        const now = shown(container);
        before.forEach((block, index) => {
          if (block.complete === 'true') expect(now[index], `${index} at ${end}`).toEqual(block);
        });
        now.forEach((block, index) => block.complete === 'false' && incomplete.add(index));
        before = now;
      }
      // While they streamed, each of the seven blocks was incomplete for a while.
      expect([...incomplete].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
      // At the end of the stream, only the block still being written is incomplete; final, none is.
      expect(before.map((block) => block.complete)).toEqual(['true', 'true', 'true', 'true', 'true', 'true', 'false']);
      rerender(<MarkdownText renderCodeBlock={asPre}>{answer}</MarkdownText>);
      expect(shown(container)).toEqual([
        { code: 'const a = 1;\n``x not a fence', complete: 'true' },
        { code: 'An example in an example:\n```python\nprint(1)\n```', complete: 'true' },
        { code: 'a tab after it is not a closing fence\n~~~\t', complete: 'true' },
        { code: 'tilde ``` inside', complete: 'true' },
        // marked, as CommonMark, keeps an indented block's last line break when a paragraph follows it.
        { code: 'indented()\n', complete: 'true' },
        { code: 'pnpm test', complete: 'true' },
        { code: 'console.log("never closed");\n\n    still code', complete: 'true' },
      ]);
    });

    it('turns true at the closing fence, before the answer goes on, and the renderer keeps its element', () => {
      const { mounts, render: counted } = mountRecorder();
      const { container, rerender } = render(
        <MarkdownText streaming renderCodeBlock={counted}>
          {'```py\nprint(1)\n``'}
        </MarkdownText>,
      );
      expect(shown(container)).toEqual([{ code: 'print(1)\n``', complete: 'false' }]);
      // A fence on the last line, before its line break: the next delta may make it the opening of ```python.
      rerender(
        <MarkdownText streaming renderCodeBlock={counted}>
          {'```py\nprint(1)\n```'}
        </MarkdownText>,
      );
      expect(shown(container)).toEqual([{ code: 'print(1)', complete: 'false' }]);
      rerender(
        <MarkdownText streaming renderCodeBlock={counted}>
          {'```py\nprint(1)\n```\n'}
        </MarkdownText>,
      );
      expect(shown(container)).toEqual([{ code: 'print(1)', complete: 'true' }]);
      rerender(<MarkdownText renderCodeBlock={counted}>{'```py\nprint(1)\n```\n\nDone.'}</MarkdownText>);
      expect(shown(container)).toEqual([{ code: 'print(1)', complete: 'true' }]);
      expect(mounts).toEqual(['print(1)\n``']);
    });

    it('keeps every code block element when many blocks settle at once, past a group of 32', () => {
      const { mounts, render: counted } = mountRecorder();
      // 30 settled paragraphs, then headings and code blocks with no blank line between them: none settles until
      // the blank line at the end, which settles blocks on both sides of the 32nd.
      const intro = Array.from({ length: 30 }, (_, index) => `Paragraph ${index}.\n\n`).join('');
      const tail = '## A\n```ts\na\n```\n## B\n```ts\nb\n```\n## C\n```\nc\n```\n';
      const { rerender } = render(
        <MarkdownText streaming renderCodeBlock={counted}>
          {intro + tail}
        </MarkdownText>,
      );
      expect(mounts).toEqual(['a', 'b', 'c']);
      rerender(
        <MarkdownText streaming renderCodeBlock={counted}>
          {`${intro + tail}\nE`}
        </MarkdownText>,
      );
      rerender(<MarkdownText renderCodeBlock={counted}>{`${intro + tail}\nEnd.`}</MarkdownText>);
      expect(mounts).toEqual(['a', 'b', 'c']);
    });
  });
});
