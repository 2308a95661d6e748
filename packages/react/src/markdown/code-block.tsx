'use client';
import { createContext, useContext, type ReactNode } from 'react';
import { PlainText } from '../components/plain-text.js';
import { watchScrollBox } from './scroll-box.js';

/** A fenced or indented code block of the answer, as a {@link RenderCodeBlock} receives it. */
export interface MarkdownCodeBlock {
  /** The code between the fences, as written: text, never HTML. While the answer streams, it may still grow. */
  readonly code: string;
  /**
   * The leading letters, digits, `_`, `#`, `+`, `.` and `-` of the fence's info string (` ```ts ` gives `ts`,
   * ` ```c++ {1,3} ` gives `c++`), or `undefined` when there are none. While the info string streams it may be a
   * prefix of the name (`t` before `ts`).
   */
  readonly language: string | undefined;
}

/**
 * Renders a code block in place of the default `<pre><code>`: highlighting, a copy button. Whatever it returns
 * is the app's markup; the code reaches it as a string, so it stays text unless the renderer makes it HTML.
 */
export type RenderCodeBlock = (block: MarkdownCodeBlock) => ReactNode;

/**
 * The code of a code block as the default block renders it: pieces cut at line breaks (`data-kestrel-chunk`), so a
 * block that is still streaming costs the same per update at its end as at its start. Put it in the `<code>` of your
 * `renderCodeBlock`'s `<pre>`, where theme.css lays the pieces out; read as text, it is the code, character for
 * character.
 */
export const CodeText: (props: { readonly text: string }) => ReactNode = PlainText;

export const CodeBlockContext = createContext<RenderCodeBlock | undefined>(undefined);

/**
 * Read from context, not passed down the token tree: settled blocks are memoised and never rendered again, and a
 * context change still reaches the code blocks inside them.
 */
export function CodeBlock(block: MarkdownCodeBlock) {
  const render = useContext(CodeBlockContext);
  return render ? (
    render(block)
  ) : (
    // Focusable while it scrolls sideways, as a table's box is (scroll-box.ts).
    <pre ref={watchScrollBox}>
      <code className={block.language && `language-${block.language}`}>
        <PlainText text={block.code} />
      </code>
    </pre>
  );
}
