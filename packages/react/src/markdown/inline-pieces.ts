import type { Token, Tokens } from 'marked';
import type { Lexer } from './vendor/marked-lexer.js';

/** The longest inline text (a paragraph, a heading, a cell) that marked's inline rules read in one go. */
export const INLINE_PIECE = 1024;

const BACKSLASH = 92;
const OTHER_WHITE = /\s/;
const OTHER_ALNUM = /[\p{L}\p{N}]/u;
const CAPITAL = /\p{Lu}/u;
/** What opens or closes something inline (emphasis, code, a link, a tag, an escape, an entity): no cut beside it. */
const MARKUP = '_*~`\\[]()<>!&';
/** Where a sentence of Chinese or Japanese ends: 。！？ */
const FULL_STOPS = [0x3002, 0xff01, 0xff1f];

/** White space as marked's `\s` reads it: ASCII first, then the rest of Unicode's. */
export function isWhite(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return OTHER_WHITE.test(String.fromCharCode(code));
}

/** A letter or digit: an underscore or asterisk between two of them is inside a word (no emphasis starts there). */
export function isAlnum(code: number): boolean {
  if (code < 128) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
  return OTHER_ALNUM.test(String.fromCharCode(code));
}

const isMarkup = (code: number) => code < 128 && MARKUP.includes(String.fromCharCode(code));
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Where the piece of `text` that starts at `start` ends. Before a run of white space, which then opens the next
 * piece, so a hard break (two spaces or a backslash, then a line feed) is read whole with the text after it: the
 * last run in reach with a line feed in it, else the last one after the end of a sentence (`.`, `!` or `?`, then a
 * capital), else the last one; never after a backslash, which would escape the white space. Text with no white space
 * in reach (a long link, Chinese or Japanese) is cut after a full stop (。！？), else between two letters or digits,
 * else between two characters that are neither markup (MARKUP) nor half a surrogate pair: at a piece's start marked
 * sees no character before, so a `_` or `*` beside the cut could open or close emphasis there. Failing all that (text
 * that is all markup, where a cut may change how what is beside it reads), at the limit, moved back to an even count
 * of backslashes, or off markup at the next piece's start. A cut reads the piece and the one character after it, so
 * appending text moves none.
 */
