import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import globals from 'globals';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * @kestrel/core runs anywhere: a server, a worker, a test. Importing it must not touch the DOM, and it must not
 * bring React along. (eslint.config.js guards the same at lint time; this guards what actually happens.)
 */

const here = import.meta.dirname;
const domOnly = Object.keys(globals.browser).filter(
  (name) => !(name in globals.node) && !(name in globals['shared-node-browser']) && !(name in globalThis),
);

describe('@kestrel/core at import time', () => {
  const touched = new Set<string>();
  for (const name of domOnly) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get() {
        // Only accesses made by core's own source count; the test runner may probe globals too.
        if (new Error().stack?.includes(`${join(here)}/`)) touched.add(name);
        return undefined;
      },
    });
  }
  afterAll(() => {
    for (const name of domOnly) delete (globalThis as Record<string, unknown>)[name];
  });

  it('touches no DOM-only global', async () => {
    expect(domOnly).toEqual(expect.arrayContaining(['window', 'document', 'HTMLElement', 'requestAnimationFrame']));
    const core = await import('./index.js');
    expect(typeof core.reduceRun).toBe('function');
    expect([...touched]).toEqual([]);
  });

  it('the trap sees a DOM access made from a file in core', () => {
    expect(typeof (globalThis as Record<string, unknown>).document).toBe('undefined');
    expect(touched.has('document')).toBe(true);
  });
});

describe('@kestrel/core dependencies', () => {
  const pkg = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;

  it('package.json depends on neither react nor react-dom', () => {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
      expect(Object.keys(pkg[field] ?? {})).not.toEqual(expect.arrayContaining(['react']));
      expect(Object.keys(pkg[field] ?? {})).not.toEqual(expect.arrayContaining(['react-dom']));
    }
  });

  it('no source file imports react or react-dom', () => {
    const files = (readdirSync(here, { recursive: true }) as string[]).filter(
      (file) => /\.ts$/.test(file) && !/\.test(-d)?\.ts$/.test(file),
    );
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const source = readFileSync(join(here, file), 'utf8');
      expect(source, file).not.toMatch(/from\s+['"]react(-dom)?(\/[^'"]*)?['"]/);
      expect(source, file).not.toMatch(/import\(\s*['"]react(-dom)?(\/[^'"]*)?['"]\s*\)/);
    }
  });
});
