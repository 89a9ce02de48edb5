// One more worker for the Citus cluster .ci/citus-cluster started (TEST_CITUS_DIR, its DIR): the
// rebalance case of the Citus suite. Apart from citus.ts, which every database test reaches: a file
// that starts processes is put in a room with longer limits (testFiles.ts), and only this one does.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { joinCitusWorker } from './citus.js';

const execFileAsync = promisify(execFile);

/** The cluster's directory, where a worker can be added; null when not given. */
export const citusClusterDir = process.env.TEST_CITUS_DIR ?? null;

/** Starts one more worker (.ci/citus-cluster add-worker) and joins it to `database` (joinCitusWorker); answers its port. */
export async function addCitusWorker(database: string): Promise<number> {
  if (!citusClusterDir) throw new Error('TEST_CITUS_DIR is not set');
  await execFileAsync(join(import.meta.dirname, '../../.ci/citus-cluster'), ['add-worker', citusClusterDir]);
  const ports = (await readFile(join(citusClusterDir, 'ports'), 'utf8')).trim().split('\n').map(Number);
  const port = ports[ports.length - 1]!;
  await joinCitusWorker(database, port);
  return port;
}
