import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { kestrelPlugin } from './server/kestrel-plugin.js';

export default defineConfig({
  plugins: [react(), kestrelPlugin()],
  // Loopback only: the mock is for this machine.
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1' },
  build: { outDir: 'dist', sourcemap: true },
});
