import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', 'query/index': 'src/query/index.ts' },
  format: ['esm'],
  platform: 'neutral',
  dts: true,
  clean: true,
  outputOptions: {
    // The main entry is hooks and components: mark it for React Server Components. The query entry stays
    // unmarked so `runResultQueryOptions` and `kestrelKeys` can prefetch on the server.
    banner: (chunk) => (chunk.isEntry && chunk.name === 'index' && chunk.fileName.endsWith('.js') ? "'use client';" : ''),
  },
});
