// The processes the bench starts (the service, the bare baselines, the design's core): how node starts
// each, waiting for its port, counting the service's error-level log lines, stopping it, reading its
// memory. Every process started is registered, so that the bench's cleanup stops what a failure left.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

export function startProcess(
  settings: Settings,
  name: string,
  entry: string,
  env: Record<string, string>,
  errorLog: ErrorLog = { count: 0, samples: [] },
  nodeFlags: readonly string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolvePort, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, ...nodeArguments(settings, entry)], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on [^\s:]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.on('data', errorLineCounter(errorLog));
        resolvePort({ child, port: Number(match[1]) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // Requests autocannon had sent when a scenario ended still arrive while the service drains.
      const lines = chunk
        .toString()
        .split('\n')
        .filter((line) => line.trim() && !line.includes('during server shutdown'));
      if (lines.length) process.stderr.write(lines.map((line) => `[${name}] ${line}\n`).join(''));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited early (${signal ?? code}):\n${output}`));
    });
  });
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
