import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

/*
 * The development warnings as an app gets them: the core bundled for the browser the way Vite and webpack bundle a
 * dependency (`process.env.NODE_ENV` replaced, no `process` at run time), then run where no `process` exists.
 */
const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
const BASE_URL_WARNING = 'baseUrl ends in /v1';

async function bundle(mode: 'development' | 'production' | 'unbundled'): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { createRunClient } from ${JSON.stringify(entry)};\ncreateRunClient({ baseUrl: 'https://kestrel.example.com/v1' });`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    minify: mode === 'production',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    // 'unbundled': left as written, as a plain ES module loaded from a CDN runs (esbuild replaces it for the browser
    // by default, so it is defined as itself).
    define: { 'process.env.NODE_ENV': mode === 'unbundled' ? 'process.env.NODE_ENV' : JSON.stringify(mode) },
  });
  return result.outputFiles[0]!.text;
}

/** Runs a bundle in a context with no `process`, as a browser tab; returns what it warned. */
function warningsOf(code: string): string[] {
  const warned: string[] = [];
  const console = { warn: (message: string) => warned.push(message), log() {}, error() {} };
  runInNewContext(code, { console, URL, AbortController, TextDecoder, TextEncoder, setTimeout, clearTimeout });
  return warned;
}

describe('development warnings in a bundled app', () => {
  it('are printed in a development build, where the browser has no process object', async () => {
    const warned = warningsOf(await bundle('development'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain(BASE_URL_WARNING);
  });

  it('neither warn nor throw where nothing replaced process.env.NODE_ENV and no process exists', async () => {
    expect(warningsOf(await bundle('unbundled'))).toEqual([]);
  });

  it('are left out of a production build, message and all', async () => {
    const code = await bundle('production');
    expect(code).not.toContain(BASE_URL_WARNING);
    expect(warningsOf(code)).toEqual([]);
  });
});
