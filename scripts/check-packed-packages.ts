import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { publint } from 'publint';
import tseslint from 'typescript-eslint';
import { formatMessage } from 'publint/utils';
import { docSnippets, fixtureSource } from './doc-snippets.js';

/*
 * After `pnpm build`: the packages as a user gets them. Each one is packed (`pnpm pack`, so workspace ranges and
 * publishConfig are applied), then:
 *   1. every tarball carries README.md, LICENSE and engines.node; publint --strict and attw (esm-only profile)
 *      check each one;
 *   2. the tarballs are installed into a fresh project outside the repo (nothing resolves from the workspace) and
 *      tsc checks it twice, with library checks on: a Node-only tsconfig (lib es2022, types node, NodeNext, no DOM)
 *      and a browser React one. The sources are scripts/packed-fixture plus every README/docs snippet marked
 *      `<!-- typecheck: node-only/<file> -->` or `<!-- typecheck: dom/<file> -->` (a fragment inside the context
 *      its comment carries, see doc-snippets.ts), whose fixtures are also held to the rules of hooks;
 *   3. a second project without the optional peer (@tanstack/react-query) shows it is optional: `@kestrel/react`
 *      and `@kestrel/react/markdown` (whose parser, marked, is a dependency) load in Node.
 */
const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'kestrel-packed-'));
const problems: string[] = [];
const started = performance.now();
const lap = (what: string, since: number) =>
  console.log(`  ${what} (${((performance.now() - since) / 1000).toFixed(1)} s)`);
const runAsync = promisify(execFile);
const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const failure = (error: unknown) => {
  const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
  return `${stdout}${stderr}`.trim() || message;
};

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

