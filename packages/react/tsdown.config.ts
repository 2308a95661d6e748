import { defineConfig } from 'tsdown';

// Entries that render components, marked for React Server Components; `query` stays unmarked so
// `runResultQueryOptions` and `kestrelKeys` can prefetch on the server.
const clientEntries = new Set(['index', 'markdown/index', 'inspector/index']);

export default defineConfig({
  // Each locale is its own entry, outside the main bundle and its size budget: an app loads only the ones it uses.
  entry: {
    index: 'src/index.ts',
    'query/index': 'src/query/index.ts',
    'markdown/index': 'src/markdown/index.ts',
    // The run inspector is a debugging tool: its own entry, outside <RunView>'s size budget.
    'inspector/index': 'src/inspector/index.ts',
    'locales/de': 'src/locales/de.ts',
    'locales/fr': 'src/locales/fr.ts',
    'locales/es': 'src/locales/es.ts',
    'locales/ja': 'src/locales/ja.ts',
  },
  format: ['esm'],
  platform: 'neutral',
  dts: true,
  clean: true,
  // The optional theme ships as a plain stylesheet: `import '@kestrel/react/theme.css'`.
  copy: [{ from: 'src/theme.css', to: 'dist' }],
  outputOptions: {
    banner: (chunk) =>
      chunk.isEntry && clientEntries.has(chunk.name) && chunk.fileName.endsWith('.js') ? "'use client';" : '',
  },
});
