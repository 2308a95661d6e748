import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The React runtime: left out of every figure but the last ("excluding React"). */
export const REACT_EXTERNALS = ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'];

// The bench app's own node_modules: every package measured is one of its direct dependencies.
const manifestOf = (name: string) => new URL(`../../node_modules/${name}/package.json`, import.meta.url);

/**
 * The peer dependencies of the packages an app imports, as size-limit counts a library: size-limit leaves out
 * the `peerDependencies` of the package it checks (they are the app's, installed once for everything that uses
 * them). For the kit that is React and zod; for `useChat` React and zod too (`ai` declares zod as a peer).
 * The figure with the peers bundled (React still out) is measured and held to a ceiling as well.
 */
export function peerExternals(packages: readonly string[]): string[] {
  const names = new Set<string>();
  for (const name of packages) {
    const manifest = JSON.parse(readFileSync(manifestOf(name), 'utf8')) as {
      peerDependencies?: Record<string, string>;
    };
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) names.add(peer);
  }
  return [...names].sort().flatMap((name) => [name, `${name}/*`]);
}

export interface SizeEntry {
  readonly id: 'useRun' | 'RunView' | 'markdown' | 'RunViewMarkdown' | 'RunInspector' | 'useChat';
  readonly label: string;
  readonly file: string;
  /** The packages whose peer dependencies the app provides (left out of the budgeted figure). */
  readonly packages: readonly string[];
  /** Budget in gzip bytes, peer dependencies excluded (issue 8); `null` for figures reported for comparison only. */
  readonly budgetGzip: number | null;
  /**
   * Ceiling in gzip bytes with the peer dependencies bundled (React still out): what an app that has no zod yet
   * downloads. Catches what the budgeted figure cannot see, such as a classic `import { z } from 'zod'` in the kit.
   */
  readonly ceilingWithPeersGzip: number | null;
}

export const KB = 1000;

