import type { Links, MarkedToken, Token, Tokens } from 'marked';
import { asPiece, INLINE_PIECE, isAlnum, isPiece, isWhite } from './inline-pieces.js';
import type { MarkdownBlock } from './markdown-blocks.js';
import { readTableStart, tableCells } from './table-start.js';
import { getDefaults, Lexer } from './vendor/marked-lexer.js';

/*
 * While an answer streams, its last line is often in the middle of some markup: `**bold` before its closing `**`,
 * `` `npm ins `` before its backtick, `[docs](https://exa` before its `)`. Read as written (CommonMark of the prefix),
 * the markers show as text and vanish when the closer comes, a flicker on every bold phrase. So the text a stream
 * ends in is shown as if its open markup were closed: the closers it needs are appended (a closer that has started
 * arriving is finished), a marker with nothing after it yet is left out, a link shows its text until its target is
 * whole, and a bare web address the text ends in shows as text until something follows it: no link to half a URL.
 * marked decides what the closed text means, and the result is kept only when it shows no character the text does
 * not show (see `hidesOnly`).
 *
 * A marker opens only where markup is likely: before a letter, a digit, a character outside ASCII (an emoji), a
 * quote, a bracket or other markup, not inside a word (`5*3`, `snake_case`), and within 300 characters of the end or
 * at the start of the text (a paragraph in italics). So `*.pyc` or `O(n*m)` are never taken for emphasis, and a
 * literal marker that is (`f(*args`) styles a few hundred characters at most, until the answer settles.
 *
 * Only the last inline text of the last block, and only while streaming: settled blocks and a final answer are
 * rendered as written, and the lexing the stream reuses (markdown-blocks.ts) never sees a healed text. The last
 * piece of a long paragraph is healed alone (and stays a piece, so it renders in place), so an update lexes no more
 * than that piece again, at most three times; a table cell or heading longer than INLINE_PIECE is not healed. remend (what streamdown
 * uses) does this over the whole text for 5.9 kB gzip; this is about a fifth of that.
 */

