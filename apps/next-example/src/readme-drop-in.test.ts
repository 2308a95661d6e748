import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** The first tsx block under README's "Drop it in" heading. */
function dropInSnippet(readme: string): string {
  const section = readme.slice(readme.indexOf('## Drop it in'));
  const block = /```tsx\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('README.md has no tsx block under "## Drop it in"');
  return block[1]!;
}

/** The code without a leading `'use client'` line, which README may or may not carry. */
const withoutDirective = (code: string) => code.replace(/^'use client';[^\n]*\n/, '');

describe("README's drop-in snippet in the Next.js example", () => {
  it('is pasted as is into app/drop-in/assistant.tsx, which next build compiles and the e2e test plays', () => {
    const page = read('./app/drop-in/assistant.tsx');
    expect(page.startsWith("'use client';")).toBe(true);
    expect(withoutDirective(page)).toBe(withoutDirective(dropInSnippet(read('../../../README.md'))));
  });
});
