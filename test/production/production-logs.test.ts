// The service's stdout in production, as a log pipeline reads it (docs/decisions.md, 28): a production
// process (NODE_ENV=production, started as npm start starts it, the preload included, on a migrated
// Postgres database) whose every stdout line, from its start to its exit after SIGTERM, parses as one
// JSON object with an ISO 8601 `time` and a level's name. At info the probes and the scrape write
// nothing while a failing probe (/readyz while draining) and any other request do; at debug they are
// there, at debug. With tracing on (an OTLP receiver here, the SDK's diagnostics at OTEL_LOG_LEVEL=debug)
// the SDK's own lines are JSON too, and the request line names the incoming trace and the server span.
// Postgres only: production requires DATABASE_URL.
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { createPostgresDatabase, onPostgres } from '../support/db.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const LEVEL_NAMES = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PROBES = ['/healthz', '/readyz', '/metrics'];
// A process's start (tsx compiling, the SDK patching as modules load) takes seconds on a busy machine.

type Line = Record<string, unknown>;

interface Run {
  baseUrl: string;
  child: ChildProcess;
  /** Every complete stdout line so far, as written. */
  stdout: () => string[];
  /** The process's exit code and everything it wrote, once it has exited. */
  exited: Promise<{ code: number | null; stdout: string[]; stderr: string }>;
}

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * src/main.ts as npm start runs it, in production. It is listening once its JSON `listening` line
 * (host and port) is out: a line that does not parse is reported as the failure it is.
 */
