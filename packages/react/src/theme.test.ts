import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const theme = readFileSync(new URL('./theme.css', import.meta.url), 'utf8');
const docs = readFileSync(new URL('../../../docs/components.md', import.meta.url), 'utf8');
const declarations = theme.replace(/\/\*[\s\S]*?\*\//g, '');
const tokens = [...new Set(declarations.match(/--kestrel-[a-z0-9-]+(?=\s*:)/g) ?? [])];

describe('theme.css', () => {
  it('uses logical properties only, so a view under dir="rtl" mirrors as a whole', () => {
    // Media features (max-width) are about the viewport, not the layout direction.
    const physical = declarations
      .replace(/@media[^{]*/g, '')
      .match(
        /(?<![-\w])(?:(?:margin|padding|border)-(?:left|right)(?:-[a-z]+)?|left|right|(?:min-|max-)?(?:width|height))\s*:|text-align:\s*(?:left|right)|border-(?:top|bottom)-(?:left|right)-radius/g,
      );
    expect(physical ?? []).toEqual([]);
  });

  it('stops its animations and transitions for people who ask for reduced motion', () => {
    expect(declarations).toMatch(
      /@media \(prefers-reduced-motion: reduce\)\s*{[^}]*\[data-kestrel-run\][^{]*{\s*animation: none !important;\s*transition: none !important;/,
    );
  });

  it("defines every colour token for light, for the dark OS preference and for the app's dark switch", () => {
    const block = (selector: string) => declarations.slice(declarations.indexOf(selector)).split('}')[0] ?? '';
    const colours = tokens.filter((token) =>
      /^#|rgb/.test(block("[data-kestrel-theme='light']\n) {").match(new RegExp(`${token}:\\s*([^;]+)`))?.[1] ?? ''),
    );
    expect(colours.length).toBeGreaterThan(15);
    for (const dark of [
      ":where(:root:not([data-kestrel-theme='light'], .light, [data-theme='light'])) {",
      "[data-kestrel-theme='dark']\n) {",
    ]) {
      expect(declarations).toContain(dark);
      expect(colours.filter((token) => !block(dark).includes(`${token}:`))).toEqual([]);
    }
  });

  it('documents every token in docs/components.md', () => {
    expect(tokens.filter((token) => !docs.includes(`\`${token}\``))).toEqual([]);
  });
});
