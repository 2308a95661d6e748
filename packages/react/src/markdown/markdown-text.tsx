'use client';
import type { Token } from 'marked';
import { memo, useMemo, type HTMLAttributes, type Ref } from 'react';
import type { RenderText } from '../components/assistant-text.js';
import { useIncremental } from '../components/use-incremental.js';
import { CodeBlockContext, OpenBlockContext, type RenderCodeBlock } from './code-block.js';
import { healOpenMarkup } from './heal-open-markup.js';
import { lexMarkdownBlocks, type MarkdownBlock } from './markdown-blocks.js';
import { withoutMarkerLine } from './marker-line.js';
import { renderToken } from './render-tokens.js';

export interface MarkdownTextProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly children: string;
  /**
   * More of the text is on its way (marked `data-kestrel-markdown="streaming"`): an open code fence runs to the end,
   * markup its end leaves open (`**bold`, a link before its target is whole) is shown closed, a table it is starting
   * is shown from its header row on, and a last line that is only a block's marker so far (`-`, `2.`, `##`) is left
   * out until its text comes. Off (`"final"`), the text is shown as written.
   */
  readonly streaming?: boolean;
  /**
   * Renders each code block instead of the default `<pre><code>` (highlighting, a copy button). Keep it stable (a
   * module-level function or a `useCallback`): a new one renders every code block again.
   */
  readonly renderCodeBlock?: RenderCodeBlock;
  readonly ref?: Ref<HTMLDivElement>;
}

// A settled block keeps its object, so memo skips it: it is neither parsed nor rendered again. `open`: a block of a
// streaming answer not settled yet, whose code may still grow (always a provider, so settling remounts nothing).
const Block = memo(function Block({ block, open }: { readonly block: MarkdownBlock; readonly open: Token | boolean }) {
  return <OpenBlockContext value={open}>{block.tokens.map(renderToken)}</OpenBlockContext>;
});

/** Blocks are rendered in groups of this many, each one element: see MarkdownText. */
const GROUP = 32;

interface GroupProps {
  readonly blocks: readonly MarkdownBlock[];
  readonly from: number;
  readonly to: number;
  /** Where the blocks a streaming answer may still write into begin (past the end when it is final). */
  readonly open: number;
  /** The token the text ends in while its last line is unfinished (see OpenBlockContext). */
  readonly unfinished: Token | undefined;
}

// A group is keyed by `from`, so only its end, its blocks and where the open ones begin can differ.
const sameGroup = (a: GroupProps, b: GroupProps) =>
  a.to === b.to &&
  a.open === b.open &&
  a.unfinished === b.unfinished &&
  a.blocks.slice(a.from, a.to).every((block, index) => block === b.blocks[a.from + index]);

// A group whose blocks are all unchanged is skipped by React in one comparison, and laid out again by the browser
// as one box, so an update costs the same with 50 blocks as with 5,000.
const Group = memo(function Group({ blocks, from, to, open, unfinished }: GroupProps) {
  return (
    <div data-kestrel-markdown-group="">
      {blocks.slice(from, to).map((block, index) => (
        <Block key={block.start} block={block} open={from + index >= open && (unfinished ?? true)} />
      ))}
    </div>
  );
}, sameGroup);

/**
 * Assistant text as markdown (CommonMark with GitHub tables, task lists and strikethrough), safely: raw HTML is
 * dropped (never rendered), only http(s) and mailto links are kept, images show their alt text. While the text
 * streams, only its tail is parsed and rendered again: blocks a blank line has closed are kept as they are, so
 * each update costs the same however long the answer is.
 *
 * @example
 * <RunView run={run} renderText={renderMarkdown} />
 */
export function MarkdownText({
  children,
  streaming = false,
  renderCodeBlock,
  className,
  ref,
  ...rest
}: MarkdownTextProps) {
  // marked reads `\r\n` and `\r` as `\n`, so the raw of its tokens would not add up to a text that keeps them, and
  // every update would lex the whole text again (lexMarkdownBlocks's fallback): read them as marked does, first.
  const written = children.includes('\r') ? children.replace(/\r\n?/g, '\n') : children;
  const text = streaming ? withoutMarkerLine(written) : written;
  const lexed = useIncremental(text, lexMarkdownBlocks);
  const { settled } = lexed;
  // While it streams, the markup its last line leaves open (`**bold`) is shown closed, and a table it starts is one
  // (heal-open-markup.ts).
  const blocks = useMemo(
    () => (streaming ? healOpenMarkup(lexed.blocks, lexed.definitions) : lexed.blocks),
    [lexed, streaming],
  );
  // The blocks not settled yet, which more text can still change.
  const open = streaming ? settled : Infinity;
  // The text ends in a fence on a line not finished yet (it may be the start of ```` ```js ````): the token it ends
  // in, where marked may have read it as a closing fence. Blank lines of spaces after it are a block of their own.
  const end = text.trimEnd();
  const unfinished =
    streaming && !text.slice(end.length).includes('\n') && /[`~]{3}/.test(end.slice(-3))
      ? lastLeaf(blocks.slice(-2).flatMap((block) => block.tokens))
      : undefined;
  // Groups of GROUP blocks, keyed by where they start, so a block never moves to another group (its element, and the
  // state and focus inside it, stay as blocks settle); a group without blocks to settle is told nothing that changes.
  const groups = [];
  for (let from = 0; from < blocks.length; from += GROUP) {
    const to = Math.min(from + GROUP, blocks.length);
    const live = to > open;
    groups.push(
      <Group
        key={from}
        blocks={blocks}
        from={from}
        to={to}
        open={live ? open : Infinity}
        unfinished={live ? unfinished : undefined}
      />,
    );
  }
  return (
    <div {...rest} ref={ref} className={className} data-kestrel-markdown={streaming ? 'streaming' : 'final'}>
      <CodeBlockContext value={renderCodeBlock}>{groups}</CodeBlockContext>
    </div>
  );
}

/** The block-level token a text of `tokens` ends in, inside lists and quotes too. */
function lastLeaf(tokens: readonly Token[]): Token | undefined {
  const token = tokens.findLast((candidate) => candidate.type !== 'space');
  const inner =
    token?.type === 'list'
      ? token.items.at(-1)?.tokens
      : token?.type === 'blockquote' || token?.type === 'list_item'
        ? token.tokens
        : undefined;
  return (inner && lastLeaf(inner)) || token;
}

/** A `renderText` for `RunView` and `AssistantText` that renders markdown with {@link MarkdownText}. */
export const renderMarkdown: RenderText = (text, { final, streaming = !final }) => (
  <MarkdownText streaming={streaming}>{text}</MarkdownText>
);
