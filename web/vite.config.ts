import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by Ark at /app/ on each organization's address; the build goes to web/dist.
export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  base: '/app/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  logLevel: 'warn',
});
