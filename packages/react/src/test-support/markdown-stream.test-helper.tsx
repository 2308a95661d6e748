import { Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { vi } from 'vitest';
import { lexMarkdownBlocks, type MarkdownBlocks } from '../markdown/markdown-blocks.js';
import { renderToken } from '../markdown/render-tokens.js';
import { Lexer } from '../markdown/vendor/marked-lexer.js';

/** The HTML a lexed text renders, block by block as MarkdownText renders them (without its groups). */
export const markdownHtml = (lexed: MarkdownBlocks): string =>
  renderToStaticMarkup(
    lexed.blocks.map((block) => <Fragment key={block.start}>{block.tokens.map(renderToken)}</Fragment>),
  );

/** Streams `text` in steps of `step` characters through lexMarkdownBlocks, counting the characters marked lexes. */
export function streamCountingLexedCharacters(text: string, step: number) {
  const lex = vi.spyOn(Lexer.prototype, 'lex');
  let lexed: MarkdownBlocks | null = null;
  for (let end = 0; end < text.length; end += step) lexed = lexMarkdownBlocks(lexed, text.slice(0, end));
  lexed = lexMarkdownBlocks(lexed, text);
  const charactersLexed = lex.mock.calls.reduce((sum, [source]) => sum + source.length, 0);
  lex.mockRestore();
  return { lexed, charactersLexed };
}