function startProduction(databaseUrl: string, env: Record<string, string>): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './src/telemetry/preload.ts', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      TOKEN_SIGNING_SECRET: 'production-logs-test-signing-secret-0123456789',
      DEVICE_SIGNING_KEYS: `p:${generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url')}`,
      DEVICE_UNLOCK_SEALING_KEYS: `p:${randomBytes(32).toString('base64url')}`,
      ...env,
    },
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  const lines = () => out.split('\n').slice(0, -1);
  const exited = new Promise<{ code: number | null; stdout: string[]; stderr: string }>((done) =>
    child.on('close', (code) => done({ code, stdout: lines(), stderr: err })),
  );
  child.stderr!.on('data', (chunk) => {
    err += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      for (const text of lines()) {
        let line: Line;
        try {
          line = JSON.parse(text);
        } catch {
          reject(new Error(`a stdout line that is not JSON: ${text}`));
          return;
        }
        if (line.msg === 'listening' && typeof line.port === 'number')
          resolve({ baseUrl: `http://127.0.0.1:${line.port}`, child, stdout: lines, exited });
      }
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code} before listening:\n${out}${err}`)));
  });
}

/** Every line parses as one JSON object with an ISO time of this run and a level's name; the objects. */
function parsedLines(stdout: string[], startedAt: number): Line[] {
  return stdout.map((text) => {
    const line = JSON.parse(text) as Line;
    expect(typeof line === 'object' && line !== null && !Array.isArray(line), text).toBe(true);
    expect(line.time, text).toMatch(ISO_TIME);
    expect(Date.parse(line.time as string), text).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(Date.parse(line.time as string), text).toBeLessThanOrEqual(Date.now() + 1000);
    expect(LEVEL_NAMES, text).toContain(line.level);
    expect(line, text).not.toHaveProperty('traceId');
    return line;
  });
}

const requestLine = (lines: Line[], requestId: string) => lines.filter((line) => line.requestId === requestId);

async function get(baseUrl: string, path: string, requestId: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { 'x-request-id': requestId, ...headers } });
  await response.arrayBuffer();
  return response.status;
}

describe.skipIf(!onPostgres)('a production process, on stdout', () => {
  let databaseUrl: string;
  let receiver: Server;
  let receiverUrl: string;
  let exported = 0;
  beforeAll(async () => {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => database.drop());
    databaseUrl = database.url;
    // The release step: production does not migrate at start.
    const db = createDb({ databaseUrl, dataDir: null });
    await migrateLatest(db);
    await db.destroy();
    // Where the traced run exports (OTLP over HTTP, JSON encoding): every post answered as a collector does.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        exported += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    receiver.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.once('listening', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    cleanups.push(() => new Promise((resolve) => receiver.close(resolve)));
  });

  it('at info: JSON lines only, from start to exit; probes and the scrape unlogged unless they fail', async () => {
    const startedAt = Date.now();
    // A retired setting still set (decisions.md 42): the start goes on and says so once.
    const run = await startProduction(databaseUrl, {
      LOG_LEVEL: 'info',
      DRAIN_DELAY_MS: '1500',
      GRAPHQL_EXECUTOR: 'graphql-js',
    });
    for (const [index, path] of PROBES.entries()) expect(await get(run.baseUrl, path, `probe-${index}`)).toBe(200);
    expect(await get(run.baseUrl, '/v1/list-clerks.php?key=no-such-key', 'a-request')).toBe(401);
    // Draining: /readyz answers 503, and that probe is logged.
    run.child.kill('SIGTERM');
    let draining = 0;
    for (let tries = 0; tries < 50 && draining !== 503; tries++) {
      draining = await get(run.baseUrl, '/readyz', 'probe-draining');
      if (draining !== 503) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(draining).toBe(503);
    const { code, stdout, stderr } = await run.exited;
    expect(code, stderr).toBe(0);

    const lines = parsedLines(stdout, startedAt);
    expect(lines.find((line) => line.msg === 'listening')).toMatchObject({ level: 'info', host: '127.0.0.1' });
    expect(lines.some((line) => line.msg === 'stopped')).toBe(true);
    expect(lines.filter((line) => line.setting === 'GRAPHQL_EXECUTOR')).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: expect.stringMatching(/^GRAPHQL_EXECUTOR is retired and ignored: /),
      }),
    ]);
    for (const index of PROBES.keys()) expect(requestLine(lines, `probe-${index}`)).toEqual([]);
    expect(requestLine(lines, 'a-request')).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request', route: '/v1/list-clerks.php', status: 401 }),
    ]);
    expect(requestLine(lines, 'probe-draining').at(-1)).toMatchObject({ level: 'info', route: '/readyz', status: 503 });
    // Tracing off: no trace context anywhere.
    expect(lines.filter((line) => 'trace_id' in line || 'span_id' in line)).toEqual([]);
  }, 120_000);

  it("at debug with tracing on: the probes at debug, the request line in the caller's trace, the SDK's diagnostics as JSON", async () => {
    const startedAt = Date.now();
    const run = await startProduction(databaseUrl, {
      LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_LOG_LEVEL: 'debug',
    });
    for (const [index, path] of PROBES.entries()) expect(await get(run.baseUrl, path, `probe-${index}`)).toBe(200);
    const traceId = '3c0a7d2e9f1b4c5d8e6f7a8b9c0d1e2f';
    const traceparent = `00-${traceId}-1a2b3c4d5e6f7081-01`;
    expect(await get(run.baseUrl, '/v1/list-clerks.php?key=no-such-key', 'a-request', { traceparent })).toBe(401);
    run.child.kill('SIGTERM');
    const { code, stdout, stderr } = await run.exited;
    expect(code, stderr).toBe(0);

    const lines = parsedLines(stdout, startedAt);
    for (const [index, path] of PROBES.entries()) {
      expect(requestLine(lines, `probe-${index}`)).toEqual([
        expect.objectContaining({ level: 'debug', msg: 'request', route: path, status: 200 }),
      ]);
    }
    const [request] = requestLine(lines, 'a-request');
    expect(request).toMatchObject({ level: 'info', status: 401, trace_id: traceId, trace_flags: '01' });
    // The service's own server span: a child of the caller's, not the caller's.
    expect(request!.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(request!.span_id).not.toBe('1a2b3c4d5e6f7081');
    // The SDK talked (OTEL_LOG_LEVEL=debug), in the log's JSON, and the spans went out on SIGTERM.
    expect(lines.filter((line) => line.component === 'opentelemetry').length).toBeGreaterThan(0);
    expect(exported).toBeGreaterThan(0);
  }, 120_000);
});
