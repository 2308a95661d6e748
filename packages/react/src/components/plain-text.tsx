'use client';
import { memo } from 'react';
import { chunkText } from './text-chunks.js';
import { useIncremental } from './use-incremental.js';

// Settled pieces keep their string, so memo skips them: only the growing tail is rendered and laid out again.
const Chunk = memo(function Chunk({ text }: { readonly text: string }) {
  return <span data-kestrel-chunk="">{text}</span>;
});

/**
 * Plain text as consecutive pieces cut at line breaks (`data-kestrel-chunk`), so a streaming draft costs the same
 * per update however long it grows. The pieces are plain inline text: copied, selected or read by a screen reader
 * they are the text itself, character for character. theme.css lays each one out as its own full-width box.
 */
export function PlainText({ text }: { readonly text: string }) {
  const { settled, tail } = useIncremental(text, chunkText);
  return (
    <>
      {settled.map((chunk, index) => (
        <Chunk key={index} text={chunk} />
      ))}
      {tail === '' ? null : <Chunk key={settled.length} text={tail} />}
    </>
  );
}
