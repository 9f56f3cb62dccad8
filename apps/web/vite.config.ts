// vitest/config's defineConfig is vite's, typed with the `test` block.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { compileHints } from './build/compile-hints.ts';
import { precompress } from './build/precompress.ts';
import { sharedChunkName } from './build/chunks.ts';
import { noVncWithoutTopLevelAwait } from './build/novnc.ts';
import { signedInPreload } from './build/signed-in-preload.ts';

const reactRouterDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

export default defineConfig(({ command }) => ({
  // signedInPreload: index.html lists the signed-in layout's files for public/head.js;
  // compileHints: V8 compiles the start's chunks whole, off the main thread;
  // precompress: brotli and gzip copies of dist's text files, served by Accept-Encoding
  // noVncWithoutTopLevelAwait: the web console's noVNC, see build/novnc.ts
  plugins: [react(), signedInPreload(), compileHints(), precompress(), noVncWithoutTopLevelAwait()],
  // The production build leaves out what only development needs (scripts/bundle-size.ts weighs
  // the first view): react-router's own production build, whose only change is that its
  // development warnings are off (its package exports the development one to every bundler),
  // and React's useSyncExternalStore in place of the shim react-i18next imports for React < 18.
  resolve:
    command === 'build'
      ? {
          alias: [
            {
              find: /^react-router$/,
              replacement: join(reactRouterDir, 'dist/production/index.mjs'),
            },
            {
              find: /^use-sync-external-store\/shim$/,
              replacement: fileURLToPath(
                new URL('src/shared/lib/use-sync-external-store.ts', import.meta.url),
              ),
            },
          ],
        }
      : {},
  server: {
    port: 8080,
    // ws: the web console's WebSocket (/api/user/vps/servers/:id/console/socket) too
    proxy: { '/api': { target: 'http://127.0.0.1:8081', changeOrigin: false, ws: true } },
  },
  build: {
    outDir: 'dist',
    // Pages are chunks of their own (the router's lazy imports). The first view (scripts/
    // bundle-size.ts) holds React, the router, Redux Toolkit, redux-persist and i18next; RTK Query
    // and zod load with the first form or signed-in screen, react-hook-form with the first form
    // (its own `forms` chunk, build/chunks.ts). Splitting the first
    // view's libraries into vendor chunks only added bytes.
    chunkSizeWarningLimit: 700,
    // scripts/bundle-size.ts reads it to weigh the first view and each route chunk
    manifest: true,
    // every browser of the build target preloads modules itself
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically is one chunk with it (the page chunks import
            // from it): no small shared chunks for the first view (React, i18next's React part,
            // react-redux…), which compress worse apart and cost a request each.
            { name: 'index', tags: ['$initial'], priority: 2 },
            // The code pages share, by the areas using it (build/chunks.ts): a signed-in page
            // loads a few shared chunks, not dozens. A module goes alone (not with what it
            // imports, which may belong to a wider area); the areas nest, so the chunks import
            // each other one way only.
            {
              name: sharedChunkName,
              debugName: 'shared-by-area',
              includeDependenciesRecursively: false,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    // a page test types and clicks through jsdom: on two busy cores a few take 4-5 s, so the
    // budget is 15 s (a hang still fails), not vitest's default 5 s
    testTimeout: 15_000,
  },
}));
