import type { Meta, StoryObj } from '@storybook/react-vite';
import { createCodeAnswer, createListAnswer, createMarkdownAnswer, createTableAnswer } from '@kestrel/testing';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { renderCodeBlock } from '../../markdown/docs-examples/copy-code-block.js';
import { MarkdownText, renderMarkdown } from '../../markdown/markdown-text.js';
import { AssistantText } from '../assistant-text.js';
import { Fixture, type FixtureArgs } from './support/fixture-run.js';

function AssistantTextDemo({ markdown = false, ...fixture }: FixtureArgs & { markdown?: boolean }) {
  return (
    <Fixture {...fixture}>
      {(run) => <AssistantText run={run} renderText={markdown ? renderMarkdown : undefined} />}
    </Fixture>
  );
}

const meta = { title: 'Components/AssistantText', component: AssistantTextDemo } satisfies Meta<
  typeof AssistantTextDemo
>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Draft: Story = {
  args: { scenario: 'completed-text', freeze: { until: (state) => state.draftText.length > 40 } },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('group', { name: 'Assistant response, in progress' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
  },
};
export const Final: Story = { args: { scenario: 'failed-retryable' } };
export const Interrupted: Story = { args: { scenario: 'truncated' } };
export const Markdown: Story = { args: { scenario: 'completed-payload', markdown: true } };

const longAnswer = createMarkdownAnswer({ length: 30_000 });

/**
 * A long markdown answer with theme.css: its settled blocks come in groups, each contained (layout, paint, style),
 * so the browser's per-frame walks stop at a group that did not change; every group is still rendered and shown.
 */
export const MarkdownLongAnswer: StoryObj = {
  render: () => (
    <div data-kestrel-run="">
      <MarkdownText>{longAnswer}</MarkdownText>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const groups = [...canvasElement.querySelectorAll('[data-kestrel-markdown-group]')];
    await expect(groups.length).toBeGreaterThan(2);
    for (const group of groups) {
      await expect(getComputedStyle(group).contain).toBe('content');
      await expect(group.firstElementChild!.checkVisibility({ contentVisibilityAuto: true })).toBe(true);
    }
    const headings = canvasElement.querySelectorAll('h2');
    await expect(headings.length).toBe(longAnswer.match(/^## /gm)!.length);
    // Code blocks that fit are not tab stops: the answer's many blocks are not stops on the way through the page.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const codeBlocks = [...canvasElement.querySelectorAll('pre')];
    await expect(codeBlocks.length).toBeGreaterThan(3);
    await expect(codeBlocks.filter((pre) => pre.hasAttribute('tabindex'))).toEqual([]);
    // Blocks keep the theme's space between them: the run's reset of the browser's margins does not outrank it.
    const spaceBefore = (element: Element) => Number.parseFloat(getComputedStyle(element).marginBlockStart);
    await expect(spaceBefore(headings[1]!)).toBeGreaterThan(0);
    await expect(spaceBefore(canvasElement.querySelector('[data-kestrel-markdown-group] > p + p')!)).toBeGreaterThan(0);
  },
};

const wideTable = [
  '| Region | Endpoint | Requests per second | p50 latency | p99 latency | Error rate | Notes |',
  '| --- | --- | ---: | ---: | ---: | ---: | --- |',
  '| eu-west-1 | https://api.eu-west-1.example.com/v2/runs/stream | 12,480 | 41 ms | 212 ms | 0.02% | steady after the deploy |',
  '| us-east-2 | https://api.us-east-2.example.com/v2/runs/stream | 18,922 | 38 ms | 187 ms | 0.01% | autoscaled twice overnight |',
].join('\n');
const textOnlyTable = [
  '| Stage | Started | Finished | Duration | Workers | Retries | Outcome |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  '| Provisioning | 09:14:07 | 09:16:52 | 2 min 45 s | 12 | 0 | healthy everywhere |',
].join('\n');
const narrowTable = ['| Region | Status |', '| --- | --- |', '| eu-west-1 | ok |'].join('\n');
const wideTableAnswer = [
  'The load test finished; the figures per region are below.',
  wideTable,
  textOnlyTable,
  narrowTable,
  ...Array.from({ length: 40 }, (_, index) => `Paragraph ${index + 1} of the follow-up notes.`),
].join('\n\n');

/**
 * A table wider than the answer (in a chat-width column), in a settled (contained) group: it scrolls sideways inside
 * the answer, its words whole, instead of being squeezed letter by letter or cut off at the group's edge.
 */
export const MarkdownWideTable: StoryObj = {
  render: () => (
    <div style={{ maxInlineSize: '24rem' }}>
      <div data-kestrel-run="">
        <MarkdownText>{wideTableAnswer}</MarkdownText>
      </div>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const table = canvasElement.querySelector('table')!;
    const scroller = table.parentElement!;
    await expect(table.closest('[data-kestrel-markdown-group]')).not.toBeNull();
    await expect(getComputedStyle(table).display).toBe('table'); // a table to assistive technology too
    const run = canvasElement.querySelector('[data-kestrel-run]')!;
    await expect(scroller.getBoundingClientRect().right).toBeLessThanOrEqual(run.getBoundingClientRect().right);
    await expect(scroller.scrollWidth).toBeGreaterThan(scroller.clientWidth);
    // Every cell can be reached: scrolled to its end, the box shows the table's last column within the answer.
    scroller.scrollLeft = scroller.scrollWidth;
    const lastCell = table.querySelector('tr > :last-child')!;
    await expect(lastCell.getBoundingClientRect().right).toBeLessThanOrEqual(
      scroller.getBoundingClientRect().right + 1,
    );
    // A box that scrolls is a tab stop, so a keyboard can scroll it; a table that fits is not one more stop.
    const boxes = [...canvasElement.querySelectorAll<HTMLElement>('[data-kestrel-table-scroll]')];
    await expect(boxes).toHaveLength(3);
    await waitFor(() => expect(boxes[0]!.tabIndex).toBe(0));
    await expect(boxes[2]!.scrollWidth).toBeLessThanOrEqual(boxes[2]!.clientWidth);
    await expect(boxes[2]!.hasAttribute('tabindex')).toBe(false);
    // A focused box whose table comes to fit (a wider window) keeps the focus, and leaves the tab order once left.
    const column = run.parentElement!;
    boxes[0]!.focus();
    column.style.maxInlineSize = 'none';
    column.style.inlineSize = '5000px';
    await waitFor(() => expect(boxes[0]!.scrollWidth).toBeLessThanOrEqual(boxes[0]!.clientWidth));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await expect(document.activeElement).toBe(boxes[0]);
    boxes[0]!.blur();
    await expect(boxes[0]!.hasAttribute('tabindex')).toBe(false);
    column.style.inlineSize = '';
    column.style.maxInlineSize = '24rem';
    await waitFor(() => expect(boxes[0]!.tabIndex).toBe(0));
  },
};

const codeAnswer = [
  'Run the tests, then build:',
  '',
  '```sh',
  'pnpm test',
  '```',
  '',
  '```ts',
  "import { renderMarkdown } from '@kestrel/react/markdown';",
  `const wide = [${'1, 2, 3, '.repeat(24)}4];`,
  '```',
  '',
  '    an indented block',
].join('\n');

// The bar's layout docs/components.md gives beside the example.
const codeBlockCss = `
.code-block-bar { display: flex; gap: 0.5rem; align-items: center; font-size: 0.875rem; }
.code-block-bar button { margin-inline-start: auto; }
`;

/**
 * Code blocks rendered by the app (`renderCodeBlock`, the copy button of docs/components.md): each block's language
 * and a Copy code button above the kit's code styling.
 */
export const MarkdownCodeBlocks: StoryObj = {
  render: () => (
    // A column of a chat's width, so the wide line scrolls however wide the canvas is.
    <div data-kestrel-run="" style={{ maxInlineSize: '48rem' }}>
      <style>{codeBlockCss}</style>
      <MarkdownText renderCodeBlock={renderCodeBlock}>{codeAnswer}</MarkdownText>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const blocks = ['Code, sh', 'Code, ts', 'Code'].map((name) => canvas.getByRole('group', { name }));
    for (const block of blocks) await expect(within(block).getByRole('button', { name: 'Copy code' })).toBeVisible();
    await expect(blocks[1]!.querySelector('code.language-ts')?.textContent).toContain('@kestrel/react/markdown');
    // `watchScrollBox` on the app's `<pre>`: the block with a line wider than the answer is a tab stop, so a keyboard
    // can scroll it, and the blocks that fit are not.
    const [sh, ts, indented] = blocks.map((block) => block.querySelector('pre')!);
    await expect(ts!.scrollWidth).toBeGreaterThan(ts!.clientWidth);
    await waitFor(() => expect(ts!.tabIndex).toBe(0));
    for (const pre of [sh!, indented!]) await expect(pre.hasAttribute('tabindex')).toBe(false);
  },
};

// A file a model writes in one block, with one line far wider than any column.
const fileAnswer = createCodeAnswer({ length: 5_000 }).replace(
  '```ts\n',
  `\`\`\`ts\n${'const wide = [1, 2, 3]; '.repeat(12)}\n`,
);

/**
 * A long code block, still streaming: its code comes in pieces cut at line breaks, as a draft's text does, so each
 * update lays out only the last piece. On screen it is one block of code: as tall (within a pixel) and as wide
 * (scrolling sideways) as the same code in one text node, each line where it was, and read as text it is the code.
 */
export const MarkdownLongCodeBlock: StoryObj = {
  render: () => (
    <div data-kestrel-run="">
      <MarkdownText streaming>{`Here is the whole file:\n\n${fileAnswer.slice(0, -4)}`}</MarkdownText>
      {/* An app whose code blocks do not scroll (they overflow, clipped here): no tab stop that scrolls nothing. */}
      <style>{'.story-no-scroll pre { overflow-x: visible }'}</style>
      <section aria-label="Code that does not scroll" className="story-no-scroll" style={{ overflow: 'hidden' }}>
        <MarkdownText>{`\`\`\`ts\n${'const wide = [1, 2, 3]; '.repeat(12)}\n\`\`\``}</MarkdownText>
      </section>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const pre = canvasElement.querySelector('pre')!;
    const code = pre.querySelector('code')!;
    await expect(code.querySelectorAll('[data-kestrel-chunk]').length).toBeGreaterThan(2);
    const expected = fileAnswer.slice('```ts\n'.length, -'\n```\n'.length);
    await expect(code.textContent).toBe(expected);
    // Read as rendered text too (innerText, a copy of the page), the pieces add no line break of their own.
    await expect(code.innerText).toBe(expected);
    // Wider than the answer, it scrolls: a tab stop, so a keyboard can scroll it (a table's box is one too).
    await waitFor(() => expect(pre.tabIndex).toBe(0));
    const unscrolled = within(canvasElement).getByRole('region', { name: 'Code that does not scroll' });
    await expect(unscrolled.querySelector('pre')!.scrollWidth).toBeGreaterThan(unscrolled.clientWidth);
    await expect(unscrolled.querySelector('pre')!.hasAttribute('tabindex')).toBe(false);
    // The same code as one text node, in a box styled the same, beside it: the pieces change nothing on screen.
    const reference = pre.cloneNode(false) as HTMLElement;
    reference.append(Object.assign(document.createElement('code'), { textContent: expected }));
    pre.after(reference);
    try {
      await expect(pre.scrollWidth).toBeGreaterThan(pre.clientWidth);
      await expect(pre.scrollWidth).toBe(reference.scrollWidth);
      // Within a pixel: the last line box may round differently.
      const heights = [pre, reference].map((box) => box.getBoundingClientRect().height);
      await expect(Math.abs(heights[0]! - heights[1]!)).toBeLessThanOrEqual(1);
    } finally {
      reference.remove();
    }
  },
};

// One shell command the model writes a few words at a time, growing wider than the answer.
const wideCommand = `curl -sS https://example.com/api/v1/runs ${'--header "x-kestrel-option: on" '.repeat(12)}`;

/** A code block whose one line streams wider, in the default block and in the app's (the copy button's). */
function StreamingWideLine() {
  const [end, setEnd] = useState(8);
  const text = `\`\`\`sh\n${wideCommand.slice(0, end)}`;
  return (
    <div data-kestrel-run="" style={{ maxInlineSize: '24rem' }}>
      <style>{codeBlockCss}</style>
      <button type="button" disabled={end >= wideCommand.length} onClick={() => setEnd((at) => at + 40)}>
        Stream more
      </button>
      <MarkdownText streaming>{text}</MarkdownText>
      <MarkdownText streaming renderCodeBlock={renderCodeBlock}>
        {text}
      </MarkdownText>
    </div>
  );
}

/**
 * A one-line command streaming wider than the answer: once it no longer fits, the block is a tab stop, so a
 * keyboard can scroll it, in the default block and in the app's own (`watchScrollBox` on its `<pre>`).
 */
export const MarkdownStreamingWideLine: StoryObj = {
  render: () => <StreamingWideLine />,
  play: async ({ canvasElement }) => {
    const boxes = [...canvasElement.querySelectorAll('pre')];
    await expect(boxes).toHaveLength(2);
    for (const pre of boxes) await expect(pre.scrollWidth).toBeLessThanOrEqual(pre.clientWidth);
    // Give the observer a frame to report the first sizes: a box that fits is no tab stop.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (const pre of boxes) await expect(pre.hasAttribute('tabindex')).toBe(false);
    const button = within(canvasElement).getByRole('button', { name: 'Stream more' });
    while (!(button as HTMLButtonElement).disabled) await userEvent.click(button);
    for (const pre of boxes) {
      await expect(pre.scrollWidth).toBeGreaterThan(pre.clientWidth);
      await waitFor(() => expect(pre.tabIndex).toBe(0));
      // The command, whole, in the pieces the block streams in.
      await expect(pre.querySelector('code')!.textContent).toBe(wideCommand);
    }
  },
};

const tableAnswer = createTableAnswer({ length: 12_000 });
const listAnswer = createListAnswer({ length: 12_000 });

/** An answer cut mid-line, as a stream is, with a button that streams about 3 KB more of it. */
function StreamingAnswer({ answer }: { readonly answer: string }) {
  const [end, setEnd] = useState(() => answer.indexOf('\n', 4_000) + 12);
  const streaming = end < answer.length;
  return (
    <div data-kestrel-run="">
      <button type="button" disabled={!streaming} onClick={() => setEnd((at) => Math.min(answer.length, at + 3_000))}>
        Stream more
      </button>
      <MarkdownText streaming={streaming}>{answer.slice(0, end)}</MarkdownText>
    </div>
  );
}

/** Streams the rest of the answer, checking that the elements shown before (but the last `rewritten`) stay. */
async function streamToTheEnd(canvasElement: HTMLElement, selector: string, rewritten: number): Promise<Element[]> {
  const shown = () => [...canvasElement.querySelectorAll(selector)];
  const before = shown();
  await expect(before.length).toBeGreaterThan(30);
  const button = within(canvasElement).getByRole('button', { name: 'Stream more' });
  while (!(button as HTMLButtonElement).disabled) await userEvent.click(button);
  const after = shown();
  await expect(after.slice(0, before.length - rewritten)).toEqual(before.slice(0, -rewritten));
  await expect(canvasElement.querySelector('[data-kestrel-markdown]')!.getAttribute('data-kestrel-markdown')).toBe(
    'final',
  );
  return after;
}

/**
 * A long table while it streams (a model listing records): only its last row is lexed again and only new rows are
 * rendered, so the rows already shown keep their elements. "Stream more" adds about 3 KB.
 */
export const MarkdownStreamingTable: StoryObj = {
  render: () => <StreamingAnswer answer={tableAnswer} />,
  play: async ({ canvasElement }) => {
    const rows = await streamToTheEnd(canvasElement, 'tbody tr', 1);
    await expect(rows).toHaveLength(tableAnswer.trimEnd().split('\n').length - 2);
    await expect(rows.at(-1)!.querySelectorAll('td')).toHaveLength(4);
  },
};

/** A long list while it streams (a model enumerating steps): only its last two items are lexed and rendered again. */
export const MarkdownStreamingList: StoryObj = {
  render: () => <StreamingAnswer answer={listAnswer} />,
  play: async ({ canvasElement }) => {
    const items = await streamToTheEnd(canvasElement, 'li', 2);
    await expect(items).toHaveLength(listAnswer.trimEnd().split('\n').length);
    await expect(canvasElement.querySelectorAll('ul')).toHaveLength(1);
  },
};

// Where a stream may stop: in the middle of markup, each as its own answer, with a caption.
const openMarkupCases = [
  ['Bold before its closing **', 'The fix is **to pin the version'],
  ['A closer half arrived, and emphasis inside bold', 'Use **the *cached* build*'],
  ['Code before its closing backtick', 'Run `pnpm install --frozen-lock'],
  [
    'A link before its target is whole: its text, no link yet',
    'See [the migration guide](https://example.com/docs/mig',
  ],
  ['A marker with nothing after it yet', 'Then **'],
  ['A list item', '- first\n- **second'],
  ['A table cell', '| Step | Note |\n| --- | --- |\n| 1 | ~~old way'],
  ['A table before its delimiter row: its header', 'Here are the plans:\n\n| Plan | **Price** | No'],
  ['A table while its delimiter row is written', '| Plan | Price |\n| :--- |'],
  ['A bullet before its text, under a line (a heading if read as written)', '**Pros:**\n- '],
] as const;

/** A streaming answer stopped at each case, then the same text final: what never closed shows as written. */
function StreamingMarkup() {
  const [final, setFinal] = useState(false);
  return (
    <div data-kestrel-run="">
      <button type="button" aria-pressed={final} onClick={() => setFinal((shown) => !shown)}>
        Show as final
      </button>
      {openMarkupCases.map(([caption, text]) => (
        <section key={caption} aria-label={caption}>
          <h3>{caption}</h3>
          <MarkdownText streaming={!final}>{text}</MarkdownText>
        </section>
      ))}
    </div>
  );
}

/**
 * Markup a stream has opened and not yet closed is shown closed while the answer streams (`**bold` in bold, code
 * before its backtick as code, a link's text before its target is whole, a table from its header row on), so markers
 * do not flash; once the answer is final, text is shown as written.
 */
export const MarkdownStreamingMarkup: StoryObj = {
  render: () => <StreamingMarkup />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const [bold, nested, code, link, dangling, item, cell, header, delimiter, bullet] = openMarkupCases.map(
      ([caption]) => canvas.getByRole('region', { name: caption }),
    );
    await expect(bold!.querySelector('strong')).toHaveTextContent(/^to pin the version$/);
    await expect(nested!.querySelector('strong em')).toHaveTextContent(/^cached$/);
    await expect(code!.querySelector('p code')).toHaveTextContent(/^pnpm install --frozen-lock$/);
    await expect(link!.querySelector('a')).toBeNull();
    await expect(link).toHaveTextContent(/^.*See the migration guide$/);
    await expect(dangling).toHaveTextContent(/Then$/);
    await expect(item!.querySelector('li strong')).toHaveTextContent(/^second$/);
    await expect(cell!.querySelector('td del')).toHaveTextContent(/^old way$/);
    const headings = (section: HTMLElement) => [...section.querySelectorAll('th')].map((th) => th.textContent);
    await expect(headings(header!)).toEqual(['Plan', 'Price', 'No']);
    await expect(header!.querySelector('th strong')).toHaveTextContent(/^Price$/);
    await expect(headings(delimiter!)).toEqual(['Plan', 'Price']);
    await expect(delimiter!.querySelector('th')).toHaveAttribute('align', 'left');
    await expect(bullet!.querySelector('[data-kestrel-markdown] p strong')).toHaveTextContent(/^Pros:$/);
    await expect(bullet!.querySelector('[data-kestrel-markdown] h2')).toBeNull();
    for (const section of canvasElement.querySelectorAll('section [data-kestrel-markdown]'))
      await expect(section.textContent).not.toMatch(/\*\*|`|~~|\]\(|\|/);
    await userEvent.click(canvas.getByRole('button', { name: 'Show as final' }));
    await expect(bold).toHaveTextContent('The fix is **to pin the version');
    await expect(code!.querySelector('code')).toBeNull();
    await expect(link).toHaveTextContent('[the migration guide](https://example.com/docs/mig');
    await expect(cell).toHaveTextContent('~~old way');
    await expect(header!.querySelector('table')).toBeNull();
    await expect(delimiter).toHaveTextContent('| Plan | Price | | :--- |');
    await expect(bullet!.querySelector('[data-kestrel-markdown] h2')).toHaveTextContent(/^Pros:$/);
    // Back to streaming, as the story opens.
    await userEvent.click(canvas.getByRole('button', { name: 'Show as final' }));
    await expect(bold!.querySelector('strong')).toHaveTextContent(/^to pin the version$/);
  },
};

// What a model may write that the entry must not render as written: each case as its own answer, with a caption.
const unsafeCases = [
  [
    'Raw HTML: inline tags dropped, a block shows its text',
    'Hi <b>bold</b> <img src=x onerror="alert(1)">\n\n<div align="center">\nImportant &amp; kept\n</div>',
  ],
  [
    'Links: only http(s) and mailto as written',
    '[safe](https://example.com), [script](javascript:alert(1)), [own site](https:/api/account/delete), [mail](mailto:a@example.com)',
  ],
  ['Nesting past 64 levels: the rest as text', `${'>'.repeat(70)} deep`],
  ['Text marked fails to lex: shown as plain text', '- a\n  >*\na'],
] as const;

/**
 * Input the markdown entry renders safely rather than as written (docs/security.md): raw HTML, unsafe links,
 * nesting deeper than 64 levels and text marked's lexer throws on, each shown as text a person can still read.
 */
export const MarkdownUnsafeInput: StoryObj = {
  render: () => (
    <div data-kestrel-run="">
      {unsafeCases.map(([caption, text]) => (
        <section key={caption} aria-label={caption}>
          <h3>{caption}</h3>
          <MarkdownText>{text}</MarkdownText>
        </section>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const [html, links, nesting, thrown] = unsafeCases.map(([caption]) =>
      canvas.getByRole('region', { name: caption }),
    );
    await expect(html!.querySelector('b, img, div[align]')).toBeNull();
    await expect(html).toHaveTextContent('Important & kept');
    await expect(
      within(links!)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['https://example.com', 'mailto:a@example.com']);
    await expect(nesting!.querySelectorAll('blockquote').length).toBeLessThanOrEqual(65);
    await expect(nesting).toHaveTextContent('deep');
    // With theme.css, the deepest quote keeps most of the width: indenting stops after eight levels.
    const deepest = [...nesting!.querySelectorAll('blockquote')].at(-1)!;
    await expect(deepest.clientWidth).toBeGreaterThan(nesting!.clientWidth / 2);
    await expect(thrown).toHaveTextContent('- a >*');
  },
};
