import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // vitest keeps a core for itself (availableParallelism - 1): on two cores, one worker, and the
    // component tests ran one file at a time (355 s, against 224 s two at a time)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'contracts',
          root: 'packages/contracts',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'simulator',
          root: 'packages/simulator',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'api',
          root: 'apps/api',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // one database per file keeps files independent, so they can share a module graph
          isolate: false,
          // two cores, so two at a time
          maxWorkers: 2,
          // its own worker limit needs its own group (vitest 4): it runs after the others
          sequence: { groupOrder: 1 },
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
