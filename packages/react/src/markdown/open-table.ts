import type { Token, Tokens } from 'marked';

// What opens a link for marked's inline lexer (its `startATag`), white space of any kind to err towards finding one.
const LINK_TAG = /<a\s/i;
// How far the text of a table grown here has been searched for LINK_TAG (and held none): each update searches only
// the rows it kept since the last one.
const searched = new WeakMap<Tokens.Table, number>();

/**
 * The table a stream's open table is once `text` (in which it starts at `start`) has grown, lexing only its header
 * and delimiter lines with the text from its last row on, through `lex`; the tokens after it come with it. Null
 * when that cannot tell: a table too short to gain from it, a raw with a line that is no row, or text after the
 * table other than blank lines (a paragraph, a definition), which needs a lex of the whole tail.
 *
 * Why this holds (marked's GFM table rule): the header and delimiter fix the columns; every row after them is one
 * line, and whether a line is a row depends on that line alone (a blank line, or the start of another block, ends
 * the table). So appended text can change the last row (it may be cut mid-line: `1` is a row, `1. ` starts a list)
 * and add rows after it, never an earlier row.
 */
export function extendTable(
  table: Tokens.Table,
  text: string,
  { tail, start }: { readonly tail: number; readonly start: number },
  lex: (source: string) => Token[] | null,
): { readonly table: Tokens.Table; readonly after: Token[] } | null {
  // marked adds a single line break after a block to the block's raw.
  const raw = table.raw.replace(/\n$/, '');
  const keep = raw.lastIndexOf('\n') + 1;
  const from = searched.get(table);
  // A last line of white space alone is in the raw but is no row: marked drops it. Text from where the lexed tail
  // starts (`tail`) that marked may yet read otherwise takes a whole lex: a definition before the table (its title
  // may run on over the table's lines, which it takes once a quote closes), or an open `<a …>` tag, which marked's
  // inline lexer carries from block to block and cell to cell (a bare URL after it is no link).
  if (
    table.rows.length < 2 ||
    /^[ \t]*$/.test(raw.slice(keep)) ||
    (from === undefined && text.slice(tail, start).includes(']:')) ||
    LINK_TAG.test(text.slice(from ?? tail, start + keep))
  )
    return null;
  const head = raw.slice(0, raw.indexOf('\n', raw.indexOf('\n') + 1) + 1);
  const [lexed, ...after] = lex(head + text.slice(start + keep)) ?? [];
  if (
    lexed?.type !== 'table' ||
    lexed.rows.length === 0 ||
    lexed.header.length !== table.header.length ||
    after.some((token) => token.type !== 'space')
  )
    return null;
  const grown: Tokens.Table = {
    ...table,
    // Cut from the text, not joined: a string joined at every update is a chain V8 copies at the next search in it.
    raw: text.slice(start, start + keep + lexed.raw.length - head.length),
    // The same row objects: a renderer that memoises rows skips every one but the new.
    rows: [...table.rows.slice(0, -1), ...(lexed as Tokens.Table).rows],
  };
  searched.set(grown, start + keep);
  return { table: grown, after };
}
