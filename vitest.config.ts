import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { classifyTestFiles } from './test/support/testFiles.js';

// The rooms of the suite (docs/decisions.md 38), each file's read from its imports (test/support/testFiles.ts):
// `once` for the files whose answer cannot depend on the backend (run in the PGlite run only: CI runs
// `--project 'per-backend*'` on Postgres), `per-backend` for the others; a `-processes` room for the
// files that start processes, with the time limits of a process start through tsx on a loaded machine.
const files = classifyTestFiles(import.meta.dirname);

// A limit only ends a test that hangs; it is never what a test proves. Measured on this 2-core machine:
/** In process, a burst of 1,000 requests took 27 s at a load average of 9, 150 to 175 s at 30. */
const IN_PROCESS = { testTimeout: 300_000, hookTimeout: 300_000 };
/** One start of src/main.ts through tsx took up to 44 s at load 12 (README), a test starts several. */
const STARTS_PROCESSES = { testTimeout: 600_000, hookTimeout: 600_000 };

/** What every room shares: the root's own options are not inherited (its global setup must run once, not per room). */
const shared = {
  resolve: {
    // graphql ships CommonJS (main) and ESM (module) builds. Node, and so Apollo and tsx, load the
    // CommonJS one; Vite would pick the ESM one for our files, giving two GraphQLError classes that
    // fail instanceof checks. Resolve it the way Node does, so tests run what production runs.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  // Every child process a test starts is ended with the test, however it ends (a timeout included).
  setupFiles: ['test/support/childProcesses.ts'],
};

function room(name: string, perBackend: boolean, startsProcesses: boolean): TestProjectInlineConfiguration {
  const include = files
    .filter((file) => file.perBackend === perBackend && file.startsProcesses === startsProcesses)
    .map((file) => file.path);
  return {
    resolve: shared.resolve,
    test: {
      name,
      include,
      setupFiles: shared.setupFiles,
      // The migrated database every file's is copied from, made only when such a file runs.
      ...(perBackend ? { globalSetup: ['test/support/database-setup.ts'] } : {}),
      ...(startsProcesses ? STARTS_PROCESSES : IN_PROCESS),
    },
  };
}

export default defineConfig({
  test: {
    // Each test file opens its own database (in-memory PGlite, or a fresh Postgres database when
    // TEST_DATABASE_URL is set); forks keep PGlite's memory per process. Two cores: two workers.
    pool: 'forks',
    maxWorkers: 2,
    // Once for the whole run, after the rooms' own: the run's TMPDIR.
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      room('once', false, false),
      room('once-processes', false, true),
      room('per-backend', true, false),
      room('per-backend-processes', true, true),
    ],
  },
});
