// The suite's guarantee that a test's child processes end with it (test/support/childProcesses.ts,
// decisions.md 38): a vitest of its own runs a fixture whose tests leave a server holding a port (a
// failed test) and a process running (a timed-out test, which vitest abandons); the tests after each
// find the port free and the process gone.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { finish } from './support/childProcess.js';

const ROOT = new URL('../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'dfs-children-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
}

it('ends what a failed or timed-out test left running before the next test starts', async () => {
  // The fixture runs with the suite's setup file and nothing else of the suite's configuration.
  const config = join(dir, 'vitest.config.mjs');
  writeFileSync(
    config,
    `export default { root: ${JSON.stringify(ROOT)}, test: { include: ['test/support/fixtures/childLeftRunning.fixture.ts'], setupFiles: ['test/support/childProcesses.ts'], pool: 'forks' } };\n`,
  );
  const report = join(dir, 'report.json');
  const run = await finish(
    spawn(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', config, '--reporter=json', `--outputFile=${report}`],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: dir },
      },
    ),
  );
  const results = (JSON.parse(readFileSync(report, 'utf8')) as Report).testResults[0]!.assertionResults;
  expect(
    results.map((result) => [result.title, result.status]),
    run.stdout + run.stderr + JSON.stringify(results.map((result) => result.failureMessages)),
  ).toEqual([
    ['starts a server holding a port, then fails', 'failed'],
    ['finds the port free again', 'passed'],
    ['starts a process and never ends', 'failed'],
    ['finds that process gone', 'passed'],
  ]);
});
