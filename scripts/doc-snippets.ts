import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A fenced code block of a README or docs/*.md. */
export interface DocSnippet {
  /** Where it is, e.g. `docs/react.md:54`. */
  readonly where: string;
  readonly lang: string;
  readonly code: string;
  /**
   * The fixture file it is type-checked as, from a `<!-- typecheck: node-only/<file> -->` or
   * `<!-- typecheck: dom/<file> -->` comment on the line before the fence (see check-packed-packages.ts); else null.
   */
  readonly target: string | null;
  /**
   * For a fragment: the lines of that comment after the file name, the code a reader is assumed to have around the
   * snippet (its imports, a `declare const run: RunBinding`). The snippet goes where a line holds only `$SNIPPET`, or
   * after the context when none does (see {@link fixtureSource}). Null for a whole file.
   */
  readonly context: string | null;
}

// An info string after the language (```tsx title="x") belongs to the opening fence: the snippet is still found.
const FENCE = /^```(\w*)[^\n]*\n([\s\S]*?)^```$/gm;
// The comment right before the fence; a multi-line one carries the fragment's context (no `-->` inside it).
const MARKER = /<!-- typecheck: ((?:node-only|dom)\/[\w./-]+\.tsx?)(?: -->|\n((?:(?!-->)[\s\S])*)-->)\n$/;
const SLOT = /^[ \t]*\$SNIPPET[ \t]*$/m;

const markdownIn = (root: string, dir: string) =>
  readdirSync(join(root, dir))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `${dir}/${name}`);

/** Every fenced snippet of the README, docs/*.md and each package's README (what npm shows), in order. */
export function docSnippets(root: string): DocSnippet[] {
  const packageReadmes = readdirSync(join(root, 'packages'))
    .sort()
    .map((dir) => `packages/${dir}/README.md`)
    .filter((file) => existsSync(join(root, file)));
  const files = ['README.md', ...markdownIn(root, 'docs'), ...packageReadmes];
  return files.flatMap((file) => snippetsIn(file, readFileSync(join(root, file), 'utf8')));
}

/** The fenced snippets of one Markdown text, `file` naming it in `where`. */
export function snippetsIn(file: string, source: string): DocSnippet[] {
  // CRLF line ends (an editor on Windows) would hide every fence from the patterns below.
  const text = source.replaceAll('\r\n', '\n');
  return [...text.matchAll(FENCE)].map((match) => {
    const before = text.slice(0, match.index);
    const marker = MARKER.exec(before);
    return {
      where: `${file}:${before.split('\n').length}`,
      lang: match[1] ?? '',
      code: match[2] ?? '',
      target: marker?.[1] ?? null,
      context: marker?.[2] ?? null,
    };
  });
}

/** The fixture a marked snippet is type-checked as: the snippet itself, or set in its context. */
export function fixtureSource(snippet: DocSnippet): string {
  const { context, code } = snippet;
  if (context === null) return code;
  // A function, so `$` patterns in the snippet (`$&`, template literals) are never read as replacement patterns.
  return SLOT.test(context) ? context.replace(SLOT, () => code) : `${context}${code}`;
}

/** The fence languages that are TypeScript or JavaScript: each such snippet must be type-checked. */
export const CODE_LANGS: ReadonlySet<string> = new Set(['ts', 'tsx', 'js', 'jsx', 'mts', 'typescript', 'javascript']);

/** Whether a snippet calls a React hook (`useRun(`, `useChat<Message>(`...), so it only runs in a client component. */
export const callsHook = (code: string) => /\buse[A-Z]\w*(?:<[^()]*>)?\(/.test(code);
