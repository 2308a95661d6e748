import { createLongStreamScenario, createMarkdownAnswer, createScenarioSource, getScenario } from '@kestrel/testing';
import { act, render, screen } from '@testing-library/react';
import { Lexer } from './vendor/marked-lexer.js';
import { describe, expect, it, vi } from 'vitest';
import { AssistantText } from '../components/assistant-text.js';
import { expectNoAxeViolations } from '../components/axe-check.test-helper.js';
import { nodesChangedBy } from '../test-support/changed-nodes.test-helper.js';
import { listenToLiveRegions } from '../test-support/live-regions.test-helper.js';
import { closeOpenFence } from './close-open-fence.js';
import { MarkdownText, renderMarkdown } from './markdown-text.js';

describe('MarkdownText', () => {
  it('renders markdown structure', async () => {
    const { container } = render(
      <MarkdownText>{'# Plan\n\n- **one**\n- `two`\n\n[docs](https://example.com/docs)'}</MarkdownText>,
    );
    expect(screen.getByRole('heading', { name: 'Plan' })).toBeTruthy();
    expect(container.querySelector('strong')?.textContent).toBe('one');
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('href')).toBe('https://example.com/docs');
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('rel')).toContain('noopener');
    await expectNoAxeViolations(container);
  });

  it('drops raw HTML instead of rendering it', () => {
    const { container } = render(
      <MarkdownText>
        {'Hi <img src=x onerror="alert(1)"> <script>alert(2)</script><b>bold</b>\n\n<div onclick="x()">block</div>'}
      </MarkdownText>,
    );
    expect(container.querySelector('img, script, b, [onclick], [onerror]')).toBeNull();
    expect(container.innerHTML).not.toContain('onerror');
  });

  it('keeps the text of a raw HTML block, without its tags (nothing on screen is missing from the answer)', () => {
    const { container } = render(
      <MarkdownText>{'Intro\n\n<div align="center">\nImportant &amp; kept\n</div>\n\n<!-- a note -->'}</MarkdownText>,
    );
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Intro', 'Important & kept']);
    expect(container.querySelector('div[align]')).toBeNull();
  });

  it('shows nesting thousands deep as text, without overflowing the stack', () => {
    // Hundreds of levels: the lexer copes and the renderer stops at 64; thousands: the lexer's own stack runs out.
    for (const deep of [
      '>'.repeat(200) + ' a',
      '- '.repeat(400) + 'a',
      '> - '.repeat(300) + 'a',
      '- a\n\n  | b |\n  |---|\n  | ' + '*c '.repeat(300) + '|',
      '>'.repeat(5000) + ' a',
      '- '.repeat(4000) + 'a',
      '> - '.repeat(2000) + 'a',
    ]) {
      const { container, unmount } = render(<MarkdownText>{`Before\n\n${deep}\n\nAfter`}</MarkdownText>);
      expect(container.textContent).toContain('Before');
      expect(container.textContent).toContain('After');
      // The block itself, and 64 levels inside it.
      expect(container.querySelectorAll('blockquote, ul').length).toBeLessThanOrEqual(65);
      unmount();
    }
  });

  it('shows text that marked itself fails to lex as plain text, and the rest of the answer as markdown', () => {
    // marked 18.2.1 throws a TypeError on these (its blockquote rule reads a list it could not make).
    for (const text of ['- a\n  >*\na', '1. a\n   > 1.\n   b']) {
      const { container, unmount } = render(
        <MarkdownText>{`**Before**\n\n${text}\n\n[after](https://example.com)\n\n${'>'.repeat(5000)} deep`}</MarkdownText>,
      );
      expect(container.querySelector('p > strong')?.textContent).toBe('Before');
      expect(container.textContent).toContain(text.split('\n')[0]!.slice(2));
      expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com');
      expect(container.textContent).toContain('> deep');
      unmount();
    }
  });

  it('keeps blocks that span a blank line whole on either side of text marked fails to lex', () => {
    const fence = '```py\n# one\nx = 1\n\n# two\n```';
    const failing = '- a\n  >*\nend';
    const { container } = render(
      <MarkdownText>
        {`See [the docs].\n\n${fence}\n\n${failing}\n\n${fence}\n\n1. one\n\n   more\n2. two\n\n${failing}\n\n[the docs]: https://example.com`}
      </MarkdownText>,
    );
    expect([...container.querySelectorAll('pre code')].map((code) => code.textContent)).toEqual([
      '# one\nx = 1\n\n# two',
      '# one\nx = 1\n\n# two',
    ]);
    expect(container.querySelector('h1')).toBeNull();
    expect([...container.querySelectorAll('ol > li')].map((item) => item.textContent)).toEqual(['onemore', 'two']);
    // A definition further on still resolves the reference before the failure, as in a whole parse.
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com');
    // Each failing part is a paragraph of its own, not run together with the next.
    expect([...container.querySelectorAll('p')].filter((p) => p.textContent.startsWith('- a'))).toHaveLength(2);
  });

  it('keeps nesting a model may write (a quote in a list in a quote) as elements', () => {
    const { container } = render(<MarkdownText>{'> - item\n>   > quoted **bold**'}</MarkdownText>);
    expect(container.querySelector('blockquote ul li blockquote strong')?.textContent).toBe('bold');
  });

  it('decodes character references in a link target and title, as an HTML attribute would', () => {
    render(
      <MarkdownText>
        {'[q](https://x.example/?a=1&amp;b=2 "Tom &amp; Jerry") [r][d]\n\n[d]: https://y.example \'&lt;3\''}
      </MarkdownText>,
    );
    const link = screen.getByRole('link', { name: 'q' });
    expect(link.getAttribute('href')).toBe('https://x.example/?a=1&b=2');
    expect(link.getAttribute('title')).toBe('Tom & Jerry');
    expect(screen.getByRole('link', { name: 'r' }).getAttribute('title')).toBe('<3');
  });

  it.each([
    'https:/api/account/delete?confirm=1',
    'https:logout',
    'http:/settings/keys',
    'https:\\\\evil.example',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:x',
    '/relative',
    ' javascript:alert(1)',
  ])('keeps the text of a %s link but not its target', (url) => {
    const { container } = render(<MarkdownText>{`[click me](${url}) and <${url}>`}</MarkdownText>);
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('click me');
  });

  it('keeps http(s) and mailto links, and shows images as their alt text only', () => {
    const { container } = render(
      <MarkdownText>
        {'[a](http://a.example) [b](mailto:b@example.com) ![chart of sales](https://t.example/p.gif)'}
      </MarkdownText>,
    );
    expect([...container.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'http://a.example',
      'mailto:b@example.com',
    ]);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('chart of sales');
  });

  it('renders every prefix of a markdown answer without throwing (partial markdown while streaming)', () => {
    const full =
      '## Steps\n\n1. Run `npm i`\n2. See [the guide](https://example.com/guide)\n\n```ts\nconst x = 1;\n```\n\n> **Note** the *end*';
    for (let end = 0; end <= full.length; end += 1) {
      const { unmount } = render(<MarkdownText streaming>{full.slice(0, end)}</MarkdownText>);
      unmount();
    }
    expect(closeOpenFence('text\n```ts\nconst x')).toBe('text\n```ts\nconst x\n```');
    expect(closeOpenFence('```\na\n```\n')).toBe('```\na\n```\n');
  });

  it('plugs into AssistantText as its text renderer', () => {
    render(<AssistantText run={createScenarioSource(getScenario('completed-text'))} renderText={renderMarkdown} />);
    expect(
      screen.getByRole('group', { name: 'Assistant response' }).querySelector('[data-kestrel-markdown="final"] p')
        ?.textContent,
    ).toContain('Canberra');
  });

  it("keeps the draft's elements when the answer settles, and announces it as text without markdown syntax", () => {
    const text = createMarkdownAnswer({ length: 20_000 });
    const source = createScenarioSource(createLongStreamScenario({ text, deltas: 400 }), {
      until: (state) => state.draftText === text,
    });
    const { container } = render(<AssistantText run={source} renderText={renderMarkdown} />);
    const markdown = container.querySelector('[data-kestrel-markdown="streaming"]')!;
    const children = [...markdown.children];
    expect(markdown.querySelectorAll('[data-kestrel-markdown-group]').length).toBeGreaterThan(0);
    const listening = listenToLiveRegions(container);
    act(() => {
      while (source.step()) {
        // play to run.completed
      }
    });
    // The same elements, now marked final: the answer is neither parsed, rendered nor laid out again.
    expect(container.querySelector('[data-kestrel-markdown="final"]')).toBe(markdown);
    expect([...markdown.children]).toEqual(children);
    const [heard, ...more] = listening.stop();
    expect(more).toEqual([]);
    expect(heard).toMatch(/^Part 1\n1\. [A-Z]/);
    expect(heard).not.toMatch(/^#|```|^\| |\*\*|\]\(/m);
  });

  it('renders GitHub tables, task lists and strikethrough, and decodes character references in text', async () => {
    const { container } = render(
      <MarkdownText>
        {
          '| plan | cost |\n|---|--:|\n| basic | 10 |\n\n- [x] done\n- [ ] next\n\n~~old~~ &amp; &copy; &#x2014; `&amp;`'
        }
      </MarkdownText>,
    );
    expect([...container.querySelectorAll('th')].map((th) => th.textContent)).toEqual(['plan', 'cost']);
    expect(container.querySelector('td[align="right"]')?.textContent).toBe('10');
    expect([...container.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['☑ done', '☐ next']);
    expect(container.querySelector('del')?.textContent).toBe('old');
    expect(container.querySelector('p:last-child')?.textContent).toBe('old & © — &amp;');
    await expectNoAxeViolations(container);
  });

  it('while streaming, parses again and changes in the DOM only the block still growing', () => {
    const settled =
      '# Report\n\nFirst paragraph with a [link](https://example.com).\n\n- one\n- two\n\n```ts\nconst x = 1;\n```\n\n';
    const { container, rerender } = render(<MarkdownText streaming>{`${settled}The tail`}</MarkdownText>);
    const root = container.querySelector('[data-kestrel-markdown]')!;
    // Fewer than 32 blocks: one group, the one the tail grows in.
    const group = root.querySelector('[data-kestrel-markdown-group]')!;
    const before = [...group.children].slice(0, -1);
    const lex = vi.spyOn(Lexer.prototype, 'lex');
    const changed = nodesChangedBy(root, () => {
      rerender(<MarkdownText streaming>{`${settled}The tail grows`}</MarkdownText>);
      rerender(<MarkdownText streaming>{`${settled}The tail grows **and grows**`}</MarkdownText>);
    });
    expect(lex.mock.calls).toEqual([['The tail grows'], ['The tail grows **and grows**']]);
    lex.mockRestore();
    expect(before.map((element) => element.tagName)).toEqual(['H1', 'P', 'UL', 'PRE']);
    expect([...group.children].slice(0, -1)).toEqual(before);
    expect(changed.size).toBeGreaterThan(0);
    expect([...changed].filter((node) => before.some((element) => element.contains(node)))).toEqual([]);
    expect(group.lastElementChild?.innerHTML).toBe('The tail grows <strong>and grows</strong>');
  });

  describe('given a long answer streaming in', () => {
    const section = (n: number) =>
      `## Part ${n}\n\nText ${n} with a [link](https://example.com/${n}).\n\n- a\n- b\n\n\`\`\`ts\nconst n = ${n};\n\`\`\`\n\n`;
    const answer = Array.from({ length: 40 }, (_, n) => section(n)).join('');
    const unwrapGroups = (element: Element) => {
      const copy = element.cloneNode(true) as Element;
      for (const group of copy.querySelectorAll('[data-kestrel-markdown-group]'))
        group.replaceWith(...group.childNodes);
      return copy.innerHTML;
    };

    it('renders settled blocks in groups that stay as they are, the same markdown as a full render', () => {
      const { container, rerender } = render(<MarkdownText streaming>{answer.slice(0, 3000)}</MarkdownText>);
      const root = container.querySelector('[data-kestrel-markdown]')!;
      // The full groups: the last one holds the blocks still settling.
      const groups = [...root.querySelectorAll('[data-kestrel-markdown-group]')].slice(0, -1);
      expect(groups.length).toBeGreaterThan(0);
      const changed = nodesChangedBy(root, () => {
        for (let end = 3000; end <= 3600; end += 50)
          rerender(<MarkdownText streaming>{answer.slice(0, end)}</MarkdownText>);
      });
      expect([...changed].filter((node) => groups.some((group) => group.contains(node)))).toEqual([]);
      const full = render(<MarkdownText streaming>{answer.slice(0, 3600)}</MarkdownText>);
      expect(unwrapGroups(root)).toBe(unwrapGroups(full.container.querySelector('[data-kestrel-markdown]')!));
    });

    it('lexes only the tail of an answer written with CRLF line ends, and renders it as with LF', () => {
      const crlf = answer.replaceAll('\n', '\r\n');
      const lex = vi.spyOn(Lexer.prototype, 'lex');
      // Steps of 51 characters also end between a `\r` and its `\n`.
      const { container, rerender } = render(<MarkdownText streaming>{''}</MarkdownText>);
      for (let end = 51; end < crlf.length; end += 51)
        rerender(<MarkdownText streaming>{crlf.slice(0, end)}</MarkdownText>);
      rerender(<MarkdownText streaming>{crlf}</MarkdownText>);
      const lexedCharacters = lex.mock.calls.reduce((sum, [source]) => sum + source.length, 0);
      lex.mockRestore();
      // Lexing the whole text at each of the ~80 updates would be about 40 times its length.
      expect(lexedCharacters).toBeLessThan(5 * crlf.length);
      const lf = render(<MarkdownText streaming>{answer}</MarkdownText>);
      expect(container.innerHTML).toBe(lf.container.innerHTML);
    });

    it('does not lex the answer again when the draft it shows becomes the final text', () => {
      const { container, rerender } = render(<MarkdownText streaming>{answer}</MarkdownText>);
      const draft = container.innerHTML;
      const lex = vi.spyOn(Lexer.prototype, 'lex');
      rerender(<MarkdownText>{answer}</MarkdownText>);
      const lexedCharacters = lex.mock.calls.reduce((sum, [source]) => sum + source.length, 0);
      lex.mockRestore();
      expect(lexedCharacters).toBe(0);
      expect(container.innerHTML).toBe(
        draft.replace('data-kestrel-markdown="streaming"', 'data-kestrel-markdown="final"'),
      );
    });
  });
});

