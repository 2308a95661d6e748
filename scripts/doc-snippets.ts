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
}

const FENCE = /^```(\w*)\n([\s\S]*?)^```$/gm;
const MARKER = /<!-- typecheck: ((?:node-only|dom)\/[\w./-]+\.tsx?) -->\n$/;

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
  return files.flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return [...text.matchAll(FENCE)].map((match) => {
      const before = text.slice(0, match.index);
      return {
        where: `${file}:${before.split('\n').length}`,
        lang: match[1] ?? '',
        code: match[2] ?? '',
        target: MARKER.exec(before)?.[1] ?? null,
      };
    });
  });
}

/** Whether a snippet calls a React hook (`useRun(`, `useKestrelClient(`...), so it only runs in a client component. */
export const callsHook = (code: string) => /\buse[A-Z]\w*\(/.test(code);
