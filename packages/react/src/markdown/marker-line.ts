/**
 * A line that is only the start of a block so far, maybe indented or inside quotes: a bullet or two (`-`, `+`, `--`),
 * a run of `*` and `_` (a bullet, the start of `**bold**`, a rule), a heading's `#`s, or an item's number (up to
 * three digits, maybe with its `.` or `)`). Two properties keep it cheap and safe:
 * - a line that is none of these never becomes one as more of it arrives (`1999` then `1999.`), so the text left
 *   once it is removed only grows, as the incremental lexing needs;
 * - no part of a line can be read two ways (white space is read in one place only), so a line of 50,000 spaces
 *   costs one pass, not one per space.
 */
const MARKER_LINE = /^[\s>]*(?:(?:[-+]{1,2}|[*_](?:[ \t]*[*_])*|#+|\d{1,3}[.)]?)\s*)?$/;

/**
 * `text` without its last line when that line is only a block's marker so far: read as written while an answer
 * streams, `Pros:\n-` is a heading (setext), `- a\n  -` makes the item a heading, `1. a\n2` shows "a 2", `##` is an
 * empty heading, `--` a paragraph and `* **` a rule, each for a moment. Left out, the line shows once its text comes.
 */
export function withoutMarkerLine(text: string): string {
  const line = text.lastIndexOf('\n') + 1;
  return MARKER_LINE.test(text.slice(line)) ? text.slice(0, line) : text;
}
