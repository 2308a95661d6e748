import type { Links, MarkedToken, Token } from 'marked';
import { detached } from './detached.js';
import { isPiece, lexInlineInPieces, type InlinePieces } from './inline-pieces.js';
import { extendOpenBlock } from './open-block.js';
import { getDefaults, Lexer } from './vendor/marked-lexer.js';

/** One top-level block of markdown: usually one token, and its place in the text (which keys it). */
export interface MarkdownBlock {
  /** Offset of the block in the text; stable once the block is settled. */
  readonly start: number;
  readonly raw: string;
  /** marked's tokens for the block, inline tokens included. */
  readonly tokens: readonly Token[];
  /** It holds a reference link, resolved or not, so a definition arriving later can change it. */
  readonly usesReferences: boolean;
}

/** Markdown split into blocks; the first `settled` never change as more text is appended. */
export interface MarkdownBlocks {
  readonly text: string;
  readonly blocks: readonly MarkdownBlock[];
  readonly settled: number;
  /** Link reference definitions of the whole text, the first of each label winning (CommonMark). */
  readonly definitions: Readonly<Links>;
  /** The definitions found in the settled blocks: what the tail is lexed with. */
  readonly settledDefinitions: Readonly<Links>;
  /** The pieces of long inline text the last lex read (inline-pieces.ts), for the next to reuse. */
  readonly pieces: InlinePieces;
}

/** Where a lex reads the pieces of long inline text from, and keeps them for the next (inline-pieces.ts). */
type PieceCache = { readonly from?: InlinePieces; readonly into: InlinePieces };

/** marked's tokens for `source`, its definitions added to `links` (even where it fails); null where the lexer throws. */
function tryLex(source: string, links: Links, pieces?: PieceCache): Token[] | null {
  // A fresh options object per lexer, as the Lexer writes its tokenizer onto the options it is given: marked's own
  // defaults (GFM, not pedantic, no breaks), from the vendored copy, which an app's `marked.use()` does not reach.
  const lexer = new Lexer(getDefaults());
  lexInlineInPieces(lexer, pieces);
  // The caller's map, not a copy: text that fails often would copy every definition as often.
  lexer.tokens.links = links;
  try {
    return [...lexer.lex(source)];
  } catch {
    return null;
  }
}

// Without a prototype, as marked makes it: `constructor` or `__proto__` are labels like any other.
const copyLinks = (links?: Readonly<Links>): Links => Object.assign(Object.create(null) as Links, links);

function lex(
  source: string,
  definitions: Readonly<Links>,
  pieces?: PieceCache,
): { tokens: Token[]; links: Readonly<Links> } {
  // A copy: a lexer that failed may have added some, so the text is lexed around with a fresh one.
  let links = copyLinks(definitions);
  const tokens = tryLex(source, links, pieces) ?? lexAround(source, (links = copyLinks(definitions)), pieces);
  return { tokens, links };
}

/*
 * Model output must not take the app down with it. The lexer recurses once per level of nesting, so `>` or `- ` a
 * few thousand times over (a few KB) overflows the stack; and marked 18.2 itself throws on some text (`- a\n  >*\na`:
 * a quote whose list it cannot read). Such text is cut into parts before each blank line (blank lines in a row stay
 * together, so a part ends where a stream's block would settle), and each longest run of parts that lexes is lexed
 * whole, so a code block or a list with blank lines inside stays whole. The run's length doubles while it lexes,
 * then the gap is halved: the search costs O(n log n) however many parts fail, and no text is lexed again once it
 * failed. The part where a run stops is lexed alone, and shown as its text in a paragraph (as a raw HTML block is,
 * tags dropped) if that fails too. The rest of the answer keeps its markdown, and a stream's blocks settle after the
 * part (a blank line opens the next run). Every run is lexed again once all definitions are known, so that a
 * reference resolves to a definition further on, as in a whole lex; a part that fails defines nothing, as in a
 * stream, where it is shown as its text.
 */
function lexAround(source: string, links: Links, pieces?: PieceCache): Token[] {
  const failed = new Set([source]);
  const attempt = (text: string, into: Links) => {
    const tokens = failed.has(text) ? null : tryLex(text, into, pieces);
    if (tokens === null) failed.add(text);
    return tokens;
  };
  const parts = source.split(/(?<!\n[ \t]*)(?=\n[ \t]*\n)/);
  const runs: string[] = [];
  for (let at = 0; at < parts.length;) {
    // parts[at, ok) lex; parts[at, bad) do not, once `bad` is found (it starts past the end). Each try has a map
    // of its own, so a lexer that fails partway leaves no definition behind.
    let ok = at;
    let bad = parts.length + 1;
    while (ok < parts.length && bad - ok > 1) {
      const end = bad > parts.length ? Math.min(2 * ok - at + 1, parts.length) : (ok + bad) >> 1;
      if (attempt(parts.slice(at, end).join(''), copyLinks())) ok = end;
      else bad = end;
    }
    if (ok > at) runs.push(parts.slice(at, ok).join(''));
    if (ok < parts.length) attempt(runs[runs.push(parts[ok]!) - 1]!, copyLinks());
    at = ok + 1;
  }
  // The definitions of every run first, then its tokens: a reference resolves to a definition further on.
  for (const text of runs) attempt(text, links);
  return runs.flatMap((text) => attempt(text, links) ?? [{ type: 'html', block: true, pre: false, raw: text, text }]);
}