describe('a streaming answer whose last line is only a block marker so far', () => {
  const streamed = (text: string) => render(<MarkdownText streaming>{text}</MarkdownText>).container.innerHTML;
  const final = (text: string) => render(<MarkdownText>{text}</MarkdownText>).container.innerHTML;

  it.each([
    ['a bullet under a line of text (a setext heading)', '**Pros:**\n-', '**Pros:**\n'],
    ['a nested bullet (the item a heading)', '- Fast\n  - ', '- Fast\n'],
    ['a bullet in a quote', '> Fast\n> -', '> Fast\n'],
    ["an item's number before its dot (run into the item before)", '1. one\n2', '1. one\n'],
    ["an item's number and dot", 'Steps:\n12.', 'Steps:\n'],
    ["a heading's marks (an empty heading)", 'Text\n##', 'Text\n'],
    ['two dashes (a paragraph until a rule)', 'Text\n\n--', 'Text\n\n'],
    ['a quote marker (an empty quote)', 'Text\n\n> ', 'Text\n\n'],
  ])('is left out until its text comes: %s', (_, text, without) => {
    expect(streamed(text)).toBe(streamed(without));
    // The final answer is read as written.
    expect(final(text)).not.toBe(final(without));
  });

  it.each([
    ['a rule', 'Text\n\n---'],
    ['a setext heading', 'Title\n---'],
    ['a number of four digits', 'The year\n2024'],
    ['a bullet with its text', 'Pros:\n- F'],
    ['a heading with its text', '## H'],
  ])('is shown when it is more than a marker: %s', (_, text) => {
    expect(streamed(text)).toBe(
      final(text).replace('data-kestrel-markdown="final"', 'data-kestrel-markdown="streaming"'),
    );
  });

  it('is shown once the draft stopped short (detached or interrupted): nothing more will come to it', () => {
    const scenario = getScenario('truncated');
    const source = createScenarioSource(scenario, { upTo: -1 });
    act(() =>
      source.dispatch({
        type: 'text.delta',
        runId: scenario.runId,
        sessionId: scenario.sessionId,
        seq: 999,
        delta: 'the schema:\n1. one\n2',
      }),
    );
    const { container } = render(<AssistantText run={source} renderText={renderMarkdown} />);
    expect(container.querySelectorAll('li')).toHaveLength(1);
    act(() => void source.step());
    expect(container.querySelector('[data-state]')?.getAttribute('data-state')).toBe('interrupted');
    // As written: the `2` was the last thing the stream said.
    expect(container.querySelector('li')?.textContent).toBe('one\n2');
  });

  it('never shows a heading, a rule or a stray marker that the answer does not end up with', () => {
    const answer =
      '**Pros:**\n- Fast\n  - even cold\n- Cheap\n\nSteps:\n1. one\n2. two\n10. ten\n\n> - quoted\n\nDone.\n';
    const { container, rerender } = render(<MarkdownText streaming>{''}</MarkdownText>);
    const whole = render(<MarkdownText>{answer}</MarkdownText>).container.textContent!.replace(/\s+/g, '');
    for (let end = 1; end <= answer.length; end++) {
      rerender(<MarkdownText streaming>{answer.slice(0, end)}</MarkdownText>);
      expect(container.querySelector('h1, h2, h3, h4, h5, h6, hr')).toBeNull();
      // What it shows is the start of what the final answer shows: no marker as text, no number in the wrong item.
      expect(whole.startsWith(container.textContent!.replace(/\s+/g, ''))).toBe(true);
    }
  });
});
