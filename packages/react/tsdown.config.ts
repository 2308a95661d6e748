import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', 'query/index': 'src/query/index.ts' },
  // React and TanStack Query are the app's (peer dependencies), never bundled.
  external: ['react', 'react-dom', /^react\//, '@tanstack/react-query'],
  format: ['esm'],
  platform: 'neutral',
  dts: true,
  clean: true,
});
