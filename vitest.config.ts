// One Vitest run for the whole repository: unit and integration tests of the packages and the
// server (on one embedded PostgreSQL per run, a fresh database per test file), the web app's
// component tests, and browser journeys (e2e/) in the system Chromium.
import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a two-core machine. Most
    // test files wait on PostgreSQL, a fake broker or a browser rather than compute, so one worker
    // more than the cores keeps both busy (the server project: 750 s with one worker, 330 s with
    // three). The fault drills and browser journeys still run one file at a time. Each file keeps
    // its own module graph (isolate): without it the server project took 108 s, but a module a file
    // replaces (vi.mock) and fixtures held in modules leaked between files (2 failures, shuffled).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          name: 'packages',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // Node loads graphql's CommonJS build; make Vite do the same, so one GraphQL realm exists.
        resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'apps/server/test/faults/**'],
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Fault drills on the real server, one file at a time (`npm run test:faults` runs them alone).
        test: {
          name: 'faults',
          include: ['apps/server/test/faults/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/faults/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      'apps/web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          // A screen waiting on the server (a first password estimate loads zxcvbn's dictionaries)
          // can take seconds on a busy two-core machine; vitest's default is one second.
          expect: { poll: { timeout: 10_000 } },
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
