'use client';
import type { ComponentProps, HTMLAttributes, Ref } from 'react';
import Markdown, { type Components } from 'react-markdown';
import type { RenderText } from '../components/assistant-text.js';
import { closeOpenFence } from './close-open-fence.js';
import { safeUrl } from './safe-url.js';

const components: Components = {
  // A link whose URL was refused keeps its text and loses its target.
  a: ({ href, children, node: _node, ...rest }) =>
    href === undefined || href === '' ? (
      <span data-kestrel-refused-link="">{children}</span>
    ) : (
      <a {...rest} href={href} rel="noopener noreferrer nofollow">
        {children}
      </a>
    ),
  // Model output does not get to load remote images (tracking pixels); its alt text is kept.
  img: ({ alt }) => <span data-kestrel-image="">{alt}</span>,
};

const urlTransform: ComponentProps<typeof Markdown>['urlTransform'] = (url) => safeUrl(url) ?? '';

export interface MarkdownTextProps extends Omit<HTMLAttributes<HTMLDivElement>, 'children'> {
  readonly children: string;
  /** The text is still streaming: an open code fence is closed so the rest does not flicker. */
  readonly streaming?: boolean;
  readonly ref?: Ref<HTMLDivElement>;
}

/**
 * Assistant text as markdown, safely: raw HTML is dropped (never rendered), only http(s) and mailto links are
 * kept, images show their alt text, and partial markdown while streaming renders without breaking.
 *
 * @example
 * <RunView run={run} renderText={renderMarkdown} />
 */
export function MarkdownText({ children, streaming = false, className, ref, ...rest }: MarkdownTextProps) {
  return (
    <div {...rest} ref={ref} className={className} data-kestrel-markdown={streaming ? 'streaming' : 'final'}>
      <Markdown skipHtml urlTransform={urlTransform} components={components}>
        {streaming ? closeOpenFence(children) : children}
      </Markdown>
    </div>
  );
}

/** A `renderText` for `RunView` and `AssistantText` that renders markdown with {@link MarkdownText}. */
export const renderMarkdown: RenderText = (text, { final }) => <MarkdownText streaming={!final}>{text}</MarkdownText>;
