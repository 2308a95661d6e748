import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

describe('@kestrel/core public API', () => {
  it('keeps the helpers only the kit itself uses in @kestrel/core/internal, not in the main entry', async () => {
    const core: Record<string, unknown> = await import('./index.js');
    const internal: Record<string, unknown> = await import('./internal.js');
    const helpers = [
      'AppendLog',
      'backoffDelay',
      'toWireEvent',
      'kestrelIdProblem',
      'protocolErrorAction',
      'errorResponse',
      'jsonResponse',
    ];
    for (const name of helpers) {
      expect(core, name).not.toHaveProperty(name);
      expect(typeof internal[name], name).toBe('function');
    }
  });

  it('publishes the internal entry it exports in the workspace', () => {
    const pkg = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as {
      exports: Record<string, string>;
      publishConfig: { exports: Record<string, unknown> };
    };
    expect(pkg.exports['./internal']).toBe('./src/internal.ts');
    expect(pkg.publishConfig.exports['./internal']).toEqual({
      types: './dist/internal.d.ts',
      import: './dist/internal.js',
    });
  });
});
