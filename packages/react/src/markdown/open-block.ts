import type { Token, Tokens } from 'marked';
import { detached } from './detached.js';

// What opens a link for marked's inline lexer (its `startATag`, with white space of any kind to err towards finding
// one), or a carriage return.
const BEFORE_CUT = /<a\s|\r/i;
// How far the text of a block grown here has been searched for BEFORE_CUT (and held none): each update searches only
// what it kept since the last one.
const searched = new WeakMap<Token, number>();

/**
 * The block a stream's open table or list is once `text` (in which the lexed tail starts at `tail` and the block at
 * `start`) has grown, lexing only its end through `lex`; the tokens after it come with it. Null when that cannot
 * tell, and the whole tail must be lexed: a block too short to gain from it, text after it other than blank lines
 * (a paragraph, a definition), or text before its end that marked may yet read otherwise.
 *
 * Why this holds. A table (marked's GFM table rule): the header and delimiter fix the columns, and every row after
 * them is one line whose being a row depends on that line alone (a blank line, or the start of another block, ends
 * the table). So appended text can change the last row (it may be cut mid-line: `1` is a row, `1. ` starts a list)
 * and add rows after it, never an earlier one: the header and delimiter lines and the text from the last row on
 * lex as the same table. A list: an item ends where the next item of the list starts, and what it holds is read
 * from its own lines, so every item but the last two is settled (the last may end before a line that turns out not
 * to start an item, which then joins the one before it). The text from the second-to-last item on lexes as the rest
 * of the list, if it is as loose (blank lines between items or inside one) as the list was: when they differ, marked
 * rewrites every item.
 */
export function extendOpenBlock(
  token: Token,
  text: string,
  { tail, start }: { readonly tail: number; readonly start: number },
  lex: (source: string) => Token[] | null,
): { readonly token: Token; readonly after: Token[] } | null {
  // marked adds a single line break after a block to the block's raw (for any one white space character after it),
  // and ends a list with its last item's raw trimmed.
  const raw = token.type === 'list' ? (token.raw as string).trimEnd() : (token.raw as string).replace(/\n$/, '');
  let keep = raw.lastIndexOf('\n') + 1;
  let head = '';
  if (token.type === 'table') {
    // A last line of white space alone is in the raw but is no row: marked drops it.
    if ((token as Tokens.Table).rows.length < 2 || /^[ \t]*$/.test(raw.slice(keep))) return null;
    head = raw.slice(0, raw.indexOf('\n', raw.indexOf('\n') + 1) + 1);
  } else if (token.type === 'list') {
    const { items } = token as Tokens.List;
    if (items.length < 3) return null;
    const [before, last] = items.slice(-2);
    keep = raw.length - last!.raw.length - before!.raw.length;
    if (!raw.startsWith(before!.raw, keep)) return null;
  } else return null;
  const from = searched.get(token);
  // Text marked may read otherwise than a lex of the end alone would. Before the cut: an open `<a …>` tag, which
  // marked's inline lexer carries from block to block and cell to cell (a bare URL after it is no link), and a `\r`,
  // which marked reads as a line break, so its raw no longer measures the text. From the cut on, and the first time
  // from the tail's start: a definition (before the block, its title may run on over later lines, which it takes
  // once a quote closes it; in a list item, it defines its label for the whole text) or a `\r`.
  if (
    BEFORE_CUT.test(text.slice(from ?? tail, start + keep)) ||
    /\]:|\r/.test(text.slice(from === undefined ? tail : start + keep))
  )
    return null;
  const [lexed, ...after] = lex(head + text.slice(start + keep)) ?? [];
  if (lexed?.type !== token.type || after.some((next) => next.type !== 'space')) return null;
  let grown: Tokens.Table | Tokens.List;
  if (lexed.type === 'table') {
    const table = token as Tokens.Table;
    if (lexed.rows.length === 0 || lexed.header.length !== table.header.length) return null;
    // The same row and item objects: a renderer that memoises them renders only the new.
    grown = { ...table, rows: [...table.rows.slice(0, -1), ...(lexed as Tokens.Table).rows] };
  } else {
    const list = token as Tokens.List;
    if ((lexed as Tokens.List).loose !== list.loose) return null;
    grown = { ...list, items: [...list.items.slice(0, -2), ...(lexed as Tokens.List).items] };
  }
  // Cut from the text, not joined (a string joined at every update is a chain V8 copies at the next search in it),
  // and copied, so the block keeps no more than itself alive once it settles (see `detached`).
  grown.raw = detached(text.slice(start, start + keep + lexed.raw.length - head.length));
  searched.set(grown, start + keep);
  return { token: grown, after };
}
