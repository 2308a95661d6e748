import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_LANGS, callsHook, docSnippets, fixtureSource, snippetsIn, type DocSnippet } from './doc-snippets.js';

const root = resolve(import.meta.dirname, '..');

describe('README and docs snippets', () => {
  it("start with 'use client' whenever they call a hook, so they build when pasted into a Next.js App Router app", () => {
    const missing = docSnippets(root)
      .filter(
        (snippet) =>
          CODE_LANGS.has(snippet.lang) && callsHook(snippet.code) && !snippet.code.startsWith("'use client';"),
      )
      .map((snippet) => snippet.where);
    expect(missing).toEqual([]);
  });

  it('see a hook call with type arguments as a hook call', () => {
    expect(callsHook('const chat = useChat<KestrelUIMessage>({ transport });')).toBe(true);
    expect(callsHook('const run = useRun();')).toBe(true);
    expect(callsHook('const reused = createRunClient({ baseUrl });')).toBe(false);
  });

  it('are every one type-checked: each TypeScript or JavaScript snippet is marked with its fixture', () => {
    const unmarked = docSnippets(root)
      .filter((snippet) => CODE_LANGS.has(snippet.lang) && snippet.target === null)
      .map((snippet) => snippet.where);
    expect(unmarked).toEqual([]);
  });

  it('are found with their type-check target', () => {
    const targets = docSnippets(root).flatMap((snippet) => (snippet.target === null ? [] : [snippet.target]));
    expect(targets).toContain('dom/readme-drop-in.tsx');
    expect(new Set(targets).size).toBe(targets.length);
    // Written into the packed project: no fixture may land outside its folder.
    expect(targets.filter((target) => target.split('/').includes('..'))).toEqual([]);
  });

  describe('a fragment is checked inside the context its marker carries', () => {
    const snippet = (context: string | null, code: string): DocSnippet => ({
      where: 'docs/x.md:1',
      lang: 'tsx',
      code,
      target: 'dom/x.tsx',
      context,
    });

    it('in place of the $SNIPPET line, with `$` in the snippet kept as written', () => {
      const context = 'declare const run: RunBinding;\nexport const view = (\n  <>\n    $SNIPPET\n  </>\n);\n';
      expect(fixtureSource(snippet(context, '<Run.Root run={run}>{`$&`}</Run.Root>\n'))).toBe(
        'declare const run: RunBinding;\nexport const view = (\n  <>\n<Run.Root run={run}>{`$&`}</Run.Root>\n\n  </>\n);\n',
      );
    });

    it('after it when it has no $SNIPPET line; a whole file is checked as it is', () => {
      expect(fixtureSource(snippet("import { z } from 'zod';\n", 'z.string();\n'))).toBe(
        "import { z } from 'zod';\nz.string();\n",
      );
      expect(fixtureSource(snippet(null, 'z.string();\n'))).toBe('z.string();\n');
    });

    it('read from the comment right before the fence, never from an earlier one', () => {
      const markdown = [
        '<!-- typecheck: dom/a.tsx',
        "import { z } from 'zod';",
        '-->',
        '```tsx',
        'z.string();',
        '```',
        '',
        '<!-- a note, not a marker -->',
        '```tsx',
        'z.number();',
        '```',
        '<!-- typecheck: node-only/c.ts -->',
        '```ts',
        'export {};',
        '```',
        '',
      ].join('\n');
      const read = (text: string) =>
        snippetsIn('x.md', text).map(({ where, target, context }) => ({ where, target, context }));
      // Also with CRLF line ends, and an info string after the language.
      expect(read(markdown.replaceAll('\n', '\r\n'))).toEqual(read(markdown));
      expect(read(markdown.replace('```tsx\nz.string();', '```tsx title="a.tsx"\nz.string();'))).toEqual(
        read(markdown),
      );
      expect(read(markdown)).toEqual([
        { where: 'x.md:4', target: 'dom/a.tsx', context: "import { z } from 'zod';\n" },
        { where: 'x.md:9', target: null, context: null },
        { where: 'x.md:13', target: 'node-only/c.ts', context: null },
      ]);
    });
  });
});