function childrenOf(token: Token): readonly Token[] {
  const known = token as MarkedToken;
  switch (known.type) {
    case 'list':
      return known.items;
    case 'table':
      return [...known.header, ...known.rows.flat()].flatMap((cell) => cell.tokens);
    default:
      return ('tokens' in known && known.tokens) || [];
  }
}

/** Whether a token tree holds a reference link (`[a][b]`, `[a][]`, `[a]`) or text a definition could turn into one. */
function usesReferences(tokens: readonly Token[]): boolean {
  return tokens.some((token) => {
    const { type, raw } = token as MarkedToken;
    // Text with a `[`, or a link or image that does not end in its inline `(destination)`. A piece of a long
    // paragraph holds the whole piece's text: its tokens say whether it uses references.
    const reference =
      (type === 'text' && !isPiece(token)) || ((type === 'link' || type === 'image') && !raw.endsWith(')'));
    return (reference && raw.includes('[')) || usesReferences(childrenOf(token));
  });
}

function definitionsIn(tokens: readonly Token[], into: Links): void {
  for (const token of tokens) {
    const known = token as MarkedToken;
    // The first definition of a label wins. Own keys only: `into` has no prototype, so `constructor` or
    // `__proto__` are labels like any other.
    if (known.type === 'def') {
      if (!Object.hasOwn(into, known.tag)) into[known.tag] = { href: known.href, title: known.title };
    } else definitionsIn(childrenOf(token), into);
  }
}

/**
 * The labels defined differently in `a` and `b`: added, removed or with another target. While a definition streams
 * in, its target grows with every update; only the blocks that may use its label need lexing again.
 */
function changedLabels(a: Readonly<Links>, b: Readonly<Links>): string[] {
  const changed: string[] = [];
  for (const label of Object.keys(a)) {
    const other = Object.hasOwn(b, label) ? b[label] : undefined;
    if (other === undefined || other.href !== a[label]!.href || other.title !== a[label]!.title) changed.push(label);
  }
  for (const label of Object.keys(b)) if (!Object.hasOwn(a, label)) changed.push(label);
  return changed;
}

/*
 * Whether a block may use a label, erring towards yes. marked matches labels case-insensitively, with white space
 * collapsed, after stripping a blockquote's `>` and a table cell's `\|` escape. The fold drops white space, `>` and
 * `\` and maps case one character at a time (lower then upper case, so σ, ς and Σ are one), so a label the block
 * uses is always a substring of the folded block.
 */
const foldLabel = (text: string) =>
  text
    .replace(/[\s>\\]+/g, '')
    .toLowerCase()
    .toUpperCase();
const foldedRaw = new WeakMap<MarkdownBlock, string>();

function mayUseAny(block: MarkdownBlock, folded: readonly string[]): boolean {
  let raw = foldedRaw.get(block);
  if (raw === undefined) foldedRaw.set(block, (raw = foldLabel(block.raw)));
  return folded.some((label) => raw.includes(label));
}

// A space token holding a whole blank line. marked also emits one for the trailing spaces of a line (" \n").
const isBlankLine = (block: MarkdownBlock) => block.tokens[0]!.type === 'space' && /\n[ \t]*\n/.test(block.raw);

/**
 * Whether the blocks before `index` are closed. A blank line must come before it, and after a list the next
 * block's first line must be whole: `1` may still become `1.`, another item of the same list.
 */
function settlesBefore(blocks: readonly MarkdownBlock[], index: number, text: string): boolean {
  if (!isBlankLine(blocks[index - 1]!)) return false;
  const beforeBlank = blocks[index - 2]?.tokens[0]?.type;
  return beforeBlank !== 'list' || text.includes('\n', blocks[index]!.start);
}

const emptyDefinitions: Readonly<Links> = Object.freeze({});

/**
 * Splits markdown into blocks with marked's lexer, re-lexing only the tail. When `text` extends `previous.text`
 * (a stream appending), the settled blocks are kept as they are (same objects) and only the text from the last
 * settled boundary on is lexed again; otherwise everything is. The result equals a full lex of `text`.
 *
 * A block settles once a blank line separates it from a later block: before that, appended text can still change
 * it (a paragraph becomes a setext heading or a table, a list gains an item and turns loose, a fence stays open).
 * Reference definitions apply to the whole text, so when they change, settled blocks that use references are
 * lexed again with them.
 */
