import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One `@example` block of a JSDoc comment in a package's source: what an editor shows on hover. */
export interface JSDocExample {
  /** Where its first line is, e.g. `packages/core/src/sse/read-sse.ts:27`. */
  readonly where: string;
  /** The example's code, without the comment's leading `*`. */
  readonly code: string;
}

const SOURCE = /\.tsx?$/;
// Tests, test helpers and stories are not what a user's editor shows for the published packages.
const NOT_PUBLISHED = /\.test(-d)?\.tsx?$|\.test-helper\.tsx?$|\.stories\.tsx?$/;
const COMMENT = /\/\*\*([\s\S]*?)\*\//g;
const TAG = /^@\w+/;

function sourcesIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourcesIn(path);
      return SOURCE.test(entry.name) && !NOT_PUBLISHED.test(entry.name) ? [path] : [];
    });
}

/** Every `@example` of every package's published source (`packages/<name>/src`), in file order. */
export function jsdocExamples(root: string): JSDocExample[] {
  const packages = readdirSync(join(root, 'packages')).sort();
  return packages.flatMap((name) =>
    sourcesIn(join(root, 'packages', name, 'src')).flatMap((file) =>
      examplesIn(relative(root, file), readFileSync(file, 'utf8')),
    ),
  );
}

/** The `@example` blocks of one source text, `file` naming it in `where`. */
export function examplesIn(file: string, source: string): JSDocExample[] {
  const examples: JSDocExample[] = [];
  for (const match of source.matchAll(COMMENT)) {
    const firstLine = source.slice(0, match.index).split('\n').length;
    const lines = (match[1] ?? '').split('\n').map((line) => line.replace(/^\s*\* ?/, ''));
    for (let index = 0; index < lines.length; index++) {
      if (!lines[index]!.startsWith('@example')) continue;
      // An example runs to the next tag or the end of the comment; text on the tag's own line is its caption.
      let end = index + 1;
      while (end < lines.length && !TAG.test(lines[end]!)) end++;
      const code = lines
        .slice(index + 1, end)
        .join('\n')
        .trimEnd();
      if (code.trim() !== '') examples.push({ where: `${file}:${firstLine + index + 1}`, code });
      index = end - 1;
    }
  }
  return examples;
}

/*
 * Examples are fragments: the lines a reader adds around them (their `run`, their `invoiceSchema`, the JSX a
 * component returns) are not written. So an example is checked inside an async function (a `return` or an `await`
 * is at home there) unless it exports, and a name it uses but never declares is left to the reader: the check drops
 * "cannot find name" and what follows from it. Everything an example does with the kit's own exports is checked.
 */

/**
 * Several elements one after another at the start of lines are what a component renders, not one expression: each
 * is made its own statement, so `<A />` then `<B />` is not read as `<A /> < B />`.
 */
const separateElements = (code: string) => code.replace(/^<(?=[A-Za-z])/gm, ';<');

/**
 * Names an example takes as its reader's own that the DOM also declares as globals (`window.event`, `name`,
 * `status`...): without this the example's `event` would be checked as the DOM's `Event | undefined`. Each becomes
 * a parameter of the function around the example, untyped as a name the example never declares; the example's own
 * declarations shadow them from the block inside.
 */
const DOM_GLOBALS = ['event', 'name', 'status', 'origin', 'length', 'open', 'close', 'stop', 'parent', 'self', 'top'];

/**
 * The module an example is checked as: an import of each name it uses from the module that exports it (the first
 * in `modules`' order), then the example, in an async function unless it has exports of its own.
 */
export function exampleModule(example: JSDocExample, modules: ReadonlyMap<string, readonly string[]>): string {
  const used = new Set(example.code.match(/[A-Za-z_$][\w$]*/g));
  const taken = new Set<string>();
  const imports: string[] = [];
  for (const [specifier, names] of modules) {
    const wanted = names.filter((name) => used.has(name) && !taken.has(name));
    for (const name of wanted) taken.add(name);
    if (wanted.length > 0) imports.push(`import { ${wanted.join(', ')} } from '${specifier}';`);
  }
  const code = separateElements(example.code);
  const parameters = DOM_GLOBALS.map((name) => `${name}: any`).join(', ');
  const body = /^export /m.test(code) ? code : `export async function example(${parameters}) {\n{\n${code}\n}\n}`;
  return `${imports.join('\n')}\n${body}\n`;
}
