import { defineConfig } from 'tsdown';

// Entries that render components, marked for React Server Components; `query` stays unmarked so
// `runResultQueryOptions` and `kestrelKeys` can prefetch on the server.
const clientEntries = new Set(['index', 'markdown/index']);

export default defineConfig({
  entry: { index: 'src/index.ts', 'query/index': 'src/query/index.ts', 'markdown/index': 'src/markdown/index.ts' },
  format: ['esm'],
  platform: 'neutral',
  dts: true,
  clean: true,
  // The optional theme ships as a plain stylesheet: `import '@kestrel/react/theme.css'`.
  copy: [{ from: 'src/theme.css', to: 'dist' }],
  outputOptions: {
    banner: (chunk) => (chunk.isEntry && clientEntries.has(chunk.name) && chunk.fileName.endsWith('.js') ? "'use client';" : ''),
  },
});
