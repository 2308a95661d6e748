import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A production backend that imports @kestrel/server (or /node) must not load the test package: only the /mock
 * entry plays the scenarios of @kestrel/testing, an optional peer.
 */

const here = import.meta.dirname;

/** Every bare specifier reachable from an entry through the package's own relative imports. */
function packagesReachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/g)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else bare.add(specifier);
    }
  };
  visit(join(here, entry));
  return bare;
}

describe('@kestrel/server package graph', () => {
  it('its main and /node entries never import @kestrel/testing; /mock does', () => {
    expect([...packagesReachedFrom('index.ts')].filter((name) => name.startsWith('@kestrel/testing'))).toEqual([]);
    expect([...packagesReachedFrom('node.ts')].filter((name) => name.startsWith('@kestrel/testing'))).toEqual([]);
    expect(packagesReachedFrom('mock.ts')).toContain('@kestrel/testing');
  });

  it('takes @kestrel/testing as an optional peer, never as a dependency', () => {
    const pkg = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as Record<
      string,
      Record<string, unknown> | undefined
    >;
    expect(pkg.dependencies).not.toHaveProperty('@kestrel/testing');
    expect(pkg.peerDependencies).toHaveProperty('@kestrel/testing');
    expect(pkg.peerDependenciesMeta).toEqual(expect.objectContaining({ '@kestrel/testing': { optional: true } }));
  });
});
