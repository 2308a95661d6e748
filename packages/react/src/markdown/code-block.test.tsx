import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MarkdownCodeBlock, RenderCodeBlock } from './code-block.js';
import { MarkdownText } from './markdown-text.js';

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
    const text = [
      '```ts title="a.ts"',
      'const a = 1 < 2;',
      '```',
      '',
      '    indented()',
      '',
      '- step',
      '',
      '  ```sh',
      '  pnpm test',
      '  ```',
    ].join('\n');
    const { container } = render(<MarkdownText renderCodeBlock={record}>{text}</MarkdownText>);
    expect(seen).toEqual([
      { code: 'const a = 1 < 2;', language: 'ts' },
      { code: 'indented()', language: undefined },
      { code: 'pnpm test', language: 'sh' },
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

  it('reaches the code blocks of settled, memoised groups when the renderer changes', () => {
    // 40 blocks: the first 32 are one settled group, which React skips as long as its blocks are unchanged.
    const text = Array.from({ length: 40 }, (_, index) => `\`\`\`txt\nblock ${index}\n\`\`\``).join('\n\n');
    const { container, rerender } = render(<MarkdownText streaming>{text}</MarkdownText>);
    expect(container.querySelectorAll('[data-kestrel-markdown-group] pre > code')).toHaveLength(32);
    rerender(
      <MarkdownText streaming renderCodeBlock={asFigure}>
        {text}
      </MarkdownText>,
    );
    expect(container.querySelectorAll('[data-kestrel-markdown-group] figure')).toHaveLength(32);
    expect(container.querySelectorAll('figure')).toHaveLength(40);
    expect(container.querySelector('code')).toBeNull();
  });
});
