import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql ships CommonJS (main) and ESM (module) builds. Node, and so Apollo and tsx, load the
    // CommonJS one; Vite would pick the ESM one for our files, giving two GraphQLError classes that
    // fail instanceof checks. Resolve it the way Node does, so tests run what production runs.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each test file opens its own database (in-memory PGlite, or a fresh Postgres database when
    // TEST_DATABASE_URL is set); forks keep PGlite's memory per process. Two cores: two workers.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
