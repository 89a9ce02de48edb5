// A lock over something a test writes into the checkout itself (npm run build's dist/), so that two test
// runs in one checkout (two `npm test` at once, decisions.md 38) take turns instead of deleting each
// other's build under a running test. The lock is a file in .scratch/ (ignored by git) naming its
// holder's pid; a lock whose holder is gone is taken over.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const SCRATCH = new URL('../../.scratch/', import.meta.url).pathname;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Waits (at most `waitMs`) until this process holds the lock `name`; resolves with its release. */
export async function holdCheckoutLock(name: string, waitMs = 600_000): Promise<() => void> {
  mkdirSync(SCRATCH, { recursive: true });
  const path = join(SCRATCH, `${name}.lock`);
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      const file = openSync(path, 'wx');
      writeSync(file, `${process.pid}\n`);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(path, 'utf8').trim() || '0');
    if (holder && !alive(holder)) rmSync(path, { force: true });
    else if (performance.now() > deadline) throw new Error(`${path} is still held by process ${holder}`);
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
