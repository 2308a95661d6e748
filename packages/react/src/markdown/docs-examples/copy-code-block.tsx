/*
 * The code block with a copy button of docs/components.md, verbatim between the region markers:
 * copy-code-block.test.tsx renders it and fails when the documentation's copy drifts from this type-checked one.
 */
// #region copy-code-block
import { RunView, type RenderText, type RunBinding } from '@kestrel/react';
import { MarkdownText, type MarkdownCodeBlock, type RenderCodeBlock } from '@kestrel/react/markdown';
import { useState } from 'react';

function CodeBlockWithCopy({ code, language }: MarkdownCodeBlock) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <figure className="code-block">
      <figcaption>
        {language ?? 'code'}
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(code).then(
              () => setCopy('copied'),
              () => setCopy('failed'),
            )
          }
        >
          Copy code
        </button>
        <span role="status">{copy === 'copied' ? 'Copied' : copy === 'failed' ? 'Could not copy' : ''}</span>
      </figcaption>
      <pre>
        <code className={language && `language-${language}`}>{code}</code>
      </pre>
    </figure>
  );
}

// Defined once, outside any component: a new function at each render would render every code block again.
export const renderCodeBlock: RenderCodeBlock = (block) => <CodeBlockWithCopy {...block} />;

const renderText: RenderText = (text, { final }) => (
  <MarkdownText streaming={!final} renderCodeBlock={renderCodeBlock}>
    {text}
  </MarkdownText>
);

export function Answer({ run }: { run: RunBinding }) {
  return <RunView run={run} renderText={renderText} />;
}
// #endregion copy-code-block
