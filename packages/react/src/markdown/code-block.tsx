'use client';
import type { Token, Tokens } from 'marked';
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
  /**
   * The block will not change any more: its closing fence has arrived, the part of the answer it is in has settled
   * (a blank line and a later block follow it), or the answer is final. While it is `false` the code may still grow,
   * and may end in the first backticks of the closing fence for an update: a highlighter or a diagram can wait for
   * `true`. Once `true`, it stays so.
   */
  readonly complete: boolean;
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
 * Inside a block of a streaming answer that is not settled yet (markdown-text.tsx), whose code may still grow: `true`,
 * or the token the text ends in while its last line is unfinished (a fence there may be the start of ```` ```js ````).
 */
export const OpenBlockContext = createContext<Token | boolean>(false);

/**
 * A fenced block's raw ends in its closing fence: a line of the opening's character, at least as many of them, then
 * only spaces (marked's rule; a token's raw ends in one line break at most). marked runs a fence that is not closed
 * to the end of the text, so without that line more text may still go into it. An indented block has no fence: it
 * ends where a later block begins.
 */
function closesFence(raw: string): boolean {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
  return fence !== undefined && new RegExp(`\n {0,3}${fence[0]}{${fence.length},} *\n?$`).test(raw);
}

/**
 * Read from context, not passed down the token tree: settled blocks are memoised and never rendered again, and a
 * context change still reaches the code blocks inside them.
 */
export function CodeBlock({ token }: { readonly token: Tokens.Code }) {
  const render = useContext(CodeBlockContext);
  const open = useContext(OpenBlockContext);
  const block = {
    code: token.text,
    language: /^[\w#+.-]+/.exec(token.lang ?? '')?.[0],
    complete: !open || (open !== token && closesFence(token.raw)),
  };
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
