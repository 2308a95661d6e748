import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { Lexer as MarkedLexer, getDefaults as markedDefaults } from 'marked';
import { describe, expect, it } from 'vitest';
import { createMarkdownAnswer } from '@kestrel/testing';
import { generateMarkedLexer, VENDORED_LEXER } from '../../../../../scripts/vendor-marked-lexer.js';
import { getDefaults, Lexer } from './marked-lexer.js';

describe("the vendored lexer (marked's lexer alone)", () => {
  it('is what the installed marked gives: after upgrading marked, `pnpm run vendor:marked` writes it again', async () => {
    expect(readFileSync(VENDORED_LEXER, 'utf8')).toBe(await generateMarkedLexer());
  });

  it("keeps marked's licence notice in a minified bundle, now that marked itself is not installed with the package", async () => {
    const result = await build({
      entryPoints: [VENDORED_LEXER],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
    });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('Copyright (c) 2011-2018, Christopher Jeffrey');
    expect(code).toContain('@license MIT');
  });

  it("lexes exactly as marked's own Lexer, reference links, tables, loose lists and raw HTML included", () => {
    const samples = [
      createMarkdownAnswer({ length: 20_000 }),
      '[a][ref] and [b]\n\n[ref]: https://example.com "t"\n[b]: <javascript:alert(1)>\n\n- one\n\n- two\n  continued',
      '| a | b |\n| :-- | --: |\n| `x|y` | **z** |\n\n<div onclick="x">html</div>\n\n```ts\nconst a = 1;\n```\n~~~\nopen',
      '> quote\n> - [x] done\n\n1. first\n2) second\n\n***\n\nSetext\n===\n\nline  \nbreak\\\nend &amp; &#x27;',
    ];
    for (const sample of samples) {
      const options = { ...markedDefaults(), gfm: true };
      expect(new Lexer({ ...getDefaults(), gfm: true }).lex(sample)).toEqual(new MarkedLexer(options).lex(sample));
    }
  });
});
