import { createNodeListener } from '@kestrel/server/node';
import type { Plugin } from 'vite';
import { createDemoBackend, usesMock } from './demo-backend.js';

/**
 * Serves `/v1/*` from the Vite dev server: the mock Kestrel, or with `KESTREL_URL` the proxy to a real one.
 * Mounted before Vite's own middlewares, so event streams are never transformed or buffered.
 */
export function kestrelPlugin(): Plugin {
  return {
    name: 'kestrel-demo-backend',
    config: () => ({ define: { __KESTREL_MOCK__: JSON.stringify(usesMock()) } }),
    configureServer(server) {
      const backend = createDemoBackend();
      const listener = createNodeListener(backend.handler);
      server.middlewares.use((req, res, next) => {
        if (req.url?.startsWith('/v1/')) void listener(req, res);
        else next();
      });
      server.httpServer?.once('close', () => backend.close());
      server.httpServer?.once('listening', () => server.config.logger.info(`  ➜  ${backend.description}`));
    },
  };
}
