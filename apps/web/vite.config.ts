// vitest/config's defineConfig is vite's, typed with the `test` block.
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 8080,
    proxy: { '/api': { target: 'http://127.0.0.1:8081', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    // Pages are chunks of their own (the router's lazy imports). The entry still holds React, the
    // router, Redux Toolkit, i18next and zod, which the first screen needs anyway (~640 kB
    // minified, ~200 kB gzipped); splitting them into vendor chunks only added bytes.
    chunkSizeWarningLimit: 700,
    // scripts/bundle-size.ts reads it to weigh the first view and each route chunk
    manifest: true,
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
