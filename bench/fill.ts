// The bench's data: the project's large deterministic data set (src/fixtures/benchData.ts), written by
// `npm run bench:data -- --customers N` in a process of its own, as an operator would run it.
import { spawn } from 'node:child_process';

/** Runs `npm run bench:data -- --customers N` against the given database; rejects on a non-zero exit. */
export function runGenerator(root: string, databaseUrl: string, customers: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'bench:data', '--', '--customers', String(customers)], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'development', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`npm run bench:data exited with ${signal ?? code}`)),
    );
  });
}
