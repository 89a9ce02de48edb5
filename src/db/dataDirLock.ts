// The embedded database's folder belongs to one process (decisions.md 27): PGlite has no lock of its own,
// and two processes on one folder both start until one aborts in the WebAssembly Postgres. A file beside
// the folder holds its owner's process id, created exclusively; a lock whose process is gone is taken over.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/** Another live process holds the embedded database's folder. */
export class DataDirInUse extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
    readonly lockFile: string,
  ) {
    super(`the embedded database in ${dataDir} is in use by process ${ownerPid}`);
    this.name = 'DataDirInUse';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, someone else's
  }
}

/**
 * Takes `<dataDir>.lock` for this process until it exits, or throws DataDirInUse naming the owner. Our own
 * pid in the file is a stale lock too: a restarted container gives its process the same small pid.
 */
export function lockDataDir(dataDir: string): void {
  const lockFile = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
      process.once('exit', () => {
        try {
          if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) unlinkSync(lockFile);
        } catch {
          // already gone
        }
      });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(readFileSync(lockFile, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw new DataDirInUse(dataDir, owner, lockFile);
    }
    unlinkSync(lockFile); // its process is gone: the lock is stale
  }
  throw new Error(`could not take the lock ${lockFile}`);
}
