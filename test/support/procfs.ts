// Processes as Linux's /proc shows them, for test/support/childProcesses.ts and its fixture.
import { readdirSync, readFileSync } from 'node:fs';

/** The processes `pid` started that still run (any of its threads may have started them). */
export function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
      readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // gone meanwhile, or no /proc
  }
}

/**
 * Whether any thread of `pid` still runs. Its first thread alone is not enough: a killed Node process
 * shows its first thread a zombie while the others are still ending, and those hold its open files (a
 * listening socket among them) until the last one is gone.
 */
export function running(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((thread) => {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
      } catch {
        return false; // this thread ended meanwhile
      }
    });
  } catch {
    return false; // gone, reaped by its parent
  }
}
