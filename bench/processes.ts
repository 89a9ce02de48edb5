// The processes the bench starts (the service, the bare baselines, the design's core): how node starts
// each, on a port the bench chose, waiting until it answers there (never reading its logs for it: the
// service in production logs JSON, and at LOG_LEVEL=warn nothing at all when it starts), counting the
// service's error-level log lines, stopping it, reading its memory. Every process started is
// registered, so that the bench's cleanup stops what a failure left.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { phase } from './log.js';
import { BUILD_DIR, ROOT, type Settings } from './settings.js';

/** Every process started, to stop at the end however the bench ends. */
const children: ChildProcess[] = [];

export async function stopAll(): Promise<void> {
  await Promise.all(children.map(stopProcess));
}

/** The service and the baselines compiled (phase build), as production runs them; not with --from-source. */
export async function compileForBench(settings: Settings): Promise<void> {
  if (settings.fromSource) return;
  await phase('build', async () => {
    await new Promise<void>((done, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/build.ts', '--bench'],
        { cwd: ROOT },
        (error, _out, stderr) =>
          error ? reject(new Error(`the bench's build failed: ${stderr || error.message}`)) : done(),
      ),
    );
  });
}

/**
 * How node starts an entry (a TypeScript path such as src/main.ts): as production does (npm run
 * start:prod: the compiled JavaScript of the bench's build, the telemetry preload, the heap cap), or
 * with --from-source through tsx, as npm start does.
 */
export function nodeArguments(settings: Settings, entry: string): string[] {
  // The design's core (bench/core-server.ts) starts as the service does: the two differ in their layers only.
  const service = entry === 'src/main.ts' || entry === 'bench/core-server.ts';
  const heap = service ? settings.serviceV8Flags : settings.baselineV8Flags;
  if (settings.fromSource)
    return [...heap, '--import', 'tsx', ...(service ? ['--import', './src/telemetry/preload.ts'] : []), entry];
  return [...heap, ...(service ? ['--import', compiled('src/telemetry/preload.ts')] : []), compiled(entry)];
}

/** The bench's build of a TypeScript path. */
export const compiled = (path: string) => join(BUILD_DIR, path.replace(/\.ts$/, '.js'));

export interface ErrorLog {
  count: number;
  samples: string[];
}

/** How long a process may take to answer on its port (a compiled start takes seconds; tsx and a busy machine more). */
const START_WITHIN_MS = 120_000;

/** A TCP port of 127.0.0.1 that nothing listens on now: the bench's choice for a process it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * How the bench knows a process it started is up: `GET <path>` on its port answers 200 (the service's
 * /readyz: its database answers; the baseline's /healthz), or, with no path, answers at all (the
 * design's core serves no probe of its own: any HTTP answer means it listens with its doors mounted).
 */
export type Readiness = { path: string } | { anyAnswer: true };
/** The service is up when /readyz answers 200 (its database answers); the bare baseline when /healthz does. */
export const SERVICE_READY: Readiness = { path: '/readyz' };
export const BASELINE_READY: Readiness = { path: '/healthz' };

/** Whether the process on `port` is ready, by one request (a refused connection is "not yet"). */
async function answers(port: number, readiness: Readiness): Promise<boolean> {
  const path = 'path' in readiness ? readiness.path : '/';
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return 'path' in readiness ? response.status === 200 : true;
  } catch {
    return false;
  }
}

/**
 * Starts `entry` with PORT set to a free port the bench chose, and resolves once it is ready there
 * (`readiness`). A process that exits first rejects with what it wrote; one that found its port
 * taken meanwhile (another process got it between the choice and the listen) is started again on
 * another.
 */
export async function startProcess(
  settings: Settings,
  name: string,
  entry: string,
  env: Record<string, string>,
  readiness: Readiness,
  errorLog: ErrorLog = { count: 0, samples: [] },
  nodeFlags: readonly string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startOnPort(
        settings,
        name,
        entry,
        { ...env, PORT: String(port) },
        port,
        readiness,
        errorLog,
        nodeFlags,
      );
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === 3) throw error;
    }
  }
}

class PortTaken extends Error {}

function startOnPort(
  settings: Settings,
  name: string,
  entry: string,
  env: Record<string, string>,
  port: number,
  readiness: Readiness,
  errorLog: ErrorLog,
  nodeFlags: readonly string[],
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...nodeFlags, ...nodeArguments(settings, entry)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', errorLineCounter(errorLog));
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    // Requests autocannon had sent when a scenario ended still arrive while the service drains.
    const lines = chunk
      .toString()
      .split('\n')
      .filter((line) => line.trim() && !line.includes('during server shutdown'));
    if (lines.length) process.stderr.write(lines.map((line) => `[${name}] ${line}\n`).join(''));
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('close', (code, signal) => {
      const taken = /EADDRINUSE|is in use by another process/.test(output);
      const message = `${name} exited before it answered on port ${port} (${signal ?? code}):\n${output}`;
      reject(taken ? new PortTaken(message) : new Error(message));
    }),
  );
  const ready = (async () => {
    const deadline = performance.now() + START_WITHIN_MS;
    while (!(await answers(port, readiness))) {
      if (child.exitCode !== null || child.signalCode !== null) return new Promise<never>(() => {}); // exited says why
      if (performance.now() > deadline)
        throw new Error(`${name} did not answer on port ${port} within ${START_WITHIN_MS / 1000} s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { child, port };
  })();
  exited.catch(() => undefined); // once ready, a later exit is the caller's to notice
  return Promise.race([ready, exited]);
}

/** The service logs JSON lines (pino) to stdout: keep count of error-level ones and a few samples. */
function errorLineCounter(errorLog: ErrorLog): (more: Buffer) => void {
  let partial = '';
  return (more) => {
    const lines = (partial + more.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!/"level":"(error|fatal)"/.test(line)) continue;
      errorLog.count += 1;
      if (errorLog.samples.length < 5) {
        const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? line;
        errorLog.samples.push(message.length > 240 ? `${message.slice(0, 100)} … ${message.slice(-130)}` : message);
      }
    }
  };
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** kB fields of /proc/<pid>/status, as bytes. */
export function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The pids of the bench's processes still running: with its own, the CPU that is the bench's (cpu.ts). */
export function benchPids(): number[] {
  return children.filter((child) => child.exitCode === null && child.signalCode === null).map((child) => child.pid!);
}