export function lexMarkdownBlocks(previous: MarkdownBlocks | null, text: string): MarkdownBlocks {
  // `===` rather than `startsWith`, as in chunkText (text-chunks.ts): 10 times faster on a long answer.
  const extendsPrevious = previous !== null && text.slice(0, previous.text.length) === previous.text;
  const kept = extendsPrevious ? previous.blocks.slice(0, previous.settled) : [];
  const settledDefinitions = extendsPrevious ? previous.settledDefinitions : emptyDefinitions;
  const last = kept.at(-1);
  const from = last === undefined ? 0 : last.start + last.raw.length;
  const pieces: PieceCache = { from: previous?.pieces, into: new Map() };

  let tailBlocks = extendsPrevious ? extendOpenTail(previous, text, pieces) : null;
  let definitions = previous?.definitions ?? emptyDefinitions;
  if (tailBlocks === null) {
    // A copy of the tail, so that the blocks that settle from it keep the tail alive, not this update's whole text.
    const tail = lex(detached(text.slice(from)), settledDefinitions, pieces);
    definitions = tail.links;
    tailBlocks = blocksFrom(tail.tokens, from);
    // marked keeps every character in some token's raw; if that ever failed, offsets would drift: lex it all.
    if (from + tailBlocks.reduce((length, block) => length + block.raw.length, 0) !== text.length)
      return from === 0 ? wholeText(text, tail.tokens, definitions, pieces.into) : lexMarkdownBlocks(null, text);
  }

  const changed = extendsPrevious ? changedLabels(previous.definitions, definitions).map(foldLabel) : [];
  const settledBlocks =
    changed.length === 0
      ? kept
      : kept.map((block) => (block.usesReferences && mayUseAny(block, changed) ? relex(block, definitions) : block));

  let lastContent = tailBlocks.length - 1;
  while (lastContent > 0 && tailBlocks[lastContent]!.tokens[0]!.type === 'space') lastContent -= 1;
  let boundary = Math.max(lastContent, 0);
  while (boundary > 0 && !settlesBefore(tailBlocks, boundary, text)) boundary -= 1;

  const nowSettled = tailBlocks.slice(0, boundary);
  let nextSettledDefinitions = settledDefinitions;
  if (
    nowSettled.some((block) =>
      block.tokens.some((token) => token.type === 'def' || token.type === 'blockquote' || token.type === 'list'),
    )
  ) {
    const collected = copyLinks(settledDefinitions);
    definitionsIn(
      nowSettled.flatMap((block) => block.tokens),
      collected,
    );
    nextSettledDefinitions = collected;
  }
  return {
    text,
    blocks: [...settledBlocks, ...tailBlocks],
    settled: settledBlocks.length + boundary,
    definitions,
    settledDefinitions: nextSettledDefinitions,
    pieces: pieces.into,
  };
}

function blocksFrom(tokens: readonly Token[], start: number): MarkdownBlock[] {
  let offset = start;
  return tokens.map((token): MarkdownBlock => {
    const block = { start: offset, raw: token.raw as string, tokens: [token], usesReferences: usesReferences([token]) };
    offset += block.raw.length;
    return block;
  });
}

/*
 * A long table or list streams with no blank line until it ends (a loose list has them, but it goes on after them):
 * its block stays open, and lexing it whole at every update would cost its length each time (18 ms for 2,000 rows
 * or items). Only its end is lexed again (open-block.ts says why that gives the block a whole lex would); anything
 * else after it takes the usual path. The tail's blocks, or null.
 */
function extendOpenTail(
  { blocks, settled, definitions }: MarkdownBlocks,
  text: string,
  pieces: PieceCache,
): MarkdownBlock[] | null {
  let open = blocks.length - 1;
  while (open > settled && blocks[open]!.tokens[0]!.type === 'space') open -= 1;
  const block = blocks[open];
  if (open < settled || block!.tokens.length > 1) return null;
  // With the definitions of the whole tail, as a lex of it would see them: what is lexed again defines none.
  const grown = extendOpenBlock(
    block!.tokens[0]!,
    text,
    { tail: blocks[settled]!.start, start: block!.start },
    (source) => tryLex(source, copyLinks(definitions), pieces),
  );
  if (grown === null) return null;
  const tail = [
    ...blocks.slice(settled, open),
    // Erring towards yes: a block that says yes is only lexed again when a definition changes, and an open one is
    // lexed again at every update anyway.
    { start: block!.start, raw: grown.token.raw as string, tokens: [grown.token], usesReferences: true },
    ...blocksFrom(grown.after, block!.start + (grown.token.raw as string).length),
  ];
  const end = tail.at(-1)!;
  return end.start + end.raw.length === text.length ? tail : null;
}

function relex(block: MarkdownBlock, definitions: Readonly<Links>): MarkdownBlock {
  return { ...block, tokens: lex(block.raw, definitions).tokens };
}

function wholeText(text: string, tokens: readonly Token[], definitions: Links, pieces: InlinePieces): MarkdownBlocks {
  // One block for the whole text, never settled: correct, just not incremental.
  return {
    text,
    blocks: [{ start: 0, raw: text, tokens, usesReferences: true }],
    settled: 0,
    definitions,
    settledDefinitions: emptyDefinitions,
    pieces,
  };
}
