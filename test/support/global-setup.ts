// The whole run's global setup (vitest.config.ts's root; the rooms that open a database add
// database-setup.ts): gives the run a temporary directory of its own (TMPDIR, inherited by the test
// workers) and fails the run if a test left anything in it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const named = (files: string[]) =>
  files.slice(0, 5).join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');

export default function setup(): () => void {
  const runTmp = mkdtempSync(join(tmpdir(), 'dfs-test-run-'));
  const outerTmp = process.env.TMPDIR;
  process.env.TMPDIR = runTmp;
  return () => {
    if (outerTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outerTmp;
    const leftovers = readdirSync(runTmp);
    rmSync(runTmp, { recursive: true, force: true });
    if (leftovers.length === 0) return;
    // A throw here is only logged by vitest; the exit code is what CI sees.
    process.stderr.write(`\ntests left temporary files behind (removed now): ${named(leftovers)}\n`);
    process.exitCode = 1;
  };
}
