import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { exampleModule, examplesIn, jsdocExamples, type JSDocExample } from './jsdoc-examples.js';

const root = resolve(import.meta.dirname, '..');

/**
 * The entries, in the order a name exported by several is imported from: core's own first, the internal one (the
 * kit's packages share it; its examples are for their code) last.
 */
const ENTRIES = [
  '@kestrel/core',
  '@kestrel/react',
  '@kestrel/react/query',
  '@kestrel/react/markdown',
  '@kestrel/react/inspector',
  '@kestrel/server',
  '@kestrel/server/node',
  '@kestrel/server/mock',
  '@kestrel/testing',
  '@kestrel/ai-sdk',
  '@kestrel/core/internal',
];

/** What examples take from the packages the kit works with, named as the kit's docs name them. */
const PEERS = new Map<string, readonly string[]>([
  ['zod', ['z']],
  ['@ai-sdk/react', ['useChat']],
  ['@tanstack/react-query', ['useMutation', 'useSuspenseQuery', 'useInfiniteQuery', 'QueryClient']],
  ['node:fs/promises', ['writeFile']],
]);

/*
 * Names an example uses without declaring them (its reader's `run`, `invoiceSchema`, `render`): "cannot find name"
 * (with or without a suggestion, or a test runner's), and a parameter left untyped because it is passed to one.
 */
const READERS_OWN = new Set([2304, 2552, 2582, 2593, 7006, 7031, 18004]);
/**
 * Except a name that reads as the kit's (a hook, a factory, a `Run…`/`Session…`/`Kestrel…` export): one no entry
 * exports any more is what an example goes stale by, and is reported.
 */
const KIT_LIKE = /^(?:(?:use|create)[A-Z]|(?:Run|Session|Kestrel)(?:[A-Z.]|$))/;
const unknownName = (diagnostic: ts.Diagnostic) =>
  /^Cannot find name '([^']+)'/.exec(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))?.[1];
const isReadersOwn = (diagnostic: ts.Diagnostic) =>
  READERS_OWN.has(diagnostic.code) && !KIT_LIKE.test(unknownName(diagnostic) ?? '');

// The examples' folder sits at the root, so the kit and its peers resolve as from an app of the workspace.
const DIR = join(root, '.jsdoc-examples');

function check(examples: readonly JSDocExample[]): string[] {
  const options: ts.CompilerOptions = {
    ...ts.convertCompilerOptionsFromJson(
      (ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile).config as { compilerOptions: object })
        .compilerOptions,
      root,
    ).options,
    noEmit: true,
    // An example imports values and types alike in one list, as a reader would write it.
    verbatimModuleSyntax: false,
    isolatedModules: false,
    paths: { '@tanstack/react-query': [join(root, 'packages/react/node_modules/@tanstack/react-query')] },
  };
  const probe = join(DIR, 'entries.ts');
  const probeSource = ENTRIES.map((entry, index) => `export * as e${index} from '${entry}';`).join('\n');
  const virtual = new Map<string, string>([[probe, probeSource]]);
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, onError) => {
    const text = virtual.get(file);
    return text === undefined
      ? getSourceFile.call(host, file, language, onError)
      : ts.createSourceFile(file, text, language);
  };

  const entries = ts.createProgram([probe], options, host);
  const checker = entries.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(entries.getSourceFile(probe)!)!;
  const modules = new Map<string, readonly string[]>(
    ENTRIES.map((entry, index) => {
      const namespace = checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === `e${index}`)!;
      const target = checker.getAliasedSymbol(namespace);
      return [entry, checker.getExportsOfModule(target).map((symbol) => symbol.name)];
    }),
  );
  expect(modules.get('@kestrel/core')).toContain('createRunClient');
  expect(modules.get('@kestrel/react')).toContain('useRun');
  for (const [specifier, names] of PEERS) modules.set(specifier, names);

  const files = examples.map((example, index) => {
    const file = join(DIR, `example-${index}.tsx`);
    virtual.set(file, exampleModule(example, modules));
    return file;
  });
  const program = ts.createProgram(files, options, host, entries);
  return files.flatMap((file, index) => {
    const source = program.getSourceFile(file)!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
      .filter((diagnostic) => !isReadersOwn(diagnostic))
      .map((diagnostic) => {
        const line = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
        const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
        return `${examples[index]!.where} (line ${line + 1} of the module below): TS${diagnostic.code} ${text}\n${source.text}`;
      });
  });
}

describe('JSDoc @example blocks', () => {
  it('are found with where they start, up to the next tag', () => {
    const source = readFileSync(join(root, 'packages/core/src/sse/read-sse.ts'), 'utf8');
    const [example] = examplesIn('read-sse.ts', source);
    expect(example?.code.split('\n')[0]).toBe('await readSSE(response.body!, (message) => {');
    expect(example?.where).toMatch(/^read-sse\.ts:\d+$/);
    expect(
      examplesIn('x.ts', '/**\n * Doc.\n *\n * @example\n * one();\n * two();\n * @throws when\n */').map(
        (e) => e.code,
      ),
    ).toEqual(['one();\ntwo();']);
  });

  it('import what they use from the entry that exports it, and keep elements apart', () => {
    const module = exampleModule(
      { where: 'x.tsx:1', code: 'const run = useRun();\n<RunView run={run} />\n<RunInspector run={run} />' },
      new Map([
        ['@kestrel/react', ['useRun', 'RunView']],
        ['@kestrel/react/inspector', ['RunInspector', 'useRun']],
      ]),
    );
    expect(module).toContain("import { useRun, RunView } from '@kestrel/react';");
    expect(module).toContain("import { RunInspector } from '@kestrel/react/inspector';");
    expect(module).toContain('\n;<RunInspector run={run} />');
  });

  // tsc's verdict is the same on every Node: the passes on Node 22 and 24 (KESTREL_TYPE_TESTS=off) skip these two.
  const typeChecks = { timeout: 120_000, skip: process.env.KESTREL_TYPE_TESTS === 'off' };

  it('find a wrong option name or argument, or a name the kit no longer exports', typeChecks, () => {
    const broken = [
      { where: 'wrong-option.ts:1', code: "createRunClient({ baseURL: '/api/kestrel' });" },
      { where: 'wrong-argument.ts:1', code: 'await readSSE(response.body!);' },
      { where: 'gone.ts:1', code: 'const run = useRunn();' },
      { where: 'readers-own.tsx:1', code: 'const event = await load(id);\n<InvoiceTable invoice={event} />' },
    ];
    const problems = check(broken);
    expect(problems.map((problem) => problem.split(' ')[0])).toEqual([
      'wrong-option.ts:1',
      'wrong-argument.ts:1',
      'gone.ts:1',
    ]);
  });

  it('type-check against the kit, each in the context it assumes', typeChecks, () => {
    const examples = jsdocExamples(root);
    expect(examples.length).toBeGreaterThan(100);
    expect(check(examples)).toEqual([]);
  });
});