try {
  // 1. Pack, then lint each tarball.
  let since = performance.now();
  const tarballDir = join(work, 'tarballs');
  mkdirSync(tarballDir);
  const tarballs = new Map<string, string>();
  // A stylesheet entry (`@kestrel/react/theme.css`) has no types by nature: attw is not asked about it.
  const stylesheets = new Map<string, string[]>();
  for (const dir of readdirSync(join(root, 'packages'))) {
    const manifest = readManifest(join(root, 'packages', dir));
    if (manifest.private === true) continue;
    stylesheets.set(
      manifest.name,
      Object.keys(manifest.exports ?? {}).filter((subpath) => subpath.endsWith('.css')),
    );
    const before = new Set(readdirSync(tarballDir));
    run('pnpm', ['pack', '--pack-destination', tarballDir], join(root, 'packages', dir));
    const file = readdirSync(tarballDir).find((name) => !before.has(name));
    if (file === undefined) throw new Error(`pnpm pack wrote no tarball for ${manifest.name}`);
    tarballs.set(manifest.name, join(tarballDir, file));
  }
  lap(`packed ${[...tarballs.keys()].join(', ')}`, since);

  since = performance.now();
  for (const [name, tarball] of tarballs) {
    // What npm shows and what a licence review needs: a README, the LICENSE, and the Node versions it supports.
    const files = run('tar', ['-tzf', tarball], work).split('\n');
    for (const file of ['package/LICENSE', 'package/README.md'])
      if (!files.includes(file)) problems.push(`${name}: the tarball has no ${file.slice('package/'.length)}`);
    const packed = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], work)) as {
      engines?: { node?: string };
    };
    if (packed.engines?.node === undefined) problems.push(`${name}: the packed package.json has no engines.node`);
    const data = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
      strict: true,
    });
    for (const message of messages) problems.push(`publint ${name}: ${formatMessage(message, pkg) ?? message.code}`);
    try {
      const css = stylesheets.get(name) ?? [];
      const exclude = css.length > 0 ? ['--exclude-entrypoints', ...css] : [];
      run(
        join(root, 'node_modules/.bin/attw'),
        [tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii', '--no-color', ...exclude],
        work,
      );
    } catch (error) {
      problems.push(`attw ${name}:\n${failure(error)}`);
    }
  }
  lap('README, LICENSE, engines, publint --strict and attw --profile esm-only on every tarball', since);

  // 2. Install the tarballs into a project outside the repo and type-check it, Node-only and DOM.
  since = performance.now();
  const rootManifest = readManifest(root);
  const pinned: Record<string, string> = {
    ...rootManifest.dependencies,
    ...rootManifest.devDependencies,
    // Not the kit's: @ai-sdk/provider's declarations import `json-schema` types without depending on them, so a
    // project with library checks on needs them (as it would in any app using the AI SDK).
    '@types/json-schema': '7.0.15',
  };
  const version = (name: string) => {
    const found = pinned[name];
    if (found === undefined) throw new Error(`${name} is not pinned in the root package.json`);
    return found;
  };
  const install = (dir: string, kestrel: string[], others: string[]) => {
    mkdirSync(dir, { recursive: true });
    const file = (name: string) => `file:${tarballs.get(name)}`;
    const dependencies = Object.fromEntries([
      ...kestrel.map((name) => [name, file(name)]),
      ...others.map((name) => [name, version(name)]),
    ]);
    // Packed manifests name each other by version (0.1.0), which no registry has: point every one at its tarball.
    const overrides = Object.fromEntries([...tarballs.keys()].map((name) => [name, file(name)]));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'kestrel-packed-fixture', private: true, type: 'module', dependencies }, null, 2),
    );
    writeFileSync(
      join(dir, 'pnpm-workspace.yaml'),
      `overrides:\n${Object.entries(overrides)
        .map(([name, spec]) => `  '${name}': '${spec}'`)
        .join('\n')}\n`,
    );
    run('pnpm', ['install', '--no-frozen-lockfile', '--prefer-offline', '--ignore-scripts', '--reporter=silent'], dir);
  };
  const full = join(work, 'full');
  install(
    full,
    [...tarballs.keys()],
    [
      '@ai-sdk/react',
      '@tanstack/react-query',
      '@types/json-schema',
      '@types/node',
      '@types/react',
      '@types/react-dom',
      'ai',
      'react',
      'react-dom',
      'typescript',
      'vite',
      'zod',
    ],
  );
  cpSync(join(root, 'scripts/packed-fixture'), full, { recursive: true });
  for (const snippet of docSnippets(root)) {
    if (snippet.target === null) continue;
    mkdirSync(join(full, snippet.target, '..'), { recursive: true });
    writeFileSync(join(full, snippet.target), fixtureSource(snippet));
  }
  lap('installed the tarballs into a fresh project', since);

  // The two projects are independent: check them side by side.
  since = performance.now();
  await Promise.all(
    ['tsconfig.node-only.json', 'tsconfig.dom.json'].map((project) =>
      runAsync(join(full, 'node_modules/.bin/tsc'), ['-p', project], { cwd: full, encoding: 'utf8' }).catch(
        (error: unknown) => {
          problems.push(`tsc -p ${project} (in ${full}):\n${failure(error)}`);
        },
      ),
    ),
  );
  lap('tsc -p tsconfig.node-only.json and tsc -p tsconfig.dom.json', since);

  // tsc accepts a hook called at a module's top level; a reader who pastes that gets "Invalid hook call".
  since = performance.now();
  const hooks = new ESLint({
    cwd: full,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser },
        // The plugin's declared rule types are stricter than ESLint's `Plugin` (a mismatch of the two packages'
        // typings, not of the objects), as eslint.config.js, untyped, never shows.
        plugins: { 'react-hooks': reactHooks as unknown as ESLint.Plugin },
        rules: { 'react-hooks/rules-of-hooks': 'error' },
      },
    ],
  });
  const linted = await hooks.lintFiles(['dom/**/*.{ts,tsx}', 'node-only/**/*.ts']);
  if (linted.some((result) => result.errorCount > 0)) {
    problems.push(
      `rules of hooks in the snippets' fixtures:\n${(await hooks.loadFormatter('stylish')).format(linted)}`,
    );
  }
  lap('the rules of hooks in every fixture', since);

  // 3. Optional peers stay optional.
  since = performance.now();
  const minimal = join(work, 'minimal');
  install(minimal, ['@kestrel/core', '@kestrel/react'], ['react', 'react-dom', 'zod']);
  try {
    run('node', ['--input-type=module', '-e', "await import('@kestrel/react')"], minimal);
  } catch (error) {
    problems.push(`@kestrel/react does not load without its optional peers:\n${failure(error)}`);
  }
  try {
    run('node', ['--input-type=module', '-e', "await import('@kestrel/react/markdown')"], minimal);
  } catch (error) {
    problems.push(`@kestrel/react/markdown does not load with only the kit's dependencies:\n${failure(error)}`);
  }
  lap('optional peers: @kestrel/react and /markdown load without them', since);
} catch (error) {
  problems.push(failure(error));
} finally {
  if (problems.length === 0) rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`\n${problems.join('\n\n')}\n\n(the packed project is kept in ${work})`);
  process.exit(1);
}
console.log(
  `packed packages: README, LICENSE, engines, publint, attw, Node-only and DOM type checks, optional peers all good (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