/** What a marker opens before (see above). */
const OPENS = /[^\0-\x7f]|[\w[`("'*~]/;
/** What can open something inline that healing closes: most text has none, and costs one test. */
const MARKUP = /[*_~`[]/;
/**
 * `[text](` and an unfinished target at the very end (one level of parentheses in it, as Wikipedia's have), or the
 * same for an image: shown as the text alone.
 */
const OPEN_LINK = /!?\[([^[\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\([^()\s]*)?$/;

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

/** Whether `healed` shows only what `written` shows, in order: the healing hid markers and added nothing. */
function hidesOnly(healed: string, written: string): boolean {
  let at = 0;
  for (const character of healed) if ((at = written.indexOf(character, at) + 1) === 0) return false;
  return true;
}

/**
 * The inline tokens of `written` with its open markup closed, when that changes what is shown and only hides
 * markers; otherwise undefined. `writtenTokens` are marked's tokens of it: markers marked left unmatched are in its
 * text tokens, so code spans, links and escapes are never read for markers.
 */
function closeMarkup(written: string, writtenTokens: readonly Token[], links: Readonly<Links>): Token[] | undefined {
  if (!MARKUP.test(written)) return;
  const lexer = new Lexer(getDefaults());
  lexer.tokens.links = links as Links;
  // A closer that has started to arrive (`**bold*`, `**"Save"*`; not `\*`, nor `(**` or ` "**`, which open) may close
  // something else already: read the text without it.
  const closing = /(?<=[^\s\\*_~])(?<!(?:^|[\s([{])[(["'])([*_~])\1*$/.exec(written)?.index;
  const source = closing === undefined ? written : written.slice(0, closing);
  const tokens = closing === undefined ? writtenTokens : lexer.inlineTokens(source);
  // An open link's target is not text: nothing in it opens anything, and it is left out below.
  const link = OPEN_LINK.exec(source);
  const target = link === null ? source.length : link.index + link[0].indexOf('](');
  const openers: string[] = [];
  let code = '';
  let codeAt = 0;
  let cut = source.length;
  // Where each run of markers that opens nothing (`2 *`, `*--force`) starts and ends.
  const literals: number[] = [];
  let at = 0;
  scan: for (const token of tokens) {
    const end = at + token.raw.length;
    if (token.type === 'text' && !('tokens' in token && token.tokens))
      for (let from = at; from < end;) {
        if (from >= target) break scan;
        const marker = source[from]!;
        let to = from + 1;
        if (!'*_~`'.includes(marker)) {
          from = to;
          continue;
        }
        // Within the token: marked may have read the rest of the run as the start of something (`*` then `*em*`).
        while (to < end && source[to] === marker) to++;
        const run = source.slice(from, to);
        const before = source[from - 1] ?? ' ';
        const prior = before.charCodeAt(0);
        const after = source[to];
        // Just opened, with nothing after it yet: left out.
        if (after === undefined) {
          if (isWhite(prior) || '(["\''.includes(before)) cut = from;
          break scan;
        }
        if (marker === '`') {
          // Everything after an unclosed code span's backticks is its code.
          code = run;
          codeAt = from;
          break scan;
        }
        // A lone `~` is "about" far more often than it is strikethrough: `~~` only.
        if (
          after !== marker &&
          OPENS.test(after) &&
          !(isAlnum(prior) && (marker === '_' || isAlnum(after.charCodeAt(0)))) &&
          (marker !== '~' || run.length === 2) &&
          (from === 0 || source.length - to <= 300)
        )
          openers.push(run);
        else literals.push(from, to);
        from = to;
      }
    at = end;
  }
  // Past a few, it is not prose (`*a *a *a …`): each opener costs a closer and a pass of marked's emphasis rules.
  if (openers.length > 8) return;
  // Positions above are right as marked keeps every character in some token's raw; hidesOnly would catch it if not.
  // In code, what marked read as a closer that started (`__init_`) is code: the text as written.
  let base = written;
  if (code === '') {
    // Markers that open nothing here may still open for marked (`*--force`), and would take a closer: escaped,
    // they show as they did.
    base = '';
    let from = 0;
    for (let index = 0; openers.length > 0 && index < literals.length; index += 2) {
      base +=
        source.slice(from, literals[index]) + source.slice(literals[index], literals[index + 1]).replace(/./g, '\\$&');
      from = literals[index + 1]!;
    }
    base = (base + source.slice(from, cut)).replace(OPEN_LINK, '$1');
  }
  const closers = code + openers.reverse().join('');
  // A closer after white space would close nothing.
  if (closers !== '') base = base.trimEnd();
  // A backslash the text ends in would escape the first closer: left out (it escapes nothing yet).
  if (code === '' && /(?:^|[^\\])(?:\\\\)*\\$/.test(base)) base = base.slice(0, -1);
  const healed = base + closers;
  if (healed === written) return;
  const next = lexer.inlineTokens(healed);
  // What open code holds, marked may have read as markup (`__init__`): compared as it is written.
  const shows =
    code === '' ? shown(tokens) : shown(lexer.inlineTokens(written.slice(0, codeAt))) + written.slice(codeAt);
  const healedShows = shown(next);
  return healedShows !== shows && hidesOnly(healedShows, shows) ? next : undefined;
}

/**
 * `tokens` with the bare web address they end in as text (looking inside the emphasis they end in when `inside`),
 * or undefined when they end in none. A bare address's raw is its text; `[text](target)` and `<target>` end in `)`
 * or `>`. What marked leaves out of an address's end (`.`, `)`) may yet be followed by more of it.
 */
function unlinkEnd(tokens: readonly Token[], inside: boolean): Token[] | undefined {
  let index = tokens.length - 1;
  if (tokens[index]?.type === 'text' && /^[?!.,:*_~)]+$/.test(tokens[index]!.raw)) index--;
  const last = tokens[index] as MarkedToken | undefined;
  let replaced: Token | undefined;
  if (last?.type === 'link' && last.raw === last.text) replaced = { type: 'text', raw: last.raw, text: last.raw };
  else if (inside && (last?.type === 'strong' || last?.type === 'em' || last?.type === 'del')) {
    const inner = unlinkEnd(last.tokens, true);
    replaced = inner && { ...last, tokens: inner };
  }
  if (replaced === undefined) return;
  const next = [...tokens];
  next[index] = replaced;
  return next;
}

/**
 * `tokens` of inline text `written` with its open markup closed (closeMarkup) and, when it ends in a bare web
 * address, that address shown as text, also inside markup closed around it: more of it may be on its way
 * (`https://exa`). Undefined when nothing changes.
 */
function healInline(written: string, tokens: readonly Token[], links: Readonly<Links>): Token[] | undefined {
  if (written.length > INLINE_PIECE) return;
  const closed = closeMarkup(written, tokens, links);
  // Inside emphasis only when the text as written ends in the address: `**https://x.com**` is whole.
  return unlinkEnd(closed ?? tokens, unlinkEnd(tokens, false) !== undefined) ?? closed;
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
        return healed && { ...known, tokens: [...inline!.slice(0, -1), asPiece({ ...last, tokens: healed })] };
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
      // The cell the table's last line ends in: none once that line ends in `|` (or is done, ending in a line feed).
      // marked pads a row to the header's width, so it is the last cell written, not the row's last.
      // The header, in a table a paragraph starts (healTableStart), while it is that line; never a delimiter row.
      const line = known.raw.slice(known.raw.lastIndexOf('\n') + 1);
      const row = known.rows.at(-1) ?? known.header;
      const index = tableCells(line).length - 1;
      const cell = /^[\s|:-]*$|(?<!\\)\|\s*$/.test(line) ? undefined : row[index];
      const healed = cell && healInline(cell.text, cell.tokens, links);
      if (healed === undefined) return;
      const cells = [...row];
      cells[index] = { ...cell!, tokens: healed };
      return known.rows.length > 0
        ? { ...known, rows: [...known.rows.slice(0, -1), cells] }
        : { ...known, header: cells };
    }
    default:
      return;
  }
}

/**
 * A paragraph whose last lines start a table, as that table (table-start.ts), with the markup its header's last cell
 * leaves open closed while that cell is written; undefined when it starts none or the table would show more.
 */
function healTableStart(paragraph: Tokens.Paragraph, links: Readonly<Links>): Token[] | undefined {
  const tokens = readTableStart(paragraph, links);
  const table = tokens?.at(-1);
  if (table?.type === 'table') tokens![tokens!.length - 1] = healToken(table, links) ?? table;
  const shows = tokens
    ?.flatMap((token): { tokens: Token[] }[] =>
      token.type === 'table' ? (token as Tokens.Table).header : [token as Tokens.Paragraph],
    )
    .map((each) => shown(each.tokens))
    .join('');
  return shows !== undefined && hidesOnly(shows, shown(paragraph.tokens)) ? tokens : undefined;
}

/**
 * The blocks of a streaming text with the markup its last line leaves open shown closed, and a table it is starting
 * shown as one (see above): the same array when nothing changes, else a copy whose last block is new (or two, a
 * paragraph's lines and the table after them). Not for a final text, nor one that ends in a blank line.
 */
export function healOpenMarkup(blocks: readonly MarkdownBlock[], links: Readonly<Links>): readonly MarkdownBlock[] {
  const last = blocks.at(-1);
  // Not after a blank line (two line feeds in the white space the block ends in).
  const end = last?.raw.slice(last.raw.trimEnd().length);
  const token = end !== undefined && end.indexOf('\n') === end.lastIndexOf('\n') ? last!.tokens.at(-1) : undefined;
  let healed: Token[] | undefined;
  try {
    const table = token?.type === 'paragraph' ? healTableStart(token as Tokens.Paragraph, links) : undefined;
    const closed = table ?? (token && healToken(token, links));
    healed = closed && (Array.isArray(closed) ? closed : [closed]);
  } catch {
    // marked throws on some text (see markdown-blocks.ts): then it is shown as written.
  }
  if (healed === undefined) return blocks;
  // A table after a paragraph's line is a block of its own, as marked's lex will make it: so the block that shows its
  // header is the one that takes its rows, and its elements stay.
  const table = healed.length > 1 ? healed.pop()! : undefined;
  const at = last!.raw.length - (table?.raw.length ?? 0);
  const head = { ...last!, raw: last!.raw.slice(0, at), tokens: [...last!.tokens.slice(0, -1), ...healed] };
  return [
    ...blocks.slice(0, -1),
    head,
    ...(table ? [{ ...last!, start: last!.start + at, raw: table.raw, tokens: [table] }] : []),
  ];
}
