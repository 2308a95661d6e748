'use client';
import { memo, type HTMLAttributes, type Ref } from 'react';
import type { RenderText } from '../components/assistant-text.js';
import { useIncremental } from '../components/use-incremental.js';
import { lexMarkdownBlocks, type MarkdownBlock } from './markdown-blocks.js';
import { renderToken } from './render-tokens.js';

export interface MarkdownTextProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly children: string;
  /** The text is still streaming (marked `data-kestrel-markdown="streaming"`); an open code fence runs to the end. */
  readonly streaming?: boolean;
  readonly ref?: Ref<HTMLDivElement>;
}

// A settled block keeps its object, so memo skips it: it is neither parsed nor rendered again.
const Block = memo(function Block({ block }: { readonly block: MarkdownBlock }) {
  return block.tokens.map(renderToken);
});

/**
 * Assistant text as markdown (CommonMark with GitHub tables, task lists and strikethrough), safely: raw HTML is
 * dropped (never rendered), only http(s) and mailto links are kept, images show their alt text. While the text
 * streams, only its tail is parsed and rendered again: blocks a blank line has closed are kept as they are, so
 * each update costs the same however long the answer is.
 *
 * @example
 * <RunView run={run} renderText={renderMarkdown} />
 */
export function MarkdownText({ children, streaming = false, className, ref, ...rest }: MarkdownTextProps) {
  const { blocks } = useIncremental(children, lexMarkdownBlocks);
  return (
    <div {...rest} ref={ref} className={className} data-kestrel-markdown={streaming ? 'streaming' : 'final'}>
      {blocks.map((block) => (
        <Block key={block.start} block={block} />
      ))}
    </div>
  );
}

/** A `renderText` for `RunView` and `AssistantText` that renders markdown with {@link MarkdownText}. */
export const renderMarkdown: RenderText = (text, { final }) => <MarkdownText streaming={!final}>{text}</MarkdownText>;
