import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticFiles } from './static-files.js';

const root = mkdtempSync(join(tmpdir(), 'kestrel-demo-dist-'));
mkdirSync(join(root, 'assets'));
writeFileSync(join(root, 'index.html'), '<!doctype html><title>demo</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(tmpdir(), 'kestrel-secret.txt'), 'secret');
const serve = staticFiles(root);
const get = (path: string) => serve(new Request(`http://127.0.0.1${path}`));

describe('staticFiles (the preview server of the built demo)', () => {
  it('serves index.html for every page path, so ?run= links survive a reload', async () => {
    for (const path of ['/', '/invoice?run=run_1', '/history']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('<title>demo</title>');
    }
  });

  it('serves built assets with their type, and 404 for missing ones', async () => {
    const asset = await get('/assets/app.js');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('never serves files outside the build folder', async () => {
    const response = await get('/assets/..%2F..%2Fkestrel-secret.txt');
    expect([403, 404]).toContain(response.status);
    expect(await response.text()).not.toBe('secret');
  });
});
