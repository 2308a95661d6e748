'use client';
import { memo, type HTMLAttributes, type Ref } from 'react';
import type { RenderText } from '../components/assistant-text.js';
import { useIncremental } from '../components/use-incremental.js';
import { CodeBlockContext, type RenderCodeBlock } from './code-block.js';
import { lexMarkdownBlocks, type MarkdownBlock } from './markdown-blocks.js';
import { renderToken } from './render-tokens.js';

export interface MarkdownTextProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly children: string;
  /** The text is still streaming (marked `data-kestrel-markdown="streaming"`); an open code fence runs to the end. */
  readonly streaming?: boolean;
  /**
   * Renders each code block instead of the default `<pre><code>` (highlighting, a copy button). Keep it stable (a
   * module-level function or a `useCallback`): a new one renders every code block again.
   */
  readonly renderCodeBlock?: RenderCodeBlock;
  readonly ref?: Ref<HTMLDivElement>;
}

// A settled block keeps its object, so memo skips it: it is neither parsed nor rendered again.
const Block = memo(function Block({ block }: { readonly block: MarkdownBlock }) {
  return block.tokens.map(renderToken);
});

/** Settled blocks are rendered in groups of this many, each one element: see MarkdownText. */
const GROUP = 32;

const sameGroup = (a: GroupProps, b: GroupProps) =>
  a.from === b.from &&
  a.blocks.slice(a.from, a.from + GROUP).every((block, index) => block === b.blocks[b.from + index]);

interface GroupProps {
  readonly blocks: readonly MarkdownBlock[];
  readonly from: number;
}

// A group whose blocks are all unchanged is skipped by React in one comparison, and laid out again by the browser
// as one box, so an update costs the same with 50 blocks as with 5,000.
const Group = memo(function Group({ blocks, from }: GroupProps) {
  return (
    <div data-kestrel-markdown-group="">
      {blocks.slice(from, from + GROUP).map((block) => (
        <Block key={block.start} block={block} />
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
  const { blocks, settled } = useIncremental(children, lexMarkdownBlocks);
  const grouped = settled - (settled % GROUP);
  const groups = Array.from({ length: grouped / GROUP }, (_, index) => (
    <Group key={index} blocks={blocks} from={index * GROUP} />
  ));
  return (
    <div {...rest} ref={ref} className={className} data-kestrel-markdown={streaming ? 'streaming' : 'final'}>
      <CodeBlockContext value={renderCodeBlock}>
        {groups}
        {blocks.slice(grouped).map((block) => (
          <Block key={block.start} block={block} />
        ))}
      </CodeBlockContext>
    </div>
  );
}

/** A `renderText` for `RunView` and `AssistantText` that renders markdown with {@link MarkdownText}. */
export const renderMarkdown: RenderText = (text, { final }) => <MarkdownText streaming={!final}>{text}</MarkdownText>;
