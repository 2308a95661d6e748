import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * After `pnpm build`: every entry a package exports in the workspace (source) must also be published (dist), and
 * every published file must exist. A subpath that works in the repo but is missing from the tarball is the kind
 * of break no other test sees.
 */
type ExportMap = Record<string, string | Record<string, string>>;

const problems: string[] = [];
for (const dir of readdirSync('packages')) {
  const manifestPath = join('packages', dir, 'package.json');
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    name: string;
    private?: boolean;
    exports?: ExportMap;
    publishConfig?: { exports?: ExportMap };
  };
  if (manifest.private === true) continue;
  const published = manifest.publishConfig?.exports ?? {};
  for (const subpath of Object.keys(manifest.exports ?? {})) {
    if (!(subpath in published))
      problems.push(`${manifest.name}: "${subpath}" is exported in the workspace but not published`);
  }
  for (const [subpath, target] of Object.entries(published)) {
    const files = typeof target === 'string' ? [target] : Object.values(target);
    for (const file of files) {
      if (!existsSync(join('packages', dir, file)))
        problems.push(`${manifest.name}: "${subpath}" publishes ${file}, which the build did not write`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('package exports: every published entry was built');
