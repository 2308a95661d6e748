import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: ['src/index.ts', 'src/node.ts', 'src/mock.ts'],
  format: ['esm'],
  platform: 'node',
  // `.js`/`.d.ts`, as publishConfig.exports names them (platform node would default to `.mjs`).
  fixedExtension: false,
  dts: true,
  clean: true,
});