export const SIZE_ENTRIES: readonly SizeEntry[] = [
  // Ceiling 22.5 kB (was 20; 19 before issue 13): issue 17's hand validators for every motion event and the one-literal
  // reducer step (speed: the mixed stream went from 0.10 to 0.5 of the floor, 0.8 kB gz), its motion schedule (fewer
  // commits than useChat, 0.45 kB) and issue 19's transport tap that recordings and the inspector read (0.6 kB) add
  // 2.0 kB with zod. The session listing was moved off the client (listSessionRuns) so apps without sessions do not
  // ship it. The budget (peers out, 15 kB) is unchanged and met.
  {
    id: 'useRun',
    label: 'useRun alone',
    file: 'apps/use-run-app.tsx',
    packages: ['@kestrel/core', '@kestrel/react'],
    budgetGzip: 15 * KB,
    ceilingWithPeersGzip: 22.5 * KB,
  },
  {
    id: 'RunView',
    label: '<RunView> with all parts',
    file: 'apps/run-view-app.tsx',
    packages: ['@kestrel/core', '@kestrel/react'],
    budgetGzip: 30 * KB,
    // Ceiling 35 kB (was 34, 31, and 30 before issue 15): the core's 2.0 kB above, plus issue 17's memoised parts
    // and plain text in chunks (0.6 kB), issue 18's session labels in the default English labels (0.4 kB), then
    // Run.Text's settled-answer announcement, which keeps the text's elements at settling (0.7 kB; the lag to the
    // settled paint went from 100-139 ms to about 20), and readSSE's reader loop (0.2 kB). Locales are separate
    // entries and not counted. The budget (peers out, 30 kB) is unchanged and met (26.9 kB). Then the kit's own
    // copy of Radix's Slot (components/slot.tsx) gave back 0.7 kB (27,718 → 27,024; 34,976 → 34,234 with zod), and
    // focus kept in the view when Stop, Try again or the answered question goes away (and lazy server-component
    // children in Slot) took 0.3 kB of it. 35.5 kB (2026-12-03): the accessibility fixes of the first-time user's
    // walk (see RunViewMarkdown below), 0.2 kB: 27.9 kB, 35.13 with zod. The budget (30 kB) did not move.
    ceilingWithPeersGzip: 35.5 * KB,
  },
  // Issue 17: the markdown entry is marked's lexer plus the kit's own token renderer (react-markdown and the
  // unified/micromark stack are gone: the whole <RunView> with markdown was 55.5 kB). marked ships as one module
  // that builds its default instance at load, so a bundler keeps its parser and HTML renderer too; the entry now
  // imports marked's lexer alone (src/markdown/vendor, built from the installed marked by
  // scripts/vendor-marked-lexer.ts): 14.6 kB instead of 17.9, so both budgets below came down by 3 kB. 15.6 kB
  // (2026-12-04): a code block renders its code as the plain-text pieces the draft uses (PlainText, 0.25 kB here,
  // nothing in <RunView> with markdown, which already has them), where it was one text node replaced and laid out
  // whole at every update (a 200 KB answer that is one code block cost 4.05 times as much per frame at its end as
  // at its start, 0.7 to 1.04 times since), and its <pre> is watched so it is a tab stop while it scrolls sideways
  // (67 B, with the check that the CSS lets it scroll). 15,590 B. 16.3 kB (2026-12-04, evening): a table or list
  // that streams is lexed from its last row or its last two items on, and its rows and items are memoised
  // (open-block.ts, 0.6 kB), where the whole block was lexed and rendered again at every update (a 2,000-row table:
  // 28.8 ms of script a frame at the end of the stream, 3.4 since), with the checks a review asked for (text before
  // the block that marked may read otherwise, found by two reviews), and only top-level rows and items are memoised,
  // so the nesting cap still counts nested ones. 16,213 B. 17.1 kB (2026-12-04, night): inline text over 1,024
  // characters is lexed in pieces (inline-pieces.ts, 0.5 kB: where to cut, so hard breaks, escapes, words, markup
  // and sentences stay whole), where marked's inline rules took time quadratic in the length of some text (`a_` or
  // `x_*a ` over and over, a long word before `@`: 32,000 characters in 0.5 to 14 s, lexed again at every update
  // while it streams), and a stream's next lex reuses the pieces (0.3 kB; 64,000 characters of `a_` in 160
  // updates: 106.6 s of lexing before, 4.3 s in pieces, 0.18 s reused); what is lexed is a copy of the tail, so a
  // settled block keeps no copy of the whole answer (a review measured 90 bytes kept per character, 30 since).
  // 17,058 B; 17,099 B with pieces holding a `[` reused too, when the definitions are the same. 17.4 kB
  // (2026-12-04, late night): `renderCodeBlock` is told whether a block is `complete` (its closing fence came, on a
  // finished line, or the part of the answer it is in settled, or the answer is final), so a highlighter or a
  // diagram can wait for it instead of running on every update of a growing block (0.27 kB: the fence check, which
  // blocks are not settled yet handed down by context, the block a fence on an unfinished last line is in; and
  // groups of fixed extent, so a block never moves to another group and remounts, a review's find): 17,366 B.
  // 17,379 B (2026-12-05): a long paragraph's pieces rendered memoised, and watchScrollBox exported. 18.7 kB
  // (2026-12-05, later): markup a streaming answer's end leaves open is shown closed, and a web address it ends in
  // shows as text until it is whole (heal-open-markup.ts, 1.29 kB), where `**bold` showed its markers until the
  // closer came, a flicker on every bold phrase, code span and link that streamdown (remend, 5.9 kB gzip on its own)
  // does not have, and a link pointed at half an address while it streamed: 18,671 B. 19.2 kB (2026-12-05, night):
  // a table a streaming answer is starting is shown as one from its header row on (table-start.ts, 0.46 kB), where
  // its header row was a paragraph of pipes until the delimiter row came, then jumped into a table, on every table
  // (streamdown 2.7.1 shows the pipes too): 19,135 B. Then a last line that is only a block's marker so far (`-`,
  // `2`, `##`) left out until its text comes (markdown-text.tsx, 61 B), where `Pros:\n-` flashed as a heading and a
  // nested list's first `-` turned its parent item into one: 19,196 B. 19.3 kB: from a review of it, `* **` and
  // `***` left out too (they flashed a rule), a line that is not a marker never becoming one as it grows (the lexed
  // text must only grow), linear on a line of 50,000 spaces, and `renderMarkdown` reading the new `streaming` of
  // `RenderText` (a draft that stopped short is shown as written, its last line too): 19,216 B.
  {
    id: 'markdown',
    label: '@kestrel/react/markdown alone',
    file: 'apps/markdown-app.tsx',
    packages: ['@kestrel/react'],
    budgetGzip: 19.3 * KB,
    ceilingWithPeersGzip: 19.3 * KB,
  },
  {
    id: 'RunViewMarkdown',
    label: '<RunView> with renderMarkdown',
    file: 'apps/run-view-markdown-app.tsx',
    packages: ['@kestrel/core', '@kestrel/react'],
    // 41.3 kB (48.7 with zod) with marked's lexer alone; 44.7 (52.0) with the whole of marked, 55.5 with
    // react-markdown. Budget and ceiling were 45 and 52 kB. 42.5 and 49.5: then the WAITING question's
    // renderInteraction slot and useInteraction (0.3 kB), Run.Copy (0.2 kB) and marked's licence notice, which now
    // ships in the bundle (0.1 kB), came to 42.0 kB (49.3 with zod). Ceiling 50 kB (still under the 52 it was
    // before marked's lexer alone): a WAITING answer refused because another tab answered re-reads the run, and
    // markdown tables are tab stops only while they scroll (49.5 kB with zod, 6 bytes over 49.5). 43 and 50.5 kB
    // (2026-12-03): a first-time user's accessibility walk found a FAILED run announced without its reason and an
    // invalid payload not announced (Run.Status now says both, 0.12 kB), the WAITING question not taking focus from
    // a checkbox or select nor keeping it in a web component's text field (0.1 kB), and focus falling to the page
    // after Reconnect (0.05 kB): 42.67 kB, 49.96 kB with zod. 43.2 kB (2026-12-04): text marked's lexer throws on
    // (its own TypeError, or `>` thousands deep) is lexed again in runs around the failing part (0.13 kB), where the
    // whole rest of the answer fell back to one unformatted text node, lexed again at every update; a reviewer
    // found that the cheaper part-at-a-time fallback cut code blocks with a blank line inside and was quadratic in
    // link definitions (then, from a second review, 28 B: no definitions copied per lexer, and no failing text
    // lexed twice). 43,145 B, 50.44 kB with zod; the ceiling did not move. Code blocks in pieces (see the markdown
    // entry above) cost it little it did not already carry: 43,148 B. 43.8 and 51.1 kB (2026-12-04, evening): tables
    // and lists that stream are lexed from their end on, with memoised rows and items (see the markdown entry):
    // 43,780 B, 51,082 B with zod. 44.7 and 52.0 kB (2026-12-04, night): inline text lexed in pieces, reused
    // while it streams, and the tail lexed from a copy (see the markdown entry): 44,660 B, 51,944 B with zod. 44.9
    // and 52.2 kB (2026-12-04, late night): code blocks told whether they are `complete` (see the markdown
    // entry): 44,927 B, 52,229 B with zod, so 45.0 and 52.3 kB. 46.3 and 53.6 kB (2026-12-05, later): open markup
    // shown closed while the answer streams (see the markdown entry): 46,193 B, 53,539 B with zod. 46.7 and 54.1 kB
    // (2026-12-05, night): a table shown from its header row on (see the markdown entry): 46,673 B, 54,002 with zod.
    // 46.8 kB: a marker alone on the last line left out (see the markdown entry): 46,739 B, 54,069 B with zod. 54.2
    // kB with zod: the review's fixes of it (see the markdown entry): 46,776 B, 54,099 B with zod.
    budgetGzip: 46.8 * KB,
    ceilingWithPeersGzip: 54.2 * KB,
  },
  // The inspector is a debugging tool an app adds on purpose, so it has a budget of its own instead of counting
  // against <RunView>'s: useRun, the inspector and its virtualised list (@tanstack/react-virtual, about 4 kB gz of
  // the 9 kB the inspector adds to useRun). Measured 22.0 kB, 29.3 kB with zod, after issue 19's recording client.
  // Budget 24.5 kB (was 24, set with issue 19, after issue 17's budgets): useRun's share grew with issue 17's fast
  // paths to 23,997 bytes, then a WAITING answer refused because another tab answered re-reads the run (32 bytes).
  {
    id: 'RunInspector',
    label: 'useRun + <RunInspector> (inspector entry)',
    file: 'apps/run-inspector-app.tsx',
    packages: ['@kestrel/core', '@kestrel/react'],
    budgetGzip: 24.5 * KB,
    // 30.9 kB with zod once useRun's own ceiling moved (above).
    ceilingWithPeersGzip: 32 * KB,
  },
  {
    id: 'useChat',
    label: 'useChat from @ai-sdk/react (for comparison)',
    file: 'apps/use-chat-app.tsx',
    packages: ['ai', '@ai-sdk/react'],
    budgetGzip: null,
    ceilingWithPeersGzip: null,
  },
];

