import type { Links, Token, Tokens } from 'marked';
import { INLINE_PIECE } from './inline-pieces.js';
import { getDefaults, Lexer } from './vendor/marked-lexer.js';

/*
 * A GFM table is a table only from its delimiter row on (`|---|---|`): until that row is written, its header row is
 * a paragraph of pipes, and the whole thing jumps into a table a line later. While an answer streams, a line that
 * starts with `| ` at the end of a paragraph is shown as the header of the table it most likely starts: a delimiter
 * row with one cell per header cell is appended (keeping the alignment of the cells already written) and marked
 * reads the text. When the next line turns out to start no delimiter row, the line is a paragraph again.
 */

/**
 * A line that may be a table's header: it starts with `| ` (after at most three spaces; models write tables so, and
 * `|x| is` is prose) and has a cell's text.
 */
const HEADER = /^ {0,3}\|[ \t].*[^\s|:-]/;
/** The start of a delimiter row (after at most three spaces): pipes, dashes, colons and spaces, and no more. */
const DELIMITER = /^ {0,3}(?:[|:-][ |:-]*)?$/;

/**
 * The cells of a table row as GFM splits it, at pipes not escaped (also inside code), a leading and a trailing pipe
 * being borders. marked has the last word: a table whose header it splits otherwise is not shown.
 */
export const tableCells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||(?<!\\)\|$/g, '')
    .split(/(?<!\\)\|/);

/**
 * A streaming paragraph whose last lines start a table (a header row, then maybe part of its delimiter row), read as
 * if its delimiter row were whole: the paragraph's other lines first (when it has any), then the table of its header
 * alone, whose `raw` is its lines as written (so the header row being written is its last line). A row's first `|`
 * (or `| |`) with nothing after it yet is left out. Undefined when the lines start no table, or marked reads the text
 * otherwise.
 */
export function readTableStart(paragraph: Tokens.Paragraph, links: Readonly<Links>): Token[] | undefined {
  const { raw } = paragraph;
  if (raw.length > INLINE_PIECE || !raw.includes('|')) return;
  const lines = raw.split('\n');
  let delimiter = lines.at(-1)!;
  // The header row is the last line (it is being written), or the one before a delimiter row being written.
  if (HEADER.test(delimiter)) delimiter = '';
  else if (!DELIMITER.test(delimiter)) return;
  else lines.pop();
  const header = lines.pop()!;
  const lexer = new Lexer(getDefaults());
  // Lexing a paragraph's lines again defines no link: the map is only read.
  lexer.tokens.links = links as Links;
  if (!HEADER.test(header)) {
    // Not a header's: a lone `|` (or the empty first cell of one) is left out, as a marker with nothing after it is.
    return /^ {0,3}\|[ \t|]*$/.test(delimiter) ? lexer.lex([...lines, header].join('\n')) : undefined;
  }
  // A row before it that no delimiter row followed: these lines are no table (the model left it out).
  if (/^ {0,3}\|/.test(lines.at(-1) ?? '')) return;
  const count = tableCells(header).length;
  // The delimiter row, whole: the cells written so far (a `:` is an alignment's start), then `-` for the others.
  // marked reads no table where it splits the header into another number of cells.
  const given = tableCells(delimiter);
  if (given.length > count) return;
  const row = Array.from({ length: count }, (_, index) => {
    const cell = given[index]?.trim() ?? '';
    return cell.includes('-') ? cell : `${cell}-`;
  }).join('|');
  const tokens = lexer.lex([...lines, header, `|${row}|`].join('\n'));
  const table = tokens.at(-1);
  if (table?.type !== 'table' || tokens.length > 2) return;
  tokens[tokens.length - 1] = { ...table, raw: raw.slice(tokens.length > 1 ? tokens[0]!.raw.length : 0) };
  return tokens;
}
