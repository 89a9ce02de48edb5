// Every child process a test starts ends with the test (a setup file of every test file: vitest.config.ts;
// docs/decisions.md 38). A test that times out is abandoned by vitest while its children run on: a
// service it started keeps its port and the embedded data folder's lock, and fails the next test.
// So after each test's own afterEach hooks, whatever it left running of the processes started since
// the test began (in its beforeEach hooks or its body) is killed with every process below it, and
// waited for; what a beforeAll started lives until the file's own afterAll hooks have run, then the
// same. Read from /proc (Linux, where CI and the suites run); elsewhere it does nothing.
import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { childrenOf, running } from './procfs.js';

function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/** SIGKILL to each of `pids` and everything below it, then waits (10 s at most) until none runs. */
async function killTrees(pids: readonly number[]): Promise<number[]> {
  const doomed = pids.flatMap((pid) => [pid, ...descendantsOf(pid)]);
  for (const pid of doomed) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {} // already gone
  }
  const deadline = performance.now() + 10_000;
  while (doomed.some(running) && performance.now() < deadline) await new Promise((done) => setTimeout(done, 20));
  return doomed;
}

const watched = existsSync(`/proc/${process.pid}/task`);
/** The children this file's process had when the current test began: theirs are not the test's to end. */
let before = new Set<number>();

beforeEach(() => {
  if (watched) before = new Set(childrenOf(process.pid));
});

// Registered before the test file's own hooks, so these run after them ("stack" order): a test's
// graceful stop (SIGTERM and the exit code it checks) comes first; this only ends what is left.
afterEach(async (context) => {
  if (!watched) return;
  const left = childrenOf(process.pid).filter((pid) => !before.has(pid));
  if (left.length === 0) return;
  const killed = await killTrees(left);
  if (context.task.result?.state === 'pass') return;
  // A failed or timed-out test: say what it left, since the next test's failure may point here.
  console.warn(`[child processes] ended after "${context.task.name}": ${killed.length} left running (${killed})`);
});

afterAll(async () => {
  if (watched) await killTrees(childrenOf(process.pid));
});