export interface SizeFigure {
  readonly id: SizeEntry['id'];
  readonly label: string;
  /** What the budgeted bundle leaves out: the peer dependencies, React among them. */
  readonly externals: readonly string[];
  /** Minified bytes, peer dependencies excluded: the budgeted bundle. */
  readonly minBytes: number;
  /** Gzip bytes, peer dependencies excluded: the budgeted figure. */
  readonly gzipBytes: number;
  /** Gzip bytes with the peer dependencies (zod) bundled, React still excluded. */
  readonly gzipBytesWithPeers: number;
  /** Gzip bytes with React, react-dom and every peer bundled. */
  readonly gzipBytesWithReact: number;
  readonly budgetGzip: number | null;
  readonly ceilingWithPeersGzip: number | null;
  /** Both the budget and the ceiling are met; `null` for figures reported only. */
  readonly pass: boolean | null;
  /** The largest inputs of the bundle with peers, by minified bytes. */
  readonly largestInputs: readonly { readonly path: string; readonly bytes: number }[];
}

async function bundle(file: string, external: readonly string[]) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(file, import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: [...external],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = result.outputFiles[0]!.contents;
  const output = Object.values(result.metafile.outputs)[0]!;
  const largestInputs = Object.entries(output.inputs)
    .map(([path, info]) => ({
      path: path.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, ''),
      bytes: info.bytesInOutput,
    }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8);
  return { minBytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length, largestInputs };
}

