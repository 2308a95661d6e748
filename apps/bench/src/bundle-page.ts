import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/**
 * Bundles a bench page's entry for Chromium with esbuild: one minified script, production React and production
 * `process.env.NODE_ENV`. `alias` swaps modules, e.g. react-dom's profiling build so `<Profiler>` reports commits.
 */
export async function bundlePage(entry: URL, alias: Record<string, string> = {}): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    write: false,
    logLevel: 'silent',
    alias,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return result.outputFiles[0]!.text;
}
