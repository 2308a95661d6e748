import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/node.ts', 'src/mock.ts'],
  format: ['esm'],
  platform: 'node',
  dts: true,
  clean: true,
});