/** Bundles each minimal app with esbuild (minified, production), gzips it with zlib level 9. */
export async function measureSizes(): Promise<SizeFigure[]> {
  const figures: SizeFigure[] = [];
  for (const entry of SIZE_ENTRIES) {
    const externals = [...new Set([...REACT_EXTERNALS, ...peerExternals(entry.packages)])];
    const budgeted = await bundle(entry.file, externals);
    const withPeers = await bundle(entry.file, REACT_EXTERNALS);
    const withReact = await bundle(entry.file, []);
    const withinBudget = entry.budgetGzip === null || budgeted.gzipBytes <= entry.budgetGzip;
    const withinCeiling = entry.ceilingWithPeersGzip === null || withPeers.gzipBytes <= entry.ceilingWithPeersGzip;
    figures.push({
      id: entry.id,
      label: entry.label,
      externals,
      minBytes: budgeted.minBytes,
      gzipBytes: budgeted.gzipBytes,
      gzipBytesWithPeers: withPeers.gzipBytes,
      gzipBytesWithReact: withReact.gzipBytes,
      budgetGzip: entry.budgetGzip,
      ceilingWithPeersGzip: entry.ceilingWithPeersGzip,
      pass: entry.budgetGzip === null && entry.ceilingWithPeersGzip === null ? null : withinBudget && withinCeiling,
      largestInputs: withPeers.largestInputs,
    });
  }
  return figures;
}

export const kB = (bytes: number) => `${(bytes / KB).toFixed(1)} kB`;
