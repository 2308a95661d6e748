import { createNodeListener, listenOnLoopback, type LoopbackServer } from '@kestrel/server/node';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDemoBackend } from './demo-backend.js';
import { staticFiles } from './static-files.js';

export const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

export interface PreviewServer extends LoopbackServer {
  readonly description: string;
}

/**
 * The BUILT demo (`apps/demo/dist`) and `/v1` from the mock Kestrel (or the proxy, with `KESTREL_URL`), on
 * 127.0.0.1. The end-to-end tests run against this, as a deployed app would be served.
 */
export async function startPreview(options: { port?: number; distDir?: string } = {}): Promise<PreviewServer> {
  const distDir = options.distDir ?? DIST_DIR;
  if (!existsSync(`${distDir}/index.html`))
    throw new Error(`No build in ${distDir}: run \`pnpm --filter @kestrel/demo build\` first`);
  const backend = createDemoBackend();
  const files = staticFiles(distDir);
  const server = await listenOnLoopback(
    createNodeListener((request) =>
      new URL(request.url).pathname.startsWith('/v1/') ? backend.handler(request) : files(request),
    ),
    options.port ?? 0,
  );
  return {
    ...server,
    description: backend.description,
    close: async () => {
      backend.close();
      await server.close();
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await startPreview({ port: Number(process.env.PORT ?? 4173) });
  console.log(`Kestrel demo (built) at ${server.url}/\n${server.description}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
