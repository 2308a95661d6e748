import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callsHook, docSnippets } from './doc-snippets.js';

const root = resolve(import.meta.dirname, '..');

describe('README and docs snippets', () => {
  it("start with 'use client' whenever they call a hook, so they build when pasted into a Next.js App Router app", () => {
    const missing = docSnippets(root)
      .filter(
        (snippet) =>
          ['ts', 'tsx', 'js', 'jsx'].includes(snippet.lang) &&
          callsHook(snippet.code) &&
          !snippet.code.startsWith("'use client';"),
      )
      .map((snippet) => snippet.where);
    expect(missing).toEqual([]);
  });

  it('are found with their type-check target', () => {
    const targets = docSnippets(root).flatMap((snippet) => (snippet.target === null ? [] : [snippet.target]));
    expect(targets).toContain('dom/readme-drop-in.tsx');
    expect(new Set(targets).size).toBe(targets.length);
  });
});
