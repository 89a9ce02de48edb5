import { defineConfig } from 'vitest/config';

export default defineConfig({
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