function pieceEnd(text: string, start: number): number {
  const limit = start + INLINE_PIECE;
  let sentence = 0;
  let space = 0;
  let fullStop = 0;
  let letters = 0;
  let plain = 0;
  // Going back from the limit: whether the white space after `at` holds a line feed, and the first character after
  // that white space. Only the piece and the one character after it are read: text appended later moves no cut.
  const atLimit = text.charCodeAt(limit);
  let lineFeed = atLimit === 10;
  let after = isWhite(atLimit) ? -1 : atLimit;
  for (let at = limit - 1; at > start; at--) {
    const code = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    if (isWhite(code)) {
      if (code === 10) lineFeed = true;
      continue;
    }
    if (isWhite(next)) {
      if (code !== BACKSLASH) {
        if (lineFeed) return at + 1;
        if (sentence === 0 && (code === 33 || code === 46 || code === 63) && CAPITAL.test(String.fromCharCode(after)))
          sentence = at + 1;
        if (space === 0) space = at + 1;
      }
    } else if (space === 0) {
      if (fullStop === 0 && FULL_STOPS.includes(code) && !isMarkup(next)) fullStop = at + 1;
      if (letters === 0 && isAlnum(code) && isAlnum(next)) letters = at + 1;
      if (plain === 0 && !isMarkup(code) && !isMarkup(next) && !isLowSurrogate(next)) plain = at + 1;
    }
    lineFeed = false;
    after = code;
  }
  const cut = sentence || space || fullStop || letters || plain;
  if (cut !== 0) return cut;
  let end = limit;
  // A run of backslashes is cut after an even number of them, counted from where it starts: a run that began before
  // this piece was cut that way too, as no other cut ends a piece in a backslash.
  let backslashes = 0;
  while (end - 1 - backslashes >= start && text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
  if (backslashes % 2 === 1) end--;
  else if (isMarkup(text.charCodeAt(end)) && !isMarkup(text.charCodeAt(end - 1)) && end > start + 1) end--;
  return isLowSurrogate(text.charCodeAt(end)) ? end - 1 : end;
}

/**
 * The tokens of a piece of long inline text, held as one text token whose `tokens` they are: a piece kept from the
 * last lex is the same object, so the renderer skips it (render-tokens.tsx) and an update renders the last piece or
 * two, not every token of the paragraph.
 */
const pieceTokens = new WeakSet<Token>();

/** `token`, held as one piece of long inline text from now on (a piece's tokens healed, heal-open-markup.ts). */
export function asPiece<T extends Token>(token: T): T {
  pieceTokens.add(token);
  return token;
}

/** Whether `token` holds one piece of long inline text (see pieceTokens). */
export const isPiece = (token: Token): token is Tokens.Text & { tokens: Token[] } => pieceTokens.has(token);

/** A piece's token, and marked's state after it (an open `<a>` or `<pre>` tag carries over to the next piece). */
interface LexedPiece {
  readonly token: Token;
  readonly inLink: boolean;
  readonly inRawBlock: boolean;
  /** For a piece with a `[`: the reference definitions it was read with (a reference link reads them). */
  readonly links: string | undefined;
}

/**
 * The pieces one lex of a stream's text read, for the next lex to reuse: keyed by marked's state before the piece
 * and the piece itself. A stream holds the pieces of its last lex only (`into` becomes the next lex's `from`).
 */
export type InlinePieces = Map<string, LexedPiece>;

/*
 * marked's inline rules take time quadratic in the length of some text: `a_` or `x_*a ` over and over, a long word
 * before an `@` (the e-mail autolink's lookahead), 32,000 characters in 0.5 to 14 s depending on the text. A
 * paragraph is as long as the model makes it (and a model caught in a loop repeats such text), and while it streams
 * it is lexed again at every update, so such an answer would freeze the page. Inline text longer than INLINE_PIECE
 * characters is therefore lexed in pieces of at most that (see pieceEnd): the cost grows linearly. What spans a cut
 * (emphasis, a link's text) shows as written, and only in such a long paragraph; the cuts prefer line breaks and
 * ends of sentences, which those rarely span.
 *
 * While the text streams, a piece that is whole (text follows its cut) is taken from the last lex when marked's state
 * before it is the same, and, if it holds a `[` (a reference link may read a definition), the definitions too: an
 * update lexes the last piece or two, not the whole paragraph again.
 */
export function lexInlineInPieces(
  lexer: Lexer,
  pieces?: { readonly from?: InlinePieces; readonly into: InlinePieces },
): void {
  const whole = lexer.inlineTokens.bind(lexer);
  // The definitions this lexer reads (all known once inline text is lexed, after the blocks), as text to compare.
  let links: string | undefined;
  const lexPiece = (piece: string, complete: boolean): Token => {
    const { state } = lexer;
    const key =
      pieces !== undefined && complete ? `${state.inLink ? 1 : 0}${state.inRawBlock ? 1 : 0}${piece}` : undefined;
    const read = piece.includes('[') ? (links ??= JSON.stringify(lexer.tokens.links)) : undefined;
    const kept = key === undefined ? undefined : (pieces!.into.get(key) ?? pieces!.from?.get(key));
    if (kept !== undefined && kept.links === read) {
      state.inLink = kept.inLink;
      state.inRawBlock = kept.inRawBlock;
      pieces!.into.set(key!, kept);
      return kept.token;
    }
    // A piece kept for later is lexed from a copy of its own (the key's), not from a slice of this update's text.
    const text = key === undefined ? piece : key.slice(2);
    const token: Token = { type: 'text', raw: text, text, tokens: whole(text, []) };
    pieceTokens.add(token);
    if (key !== undefined)
      pieces!.into.set(key, { token, inLink: state.inLink, inRawBlock: state.inRawBlock, links: read });
    return token;
  };
  lexer.inlineTokens = (text, tokens = []) => {
    if (text.length <= INLINE_PIECE) return whole(text, tokens);
    for (let start = 0; start < text.length;) {
      const end = text.length - start > INLINE_PIECE ? pieceEnd(text, start) : text.length;
      tokens.push(lexPiece(text.slice(start, end), end < text.length));
      start = end;
    }
    return tokens;
  };
}
