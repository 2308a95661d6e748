import type { Links, MarkedToken, Token } from 'marked';
import { INLINE_PIECE, isPiece } from './inline-pieces.js';
import type { MarkdownBlock } from './markdown-blocks.js';
import { getDefaults, Lexer } from './vendor/marked-lexer.js';

/*
 * While an answer streams, its last line is often in the middle of some markup: `**bold` before its closing `**`,
 * `` `npm ins `` before its backtick, `[docs](https://exa` before its `)`. Read as written (CommonMark of the prefix),
 * the markers show as text and vanish when the closer comes, a flicker on every bold phrase. So the text a stream
 * ends in is shown as if its open markup were closed: the closers it needs are appended (a closer that has started
 * arriving is finished), a marker with nothing after it yet is left out, and a link shows its text until its
 * target is whole (never a link to half a URL). marked decides what the closed text means, and the result is kept
 * only when it shows no character the text does not have (see `hidesOnly`): healing hides markers, never adds any.
 *
 * Only the last inline text of the last block, and only while streaming: settled blocks and a final answer are
 * rendered as written, and the lexing the stream reuses (markdown-blocks.ts) never sees a healed text. The last
 * piece of a long paragraph is healed alone, so the cost is bounded by INLINE_PIECE. remend (what streamdown uses)
 * does this over the whole text for 5.9 kB gzip; this is about a tenth of that.
 */

const WHITE = /\s/;
const ALNUM = /[\p{L}\p{N}]/u;
/** What can open something inline that healing closes: most text has none, and costs one test. */
const MARKUP = /[*_~`[]/;
/** `[text](` and an unfinished target at the very end, or the same for an image: shown as the text alone. */
const OPEN_LINK = /!?\[([^[\]]*)\]\([^()\s]*$/;

/** The text the user sees of inline tokens, markup left out. */
function shown(tokens: readonly Token[]): string {
  return tokens
    .map((token) =>
      token.type === 'br'
        ? '\n'
        : token.type === 'html'
          ? ''
          : 'tokens' in token && token.tokens
            ? shown(token.tokens)
            : ((token as { text?: string }).text ?? ''),
    )
    .join('');
}

/** Whether `healed` shows only characters `written` shows, in order: the healing hid markers and added none. */
function hidesOnly(healed: string, written: string): boolean {
  let at = 0;
  for (const character of healed) if ((at = written.indexOf(character, at) + 1) === 0) return false;
  return healed !== written;
}

/**
 * The inline tokens of `source` with its open markup closed, when that changes what is shown and only hides
 * markers; otherwise undefined. `tokens` are marked's tokens of `source`: markers marked left unmatched are in its
 * text tokens, so code spans, links and escapes are never read for markers.
 */
function healInline(written: string, writtenTokens: readonly Token[], links: Readonly<Links>): Token[] | undefined {
  if (written.length > INLINE_PIECE || !MARKUP.test(written)) return;
  const lexer = new Lexer(getDefaults());
  lexer.tokens.links = links as Links;
  // A closer that has started to arrive (`**bold*`) may close something else already: read the text without it.
  const closing = /(?<=\S)([*_~])\1*$/.exec(written)?.index;
  const source = closing === undefined ? written : written.slice(0, closing);
  const tokens = closing === undefined ? writtenTokens : lexer.inlineTokens(source);
  const openers: string[] = [];
  let code = '';
  let cut = source.length;
  // Where the last run of markers that opens nothing ends (`2 *`).
  let literal = 0;
  let at = 0;
  scan: for (const token of tokens) {
    const end = at + token.raw.length;
    if (token.type === 'text' && !('tokens' in token && token.tokens))
      for (let from = at; from < end;) {
        const marker = source[from]!;
        let to = from + 1;
        if (!'*_~`'.includes(marker)) {
          from = to;
          continue;
        }
        while (source[to] === marker) to++;
        const run = source.slice(from, to);
        const before = source[from - 1] ?? ' ';
        const after = source[to];
        // Just opened, with nothing after it yet: left out.
        if (after === undefined) {
          if (WHITE.test(before)) cut = from;
          break scan;
        }
        if (marker === '`') {
          // Everything after an unclosed code span's backticks is its code.
          code = run;
          break scan;
        }
        // Able to open: followed by other than white space; `_` not inside a word; `~~` only (a lone `~` is
        // "about" far more often than it is strikethrough).
        if (!WHITE.test(after) && (marker !== '_' || !ALNUM.test(before)) && (marker !== '~' || run.length === 2))
          openers.push(run);
        else literal = to;
        from = to;
      }
    at = end;
  }
  // Positions above are right as marked keeps every character in some token's raw; hidesOnly would catch it if not.
  let base = source.slice(0, cut);
  if (code === '') base = base.replace(OPEN_LINK, '$1');
  base = base.trimEnd();
  const closers = code + openers.reverse().join('');
  // Markers the text ends in that open nothing (`2 *`) would join the closers' run: escaped, they show as they did.
  if (code === '' && base.length === literal) base = base.replace(/[*_~]+$/, (run) => run.replace(/./g, '\\$&'));
  const healed = base + closers;
  if (healed === written) return;
  const next = lexer.inlineTokens(healed);
  return hidesOnly(shown(next), shown(tokens)) ? next : undefined;
}

/** `token` with the inline text it ends in healed (see above), or undefined when nothing changes. */
function healToken(token: Token, links: Readonly<Links>): Token | undefined {
  const known = token as MarkedToken;
  switch (known.type) {
    case 'paragraph':
    case 'heading':
    case 'text': {
      const inline = known.tokens;
      const last = inline?.at(-1);
      if (last === undefined) return;
      if (isPiece(last)) {
        const healed = healInline(last.text, last.tokens, links);
        return healed && { ...known, tokens: [...inline!.slice(0, -1), { ...last, tokens: healed }] };
      }
      const healed = healInline(known.text, inline!, links);
      return healed && { ...known, tokens: healed };
    }
    case 'list':
    case 'list_item':
    case 'blockquote': {
      const children = known.type === 'list' ? known.items : known.tokens;
      let index = children.length - 1;
      while (index > 0 && children[index]!.type === 'space') index--;
      const healed = children[index] && healToken(children[index]!, links);
      if (healed === undefined) return;
      const next = [...children];
      next[index] = healed;
      return known.type === 'list' ? { ...known, items: next as typeof known.items } : { ...known, tokens: next };
    }
    case 'table': {
      const row = known.rows.at(-1);
      const cell = row?.at(-1);
      const healed = cell && healInline(cell.text, cell.tokens, links);
      return (
        healed && { ...known, rows: [...known.rows.slice(0, -1), [...row!.slice(0, -1), { ...cell!, tokens: healed }]] }
      );
    }
    default:
      return;
  }
}

/**
 * The blocks of a streaming text with the markup its last line leaves open shown closed (see above): the same
 * array when nothing changes, else a copy whose last block is new. Not for a final text, nor one that ends in a
 * blank line (its last paragraph is closed).
 */
export function healOpenMarkup(blocks: readonly MarkdownBlock[], links: Readonly<Links>): readonly MarkdownBlock[] {
  const last = blocks.at(-1);
  const token = last && !/\n\s*\n\s*$/.test(last.raw) ? last.tokens.at(-1) : undefined;
  let healed: Token | undefined;
  try {
    healed = token && healToken(token, links);
  } catch {
    // marked throws on some text (see markdown-blocks.ts): then it is shown as written.
  }
  return healed === undefined
    ? blocks
    : [...blocks.slice(0, -1), { ...last!, tokens: [...last!.tokens.slice(0, -1), healed] }];
}
