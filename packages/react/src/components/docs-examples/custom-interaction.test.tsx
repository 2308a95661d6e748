import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Vitest runs from the repository root; jsdom's import.meta.url is not a file URL.
const source = readFileSync(resolve('packages/react/src/components/docs-examples/custom-interaction.tsx'), 'utf8');

function region(name: string): string {
  const match = new RegExp(`// #region ${name}\\n([\\s\\S]*?)// #endregion ${name}`).exec(source);
  if (match?.[1] === undefined) throw new Error(`no region ${name} in custom-interaction.tsx`);
  return match[1].trim();
}

// What the examples do is tested in interaction-prompt-custom.test.tsx and use-interaction.test.tsx.
describe('the custom question UIs in the docs', () => {
  it('shows the custom approval in docs/components.md exactly as the type-checked example', () => {
    expect(readFileSync(resolve('docs/components.md'), 'utf8')).toContain(region('custom-approval'));
  });

  it('shows the hook-only approval bar in docs/react.md exactly as the type-checked example', () => {
    expect(readFileSync(resolve('docs/react.md'), 'utf8')).toContain(region('hook-only'));
  });
});
