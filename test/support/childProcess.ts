// A child process run to its end, with what it wrote: for the suites that run the service's commands
// as an operator would (the build, the production install).
import type { ChildProcess } from 'node:child_process';

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Resolves when `child` has exited and closed its output, with its exit code and everything it wrote. */
export function finish(child: ChildProcess): Promise<Finished> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
