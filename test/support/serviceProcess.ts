// src/main.ts as a real child process on a free port, over the given database: for the suites that kill,
// drain or restart the service (faults, webhooks through faults). Its temporary data directory and the
// process itself are registered with the caller's cleanups.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
  output: () => string;
}

/**
 * The port a started service says it listens on: the banner's "listening on 127.0.0.1:<port>" outside
 * production, the JSON line {"host":"127.0.0.1","port":<port>,...,"msg":"listening"} in production.
 */
export function listeningPort(output: string): string | undefined {
  return (
    /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1] ??
    /"host":"127\.0\.0\.1","port":(\d+)[^\n]*"msg":"listening"/.exec(output)?.[1]
  );
}

export function startServiceProcess(
  databaseUrl: string,
  cleanups: Array<() => Promise<unknown>>,
  env: Record<string, string> = {},
  /** The command line after src/main.ts, e.g. ['--role', 'worker']. */
  args: readonly string[] = [],
): Promise<ServiceProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dfs-process-')); // where the child keeps its generated signing secret
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
        ...env,
      },
    });
    cleanups.push(async () => child.kill('SIGKILL'));
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const port = listeningPort(output);
      if (port) resolve({ child, baseUrl: `http://127.0.0.1:${port}`, exited, output: () => output });
    });
    child.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    void exited.then((code) => reject(new Error(`service exited with ${code} before listening:\n${output}`)));
  });
}
