import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('@kestrel/testing package.json', () => {
  it('takes zod as a peer, so an app never ends up with a second zod', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as Record<
      string,
      Record<string, unknown> | undefined
    >;
    expect(pkg.dependencies ?? {}).not.toHaveProperty('zod');
    expect(pkg.peerDependencies).toHaveProperty('zod');
  });
});
