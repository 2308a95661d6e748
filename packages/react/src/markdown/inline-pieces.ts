import type { Lexer } from './vendor/marked-lexer.js';

/** The longest inline text (a paragraph, a heading, a cell) that marked's inline rules read in one go. */
export const INLINE_PIECE = 4096;

const SPACE = 32;
const LINE_FEED = 10;
const BACKSLASH = 92;
/** What a piece cut at the limit does not end in: it may belong to a hard break (`  \n`, `\\\n`) or an escape. */
const BREAKING = [SPACE, LINE_FEED, BACKSLASH];

/**
 * Where the piece of `text` that starts at `start` ends: after the last line break in reach that is no hard break (no
 * two spaces or backslash before it), else after the last space between two words (one space alone), else near the limit, before
 * the spaces, line breaks and backslashes it would end in, and not inside a surrogate pair.
 */
function pieceEnd(text: string, start: number): number {
  const limit = start + INLINE_PIECE;
  for (let at = text.lastIndexOf('\n', limit - 1); at > start; at = text.lastIndexOf('\n', at - 1)) {
    const before = text.charCodeAt(at - 1);
    if (before !== SPACE && before !== BACKSLASH) return at + 1;
  }
  for (let at = text.lastIndexOf(' ', limit - 1); at > start; at = text.lastIndexOf(' ', at - 1)) {
    const after = text.charCodeAt(at + 1);
    if (!BREAKING.includes(text.charCodeAt(at - 1)) && after !== SPACE && after !== LINE_FEED) return at + 1;
  }
  // Nor right after a line break or a backslash: one may end a hard break, and `\` escapes what follows.
  let end = limit;
  while (end > start + 1 && BREAKING.includes(text.charCodeAt(end - 1))) end--;
  if (end === start + 1) return limit;
  const next = text.charCodeAt(end);
  return next >= 0xdc00 && next <= 0xdfff ? end - 1 : end;
}

/*
 * marked's inline rules take time quadratic in the length of some text: `_a` or `a_` over and over, or a long word
 * before an `@` (the e-mail autolink's lookahead), 32,000 characters in 0.5 to 0.8 s, 64,000 in 2 to 3 s. A paragraph
 * is as long as the model makes it, and while it streams it is lexed again at every update, so such an answer would
 * freeze the page. Inline text longer than INLINE_PIECE characters is therefore lexed in pieces of at most that (see
 * pieceEnd), into the same token list, which joins text across a cut as one lex would: the cost grows linearly. What
 * spans a cut (emphasis, a link's text across a line break) shows as written, and only in such a long paragraph.
 */
export function lexInlineInPieces(lexer: Lexer): void {
  const whole = lexer.inlineTokens.bind(lexer);
  lexer.inlineTokens = (text, tokens = []) => {
    let start = 0;
    while (text.length - start > INLINE_PIECE) {
      const end = pieceEnd(text, start);
      whole(text.slice(start, end), tokens);
      start = end;
    }
    return whole(start === 0 ? text : text.slice(start), tokens);
  };
}
