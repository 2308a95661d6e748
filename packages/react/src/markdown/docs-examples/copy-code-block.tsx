/*
 * The code block with a copy button of docs/components.md, verbatim between the region markers:
 * copy-code-block.test.tsx renders it and fails when the documentation's copy drifts from this type-checked one.
 */
// #region copy-code-block
'use client';
import { RunView, type RenderText, type RunBinding } from '@kestrel/react';
import {
  CodeText,
  MarkdownText,
  watchScrollBox,
  type MarkdownCodeBlock,
  type RenderCodeBlock,
} from '@kestrel/react/markdown';
import { useState } from 'react';

// An async function: where the Clipboard API is missing (a page served over plain http), the call rejects too.
const copyText = async (text: string) => navigator.clipboard.writeText(text);

function CodeBlockWithCopy({ code, language }: MarkdownCodeBlock) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="code-block" role="group" aria-label={language === undefined ? 'Code' : `Code, ${language}`}>
      <div className="code-block-bar">
        <span aria-hidden="true">{language ?? 'code'}</span>
        <button
          type="button"
          onClick={() => {
            setCopy('idle'); // so a second copy is announced again
            copyText(code).then(
              () => setCopy('copied'),
              () => setCopy('failed'),
            );
          }}
        >
          Copy code
        </button>
        <span role="status">{copy === 'copied' ? 'Copied' : copy === 'failed' ? 'Could not copy' : ''}</span>
      </div>
      {/* A tab stop while it scrolls sideways, as the default block's is, so a keyboard can scroll it. */}
      <pre ref={watchScrollBox}>
        {/* The code in pieces, as the default block has it: a long block streams at the same cost per update. */}
        <code className={language && `language-${language}`}>
          <CodeText text={code} />
        </code>
      </pre>
    </div>
  );
}

// Defined once, outside any component: a new function at each render would render every code block again.
export const renderCodeBlock: RenderCodeBlock = (block) => <CodeBlockWithCopy {...block} />;

// `streaming`: more of the text is on its way (not once the stream stopped short: then it is shown as written).
const renderText: RenderText = (text, { final, streaming = !final }) => (
  <MarkdownText streaming={streaming} renderCodeBlock={renderCodeBlock}>
    {text}
  </MarkdownText>
);

export function Answer({ run }: { run: RunBinding }) {
  return <RunView run={run} renderText={renderText} />;
}
// #endregion copy-code-block
