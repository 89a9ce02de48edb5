// npm run bench [-- --customers 20000 --duration 10 --warmup 5 --connections 32 --keep]
//
// Issue 7, item 2: the benchmark. On the Postgres server named by BENCH_DATABASE_URL (an admin URL
// that may CREATE DATABASE; default postgres://postgres@127.0.0.1:5432/postgres) it creates a fresh
// database dfs_bench_<random>, migrates it, fills it (the data-set generator `npm run bench:data`),
// starts the service (src/main.ts) and the baseline (bench/baseline-server.ts: the bare lookup, and
// the bare payment of bench/baseline-payment.ts) as separate processes, and loads them from this
// process on loopback with autocannon: a fixed duration per scenario, after a short warm-up (the
// lookups and payments in turns with their baselines, so the machine's drift falls on both alike). It
// reports requests per second and p50/p99 latency, each service figure with its ratio to its own
// baseline's requests per second in the same run (a scenario's `baseline` names it), where each
// run's CPU went (the answering process, Postgres, the load generator: bench/cpu.ts), the service's
// peak resident memory, and whether the ledger is clean after the payments. Issue 15: it also runs
// pgbench's TPC-B-like transaction (-M prepared) in a database of its own on the same server, the
// floor of the server itself, and holds the payments' rate against its tps. Writes
// bench/results.json and bench/results.svg; drops the databases.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import knex from 'knex';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { checkLedger } from '../src/ledger/check.js';
import { listSizeOf } from '../src/listSize.js';
import { displayPrefix, hashApiKey } from '../src/modules/auth/keys.js';
import { queueDepth } from '../src/modules/webhooks/queue.js';
import { buildSchema } from '../src/schema.js';

/** A page of Query.transactions, as the SDL bounds it. */
const MAX_PAGE = listSizeOf(buildSchema(), 'Query', 'transactions')!.max;

import { renderChart } from './chart.js';
import { addCpu, type CpuPerRequest, type CpuSpent, cpuBetween, cpuPerRequest, cpuReadable, readCpu } from './cpu.js';
import type { GraphqlExecutionFigures } from './graphql-execution.js';
import { type ProfileSummary, summariseProfile } from './profile.js';

/** The doors --profile profiles, by scenario name: the service's and, to set beside them, the bare baselines'. */
const PROFILED_DOORS = [
  'baseline-lookup-customer',
  'baseline-record-customer-payment',
  'baseline-list-transactions-1-day',
  'rest-lookup-customer',
  'graphql-lookup-customer',
  'rest-record-customer-payment',
  'rest-list-transactions-1-day',
  'rest-list-transactions-10-000-rows',
] as const;

/** A request autocannon hands to setupRequest, to return changed. */
type AutocannonRequest = autocannon.Request;

import { runGenerator } from './fill.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where `tsx scripts/build.ts --bench` compiles the service and bench/ (tsconfig.bench.json). */
const BUILD_DIR = join(ROOT, 'dist-bench');
const DAY = 86_400;
/** Turns in which a baseline and the scenarios held against it share their measured duration (Scenario.inTurns). */
const TURNS = 5;

const { values: args } = parseArgs({
  options: {
    customers: { type: 'string', default: '20000' },
    duration: { type: 'string', default: '10' },
    // Seconds of load before each measured run, for both processes alike: the service has far more
    // code for V8 to compile than the baseline, and 2 s left it measured half-warm.
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    out: { type: 'string', default: 'bench' },
    keep: { type: 'boolean', default: false },
    // Run the service and the baselines from their TypeScript sources through tsx, as npm start does,
    // instead of compiled (npm run build) as production runs them: the lever's own measurement.
    'from-source': { type: 'boolean', default: false },
    // After the measured runs, each hot door once more on a service under node --cpu-prof: where its
    // time goes (bench/profile.ts), in results.json and printed.
    profile: { type: 'boolean', default: false },
    // Comma-separated words: only the scenarios whose names contain one (and their baselines), e.g.
    // --only lookup,payment, to measure one lever quickly; the other phases run as always.
    only: { type: 'string', default: '' },
    // GRAPHQL_EXECUTOR of every service process: jit (the default) or graphql-js, the lever's measurement.
    executor: { type: 'string', default: 'jit' },
    // V8's young generation (--max-semi-space-size, MB; V8 rounds it up to a power of two) of every
    // process the bench starts; absent: npm run start:prod's (V8's default); 0: V8's default. The
    // lever's measurement (README, Performance).
    'semi-space': { type: 'string' },
  },
});
const fromSource = args['from-source'];
const only = args.only.split(',').filter(Boolean);
if (args.executor !== 'jit' && args.executor !== 'graphql-js')
  fail(`--executor must be jit or graphql-js, got "${args.executor}"`);
const customers = positive('customers', args.customers);
const duration = positive('duration', args.duration);
const warmup = Number(args.warmup);
const lookupConnections = positive('connections', args.connections);
/** The payments (service, bare baseline, and pgbench's clients) run at the lookups' connections. */
const paymentConnections = lookupConnections;
const outDir = resolve(ROOT, args.out);

function positive(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) fail(`--${name} must be a positive number, got "${raw}"`);
  return value;
}

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

const log = (message: string) => process.stdout.write(`${message}\n`);
const started = Date.now();
const phases: Record<string, number> = {};
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const at = Date.now();
  try {
    return await work();
  } finally {
    phases[name] = Math.round((Date.now() - at) / 100) / 10;
  }
}

// ---------------------------------------------------------------- the database

const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** The server runs on this machine: its processes' CPU is read beside the service's (bench/cpu.ts). */
const postgresLocal = ['127.0.0.1', 'localhost', '[::1]', ''].includes(new URL(adminUrl).hostname);
const dbName = `dfs_bench_${randomBytes(4).toString('hex')}`;
const dbUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
})();

async function withAdmin<T>(work: (admin: knex.Knex) => Promise<T>): Promise<T> {
  const admin = knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  try {
    return await work(admin);
  } finally {
    await admin.destroy();
  }
}

// ---------------------------------------------------------------- child processes

const children: ChildProcess[] = [];

/**
 * The V8 settings npm run start:prod starts the service with (its heap cap; a young generation if it
 * sets one), read from package.json so the bench runs what production runs, and --semi-space's young
 * generation instead if given. The young generation, which sets how much garbage may pile up before a
 * collection, applies to the bare baselines too: they run in the same process setup, never a
 * handicapped one.
 */
const serviceV8Flags: string[] = (() => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const flags = scripts['start:prod']!.split(' ').filter((word) => /^--max-(old|semi)-space-size=\d+$/.test(word));
  const semiSpace = args['semi-space'];
  if (semiSpace === undefined) return flags;
  if (!/^\d+$/.test(semiSpace)) fail(`--semi-space must be a whole number of MB (0: V8's default), got "${semiSpace}"`);
  const kept = flags.filter((flag) => !flag.startsWith('--max-semi-space-size='));
  return semiSpace === '0' ? kept : [...kept, `--max-semi-space-size=${semiSpace}`];
})();
/** The baselines need no heap cap; they share the service's young generation. */
const baselineV8Flags = serviceV8Flags.filter((flag) => flag.startsWith('--max-semi-space-size='));

/**
 * How node starts an entry (a TypeScript path such as src/main.ts): as production does (npm run
 * start:prod: the compiled JavaScript of the bench's build, the telemetry preload, the heap cap), or
 * with --from-source through tsx, as npm start does.
 */
function nodeArguments(entry: string): string[] {
  // The design's core (bench/core-server.ts) starts as the service does: the two differ in their layers only.
  const service = entry === 'src/main.ts' || entry === 'bench/core-server.ts';
  const heap = service ? serviceV8Flags : baselineV8Flags;
  if (fromSource)
    return [...heap, '--import', 'tsx', ...(service ? ['--import', './src/telemetry/preload.ts'] : []), entry];
  const compiled = (path: string) => join(BUILD_DIR, path.replace(/\.ts$/, '.js'));
  return [...heap, ...(service ? ['--import', compiled('src/telemetry/preload.ts')] : []), compiled(entry)];
}

interface ErrorLog {
  count: number;
  samples: string[];
}

function startProcess(
  name: string,
  entry: string,
  env: Record<string, string>,
  errorLog: ErrorLog = { count: 0, samples: [] },
  nodeFlags: readonly string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolvePort, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, ...nodeArguments(entry)], {
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
        // The service logs JSON lines (pino) to stdout: keep count of error-level ones and a few samples.
        let partial = '';
        child.stdout?.on('data', (more: Buffer) => {
          const lines = (partial + more.toString()).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) {
            const level = /"level":(\d+)/.exec(line);
            if (!level || Number(level[1]) < 50) continue;
            errorLog.count += 1;
            if (errorLog.samples.length < 5) {
              const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? line;
              errorLog.samples.push(
                message.length > 240 ? `${message.slice(0, 100)} … ${message.slice(-130)}` : message,
              );
            }
          }
        });
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

function stopProcess(child: ChildProcess): Promise<void> {
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
function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- pgbench, the server's own floor

/** pgbench's summary of a run: transactions per second without the initial connection time. */
interface PgbenchResult {
  tps: number;
  transactions: number;
  failed: number;
  latencyAverageMs: number | null;
}

function pgbench(args: readonly string[]): Promise<string> {
  return new Promise((done, reject) =>
    execFile('pgbench', [...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`pgbench ${args.join(' ')} failed: ${stderr || error.message}`)) : done(stdout),
    ),
  );
}

/** Reads pgbench's report (Postgres 14 and later: "without initial connection time"; before: "excluding connections establishing"). */
function parsePgbench(output: string): PgbenchResult {
  const tps = /^tps = ([0-9.]+) \((?:without initial connection time|excluding connections establishing)\)/m.exec(
    output,
  );
  if (!tps) throw new Error(`pgbench printed no tps:\n${output}`);
  const number = (pattern: RegExp) => {
    const match = pattern.exec(output);
    return match ? Number(match[1]) : null;
  };
  return {
    tps: round(Number(tps[1])),
    transactions: number(/^number of transactions actually processed: (\d+)/m) ?? 0,
    failed: number(/^number of failed transactions: (\d+)/m) ?? 0,
    latencyAverageMs: number(/^latency average = ([0-9.]+) ms/m),
  };
}

// ---------------------------------------------------------------- the load

/**
 * Which process answers: the service as it runs in production, the same service counting its request
 * limits in Redis, the design's core (bench/core-server.ts: the same doors without the layers
 * operations add to every request), or the bare baseline.
 */
type Target = 'service' | 'redis' | 'core' | 'baseline';

interface Scenario {
  name: string;
  label: string;
  target: Target;
  /**
   * The name of the baseline scenario (run before this one) whose rate this one's ratio is against:
   * the lookups against the bare lookup, the payment against the bare payment. None: no ratio (the
   * transaction lists have no bare baseline yet; one names it here once it has).
   */
  baseline?: string;
  connections: number;
  /** Builds autocannon's options for the port. */
  options: (port: number) => autocannon.Options;
  /** For GraphQL, a 200 whose body carries "errors" is a failure. */
  graphql?: boolean;
  rows?: number;
  /**
   * Measured in turns with its baseline and the other scenarios held against it (TURNS each, in
   * alternating order), instead of in one run after theirs: short requests only (the lookups and
   * payments), whose turns of a few seconds each still hold thousands of answers.
   */
  inTurns?: boolean;
}

interface Measured {
  name: string;
  label: string;
  target: Target;
  /** The baseline scenario the ratio is against (a baseline's own ratio is 1); null: no ratio. */
  baseline: string | null;
  connections: number;
  durationSeconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  ratioToBaseline: number | null;
  non2xx: number;
  errors: number;
  timeouts: number;
  graphqlErrors: number;
  rowsPerResponse?: number;
  bytesPerResponse: number;
  serviceRssPeakBytes: number | null;
  /** Seconds spent waiting for the service to finish the previous run's requests. */
  settledBeforeSeconds: number;
  /** The machine's 1-minute load average when the run started and ended: other work on the machine shows here. */
  loadAverage: { before: number; after: number };
  /** Where the run's CPU went, per request (bench/cpu.ts): the answering process, Postgres, the load generator, the machine. */
  cpu: CpuPerRequest | null;
  /** How many turns the duration was measured in (1: one run). */
  turns: number;
}

/** One autocannon run; `onResponseTime` hears each answer's latency in ms (a scenario's turns pool them). */
function run(options: autocannon.Options, onResponseTime?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((done, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : done(result)));
    if (onResponseTime)
      instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => onResponseTime(ms));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/** Latency figures of pooled answer times, as autocannon reports its own. */
function latencyOf(times: number[]): Measured['latencyMs'] {
  if (times.length === 0) return { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!, 0);
  const mean = sorted.reduce((sum, time) => sum + time, 0) / sorted.length;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(sorted.at(-1)!, 0), mean: round(mean, 2) };
}

/** A CPU figure per request as printed; unknown (no reading) as "?". */
const cpuMs = (value: number | null | undefined) => (value == null ? '?' : `${value.toFixed(2)} ms`);

/**
 * Two runs' CPU per request side by side, as a missed target's bound: the answering process (named as
 * `names.process`), Postgres, the load generator's process when `names.loadGenerator` names it, and the
 * whole machine with how busy its cores were.
 */
function cpuAgainst(a: CpuPerRequest, b: CpuPerRequest, names: { process: string; loadGenerator?: string }): string {
  const pair = (label: string, x: number | null, y: number | null) => `${label} ${cpuMs(x)} against ${cpuMs(y)}`;
  return [
    pair(names.process, a.processMs, b.processMs),
    pair('Postgres', a.postgresMs, b.postgresMs),
    ...(names.loadGenerator ? [pair(names.loadGenerator, a.loadGeneratorMs, b.loadGeneratorMs)] : []),
    `${pair('the whole machine', a.machineMs, b.machineMs)} (cores ${Math.round(a.machineBusy * 100)}% and ${Math.round(b.machineBusy * 100)}% busy)`,
  ].join(', ');
}

/** A run's CPU per request, as printed: the answering process, Postgres, the load generator, and the machine. */
function describeCpu(cpu: CpuPerRequest): string {
  return `its process ${cpuMs(cpu.processMs)}, Postgres ${cpuMs(cpu.postgresMs)}, autocannon ${cpuMs(cpu.loadGeneratorMs)}; the machine ${cpuMs(cpu.machineMs)} (${Math.round(cpu.machineBusy * 100)}% of ${cpu.cores} cores busy)`;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------- main

let db: Db | null = null;
let created = false;
let cleaningUp: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaningUp ??= (async () => {
    await Promise.all(children.map(stopProcess));
    if (db) await db.destroy().catch(() => undefined);
    if (created && !args.keep) {
      await withAdmin((admin) => admin.raw('drop database if exists ?? with (force)', [dbName])).catch(
        (error: unknown) => process.stderr.write(`bench: could not drop ${dbName}: ${String(error)}\n`),
      );
    } else if (created) log(`kept database ${dbName} (--keep): ${dbUrl}`);
  })();
  return cleaningUp;
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));

try {
  await main();
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanup();
}

async function main(): Promise<void> {
  const busy = os.loadavg()[0] ?? 0;
  if (busy > os.cpus().length * 0.5)
    log(
      `bench: warning: the machine is busy (1-minute load average ${busy.toFixed(2)} on ${os.cpus().length} CPUs); figures will be lower than on an idle machine`,
    );
  log(
    `bench: ${customers} customers, ${duration} s per scenario (+${warmup} s warm-up), ${lookupConnections} connections for lookups`,
  );

  // 0. The service and the baselines compiled, as production runs them (unless --from-source).
  if (!fromSource)
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

  // 1. A fresh database, migrated and filled.
  await phase('createAndMigrate', async () => {
    await withAdmin((admin) => admin.raw('create database ??', [dbName]));
    created = true;
    db = createDb({ databaseUrl: dbUrl, dataDir: null, poolMax: 4 });
    await migrateLatest(db);
  });
  log(`database ${dbName}: filling with npm run bench:data`);
  await phase('fill', async () => {
    await (db as unknown as Db).destroy(); // the generator may want the database to itself
    await runGenerator(ROOT, dbUrl, customers);
    db = createDb({ databaseUrl: dbUrl, dataDir: null, poolMax: 4 });
  });
  const data = db as unknown as Db;
  const counts = Object.fromEntries(
    await Promise.all(
      ['partners', 'merchants', 'clerks', 'customers', 'devices', 'finance_orders', 'payments', 'transactions'].map(
        async (table) => {
          const row = (await data.raw(`select count(*)::int8 as n from ??`, [table])).rows[0] as { n: string };
          return [table, Number(row.n)] as const;
        },
      ),
    ),
  );
  log(
    `data: ${Object.entries(counts)
      .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
      .join(', ')}`,
  );

  // 2. What to ask for: the busiest partner, keys of its own, locators, orders, windows.
  const partner = (
    await data.raw(`select partner_id from finance_orders group by partner_id order by count(*) desc limit 1`)
  ).rows[0]?.partner_id as string | undefined;
  if (!partner) throw new Error('the filled database holds no finance orders');
  const partnerKey = `bench-partner-${randomBytes(12).toString('hex')}`;
  const retailKey = `bench-retail-${randomBytes(12).toString('hex')}`;
  await data('api_keys').insert(
    [
      { key: partnerKey, kind: 'partner' },
      { key: retailKey, kind: 'retail' },
    ].map(({ key, kind }) => ({
      key_hash: hashApiKey(key),
      display_prefix: displayPrefix(key),
      kind,
      partner_id: partner,
      label: `bench ${kind} key`,
    })),
  );
  const sample = (
    await data.raw(
      `select dd.imei, dd.tag, c.phone_number, c.id::text as customer_id
       from finance_orders o
       join device_directory dd on dd.partner_id = o.partner_id and dd.device_id = o.device_id
       join customers c on c.partner_id = o.partner_id and c.id = o.customer_id
       where o.partner_id = ? order by random() limit 2000`,
      [partner],
    )
  ).rows as Array<{ imei: string; tag: string; phone_number: string | null; customer_id: string }>;
  const sharedPhones = new Set(
    (
      await data.raw(
        `select phone_number from customers where partner_id = ? and phone_number = any(?) group by phone_number having count(*) > 1`,
        [partner, sample.map((row) => row.phone_number).filter((phone): phone is string => Boolean(phone))],
      )
    ).rows.map((row: { phone_number: string }) => row.phone_number),
  );
  const locators = {
    imei: sample.map((row) => row.imei),
    tag: sample.map((row) => row.tag),
    phone: sample
      .map((row) => row.phone_number)
      .filter((phone): phone is string => Boolean(phone) && !sharedPhones.has(phone)),
    customerId: sample.map((row) => row.customer_id),
  };
  const kinds = (Object.keys(locators) as Array<keyof typeof locators>).filter((kind) => locators[kind].length > 0);
  if (kinds.length === 0) throw new Error('no locators to look up');
  const randomLocator = () => pick(locators[pick(kinds)]);

  const orders = (
    await data.raw(
      `select id::text, merchant_id::text, clerk_id::text, currency from finance_orders
       where partner_id = ? and merchant_id is not null and clerk_id is not null and monthly_cost_minor * months - total_paid_minor >= 2000
       order by random() limit 2000`,
      [partner],
    )
  ).rows as Array<{ id: string; merchant_id: string; clerk_id: string; currency: string }>;
  if (orders.length === 0) throw new Error('no finance order with a balance to pay');

  const latest = (
    await data.raw(`select extract(epoch from max(occurred_at))::int8 as at from transactions where partner_id = ?`, [
      partner,
    ])
  ).rows[0]?.at as string | null;
  if (!latest) throw new Error('the partner has no transactions');
  // Windows end at the start of the UTC day of the partner's latest transaction: that day may be partial.
  const end = Math.floor(Number(latest) / DAY) * DAY;
  const tenThousandth = (
    await data.raw(
      `select extract(epoch from occurred_at)::int8 as at from transactions where partner_id = ? and occurred_at < to_timestamp(?) and occurred_at >= to_timestamp(?)
       order by occurred_at desc offset 9999 limit 1`,
      [partner, end, end - 366 * DAY + DAY],
    )
  ).rows[0]?.at as string | undefined;
  const windows: Record<string, { start: number; end: number }> = {
    '1 day': { start: end - DAY, end },
    '30 days': { start: end - 30 * DAY, end },
    ...(tenThousandth ? { '10,000 rows': { start: Number(tenThousandth), end } } : {}),
  };

  // 3. The processes. Every service process runs as in production (graphql-js also skips its
  // development-only checks there) unless told otherwise, with limits no run reaches.
  const serviceEnvironment = (name: string, overrides: Record<string, string> = {}) => ({
    DATABASE_URL: dbUrl,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: join(os.tmpdir(), `${dbName}-${name}`),
    TOKEN_SIGNING_SECRET: randomBytes(32).toString('hex'),
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    GRAPHQL_EXECUTOR: args.executor,
    ...overrides,
  });
  const baselineEnvironment = { DATABASE_URL: dbUrl, PORT: '0', DATABASE_POOL_MAX: '10' };
  const serviceErrors: ErrorLog = { count: 0, samples: [] };
  const { child: service, port: servicePort } = await phase('startService', () =>
    startProcess('service', 'src/main.ts', serviceEnvironment('main'), serviceErrors),
  );
  const { child: baseline, port: baselinePort } = await phase('startBaseline', () =>
    startProcess('baseline', 'bench/baseline-server.ts', baselineEnvironment),
  );
  const { child: core, port: corePort } = await phase('startCore', () =>
    startProcess('core', 'bench/core-server.ts', serviceEnvironment('core'), serviceErrors),
  );
  // Issue 14: the request limits are counted in Postgres by default (in the key's own statement,
  // src/limits/postgresCounts.ts); one more service process counts them in Redis (BENCH_REDIS_URL or
  // the local server), measured in the lookups' turns beside the Postgres-counted one.
  const redisUrl = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
  const { child: redisCounted, port: redisPort } = await phase('startLimitsInRedis', () =>
    startProcess('service (limits in Redis)', 'src/main.ts', serviceEnvironment('redis', { REDIS_URL: redisUrl })),
  );
  const servicePid = service.pid as number;
  /** The process answering each target's scenarios. */
  const answeringProcess: Record<Target, { port: number; pid: number }> = {
    service: { port: servicePort, pid: servicePid },
    redis: { port: redisPort, pid: redisCounted.pid as number },
    core: { port: corePort, pid: core.pid as number },
    baseline: { port: baselinePort, pid: baseline.pid as number },
  };
  const serviceRssAtStart = procStatus(servicePid, 'VmRSS');
  log(
    `service pid ${servicePid} on port ${servicePort} (RSS ${mb(serviceRssAtStart)} MB at start); the design's core on port ${corePort}; baseline on port ${baselinePort}`,
  );

  // 4. The scenarios.
  const operation = (file: string) => readFileSync(join(ROOT, 'src/rest/operations', `${file}.graphql`), 'utf8');
  const lookupDocument = operation('lookupCustomer');
  const transactionsDocument = operation('listTransactions');
  const lookupPath = (key: string) =>
    `/v1/lookup-customer.php?key=${key}&customerLocator=${encodeURIComponent(randomLocator())}`;
  const transactionsPath = (window: { start: number; end: number }) =>
    `/v1/list-transactions.php?key=${partnerKey}&starttime=${window.start}&endtime=${window.end}`;
  const graphqlRequest = (query: string, variables: () => Record<string, unknown>) => ({
    method: 'POST' as const,
    path: '/graphql',
    headers: { 'content-type': 'application/json', 'x-api-key': partnerKey },
    setupRequest: (request: AutocannonRequest) => ({
      ...request,
      body: JSON.stringify({ query, variables: variables() }),
    }),
  });
  const base = (port: number, connections: number) => ({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    timeout: 30,
  });

  // Every process answers the same lookups: the bare code, the service and the design's core, all with
  // the partner key; one row sends each with one of partner 1's 250 store keys (the odd ones, none
  // revoked) picked at random, so that almost no two lookups under way share a key (src/db/turnBatches.ts).
  const restLookupsWith = (key: () => string) => (port: number) => ({
    ...base(port, lookupConnections),
    requests: [
      {
        method: 'GET' as const,
        setupRequest: (request: AutocannonRequest) => ({ ...request, path: lookupPath(key()) }),
      },
    ],
  });
  const restLookups = restLookupsWith(() => partnerKey);
  const restLookupsOverStoreKeys = restLookupsWith(() => `bench-store-key-${2 * Math.floor(Math.random() * 250) + 1}`);
  const graphqlLookups = (port: number) => ({
    ...base(port, lookupConnections),
    requests: [graphqlRequest(lookupDocument, () => ({ locator: randomLocator(), withDescription: false }))],
  });
  const lookup = { baseline: 'baseline-lookup-customer', connections: lookupConnections, inTurns: true };

  const scenarios: Scenario[] = [
    {
      name: 'baseline-lookup-customer',
      label: 'baseline: express + pg lookup',
      target: 'baseline',
      connections: lookupConnections,
      inTurns: true,
      options: restLookups,
    },
    { name: 'rest-lookup-customer', label: 'REST lookup-customer', target: 'service', ...lookup, options: restLookups },
    {
      name: 'rest-lookup-customer-store-keys',
      label: 'REST lookup-customer (250 keys)',
      target: 'service',
      ...lookup,
      options: restLookupsOverStoreKeys,
    },
    {
      name: 'redis-rest-lookup-customer',
      label: 'REST lookup-customer (limits in Redis)',
      target: 'redis',
      ...lookup,
      options: restLookups,
    },
    {
      name: 'core-rest-lookup-customer',
      label: 'REST lookup-customer (core)',
      target: 'core',
      ...lookup,
      options: restLookups,
    },
    {
      name: 'graphql-lookup-customer',
      label: 'GraphQL customer(locator)',
      target: 'service',
      ...lookup,
      graphql: true,
      options: graphqlLookups,
    },
    {
      name: 'core-graphql-lookup-customer',
      label: 'GraphQL customer(locator) (core)',
      target: 'core',
      ...lookup,
      graphql: true,
      options: graphqlLookups,
    },
  ];
  // The payments before the transaction windows: a window the service cannot answer must not spoil them.
  // The bare payment first, on the baseline process, with the same requests: its rate is the service's 1.
  const payments = (port: number) => ({
    ...base(port, paymentConnections),
    requests: [
      {
        method: 'GET' as const,
        setupRequest: (request: AutocannonRequest) => {
          const order = pick(orders);
          return {
            ...request,
            path: `/v1/record-customer-payment.php?key=${retailKey}&merchantId=${order.merchant_id}&salesClerkId=${order.clerk_id}&financeOrderId=${order.id}&amount=0.50&currency=${order.currency}`,
            headers: { ...request.headers, 'idempotency-key': randomUUID() },
          };
        },
      },
    ],
  });
  scenarios.push(
    {
      name: 'baseline-record-customer-payment',
      label: 'baseline: express + pg payment',
      target: 'baseline',
      connections: paymentConnections,
      inTurns: true,
      options: payments,
    },
    {
      name: 'rest-record-customer-payment',
      label: 'REST record-customer-payment',
      target: 'service',
      baseline: 'baseline-record-customer-payment',
      connections: paymentConnections,
      inTurns: true,
      options: payments,
    },
    {
      name: 'core-rest-record-customer-payment',
      label: 'REST record-customer-payment (core)',
      target: 'core',
      baseline: 'baseline-record-customer-payment',
      connections: paymentConnections,
      inTurns: true,
      options: payments,
    },
  );
  // The transaction lists: REST against the bare list (bench/baseline-transactions.ts, the same statements
  // and bytes); GraphQL answers one page, which has no bare counterpart: no ratio.
  for (const [windowName, window] of Object.entries(windows)) {
    // A whole window per request: fewer connections than the lookups; 2 for 30 days, 1 for 10,000 rows.
    const connections = windowName === '1 day' ? 8 : windowName === '30 days' ? 2 : 1;
    const slug = windowName.replace(/[^0-9a-z]+/gi, '-').replace(/-$/, '');
    const listOptions = (port: number) => ({
      ...base(port, connections),
      requests: [{ method: 'GET' as const, path: transactionsPath(window) }],
    });
    scenarios.push(
      {
        name: `baseline-list-transactions-${slug}`,
        label: `baseline: express + pg list, ${windowName}`,
        target: 'baseline',
        connections,
        options: listOptions,
      },
      {
        name: `rest-list-transactions-${slug}`,
        label: `REST list-transactions, ${windowName}`,
        target: 'service',
        baseline: `baseline-list-transactions-${slug}`,
        connections,
        options: listOptions,
      },
      {
        name: `graphql-list-transactions-${slug}`,
        // /graphql answers a page (at most MAX_PAGE rows): a dashboard follows endCursor for the rest.
        label: `GraphQL transactions, first page of ${windowName}`,
        target: 'service',
        connections,
        graphql: true,
        options: (port) => ({
          ...base(port, connections),
          requests: [graphqlRequest(transactionsDocument, () => ({ start: window.start, end: window.end }))],
        }),
      },
    );
  }

  // --only: the scenarios whose names contain one of its words, and the baselines they name.
  if (only.length) {
    const chosen = scenarios.filter((scenario) => only.some((word) => scenario.name.includes(word)));
    const needed = new Set(chosen.flatMap((scenario) => [scenario.name, scenario.baseline ?? []].flat()));
    scenarios.splice(0, scenarios.length, ...scenarios.filter((scenario) => needed.has(scenario.name)));
    // Thrown, not fail(): the processes are up by now, and the cleanup after main stops them and drops the database.
    if (!scenarios.length) throw new Error(`--only ${args.only}: no scenario's name contains any of its words`);
  }

  // Rows per response of each window, from one REST request of each; a failing window is recorded
  // (and its scenarios still run, counting the failures), the rows then counted in SQL.
  const rows: Record<string, number> = {};
  const probes: Record<string, { status: number; ms: number; rows: number | null; body?: string }> = {};
  for (const [windowName, window] of Object.entries(windows)) {
    const at = performance.now();
    const response = await fetch(`http://127.0.0.1:${servicePort}${transactionsPath(window)}`);
    const text = await response.text();
    const ms = round(performance.now() - at);
    let listed: unknown;
    try {
      listed = (JSON.parse(text) as { transactions?: unknown }).transactions;
    } catch {
      listed = undefined;
    }
    if (response.ok && Array.isArray(listed)) {
      rows[windowName] = listed.length;
      probes[windowName] = { status: response.status, ms, rows: listed.length };
    } else {
      const counted = (
        await data.raw(
          `select count(*)::int8 as n from transactions where partner_id = ? and occurred_at >= to_timestamp(?) and occurred_at < to_timestamp(?)`,
          [partner, window.start, window.end],
        )
      ).rows[0] as { n: string };
      rows[windowName] = Number(counted.n);
      probes[windowName] = { status: response.status, ms, rows: null, body: text.slice(0, 300) };
      log(
        `list-transactions, ${windowName}: the service answered ${response.status} in ${ms} ms (${rows[windowName]} rows in the window): ${text.slice(0, 200)}`,
      );
    }
  }
  log(
    `windows (partner ${partner}): ${Object.entries(windows)
      .map(([name, w]) => `${name} ${w.start}..${w.end} = ${rows[name]} rows`)
      .join('; ')}`,
  );

  // Between runs, the service must be idle: autocannon stops at the deadline but the service still
  // answers what it had received (it does not cancel on a closed socket). Wait until /healthz answers
  // promptly three times in a row and no statement of the service runs on the bench database.
  const settle = async (port = servicePort): Promise<number> => {
    const at = Date.now();
    let quiet = 0;
    while (quiet < 3 && Date.now() - at < 180_000) {
      const asked = performance.now();
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`, {
        signal: AbortSignal.timeout(5000),
      }).then(
        (r) => r.ok,
        () => false,
      );
      const prompt = healthy && performance.now() - asked < 100;
      const active = (
        await data.raw(
          `select count(*)::int as n from pg_stat_activity where datname = ? and state <> 'idle' and pid <> pg_backend_pid()`,
          [dbName],
        )
      ).rows[0] as { n: number };
      quiet = prompt && Number(active.n) === 0 ? quiet + 1 : 0;
      await new Promise((done) => setTimeout(done, quiet ? 100 : 500));
    }
    return round((Date.now() - at) / 1000);
  };

  // pgbench's TPC-B-like transaction, prepared, in a fresh database of its own on the same server, with
  // the payments' connections as clients: the rate at which this server commits small write
  // transactions, the floor under any payment's. Scale = clients (TPC-B's rule: at least one branch
  // row per client, so the clients do not all queue on one row); a warm-up as long as the scenarios'.
  const pgbenchResult = await phase('pgbench', async () => {
    const name = `${dbName}_pgbench`;
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const scale = paymentConnections;
    const threads = 2;
    await withAdmin((admin) => admin.raw('create database ??', [name]));
    try {
      await pgbench(['-i', '-q', '-s', String(scale), '-I', 'dtGvp', url.toString()]);
      const runArgs = ['-M', 'prepared', '-c', String(paymentConnections), '-j', String(threads)];
      if (warmup > 0) await pgbench([...runArgs, '-T', String(Math.ceil(warmup)), url.toString()]);
      const output = await pgbench([...runArgs, '-T', String(Math.ceil(duration)), url.toString()]);
      return {
        version: (await pgbench(['--version'])).trim(),
        scale,
        clients: paymentConnections,
        threads,
        durationSeconds: Math.ceil(duration),
        ...parsePgbench(output),
      };
    } finally {
      await withAdmin((admin) => admin.raw('drop database if exists ?? with (force)', [name])).catch((error: unknown) =>
        process.stderr.write(`bench: could not drop ${name}: ${String(error)}\n`),
      );
    }
  });
  log(
    `pgbench -M prepared TPC-B-like (scale ${pgbenchResult.scale}, ${pgbenchResult.clients} clients, ${pgbenchResult.threads} threads, ${pgbenchResult.durationSeconds} s): ${pgbenchResult.tps} tps (without connection time), latency ${pgbenchResult.latencyAverageMs} ms, ${pgbenchResult.failed} failed`,
  );

  const results: Measured[] = [];
  /** Each scenario's requests per second, by name: the baselines' are the ratios' denominators. */
  const rates = new Map<string, number>();
  const rssSamples: number[] = [];
  /** What one scenario's turns add up to. */
  interface Tally {
    requests: number;
    seconds: number;
    times: number[];
    non2xx: number;
    errors: number;
    timeouts: number;
    graphqlErrors: number;
    bytes: number;
    cpu: CpuSpent | null;
    peak: number;
    settledSeconds: number;
    loadBefore: number;
  }
  const newTally = (): Tally => ({
    requests: 0,
    seconds: 0,
    times: [],
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    graphqlErrors: 0,
    bytes: 0,
    cpu: null,
    peak: 0,
    settledSeconds: 0,
    loadBefore: round(os.loadavg()[0] ?? 0, 2),
  });
  const portOf = (scenario: Scenario) => answeringProcess[scenario.target].port;

  /** One measured turn of `scenario`, `seconds` long, added to its tally. */
  const measureTurn = async (scenario: Scenario, seconds: number, tally: Tally): Promise<void> => {
    tally.settledSeconds += await settle();
    const sampler = setInterval(() => {
      const rss = procStatus(servicePid, 'VmRSS');
      if (rss !== null) {
        tally.peak = Math.max(tally.peak, rss);
        rssSamples.push(rss);
      }
    }, 200);
    const options = { ...scenario.options(portOf(scenario)), duration: seconds };
    if (scenario.graphql && options.requests) {
      options.requests = options.requests.map((request) => ({
        ...request,
        onResponse: (_status: number, body: string) => {
          if (body.includes('"errors"')) tally.graphqlErrors += 1;
        },
      }));
    }
    const answering = answeringProcess[scenario.target].pid;
    const cpuBefore = cpuReadable ? readCpu(answering, postgresLocal) : null;
    const result = await run(options, (ms) => tally.times.push(ms));
    const spent = cpuBefore && cpuBetween(cpuBefore, readCpu(answering, postgresLocal));
    clearInterval(sampler);
    if (spent) tally.cpu = tally.cpu ? addCpu(tally.cpu, spent) : spent;
    tally.requests += result.requests.total;
    tally.seconds += result.duration;
    tally.non2xx += result.non2xx;
    tally.errors += result.errors;
    tally.timeouts += result.timeouts;
    tally.bytes += result.throughput.total;
  };

  /** The scenarios measured together: a baseline with those held against it in turns, or one scenario alone. */
  const groups: Scenario[][] = [];
  for (const scenario of scenarios) {
    const group = groups.at(-1);
    const joins =
      scenario.inTurns && group?.[0]?.inTurns && group[0].target === 'baseline' && scenario.baseline === group[0].name;
    if (joins) group.push(scenario);
    else groups.push([scenario]);
  }

  await phase('load', async () => {
    for (const group of groups) {
      const tallies = new Map(group.map((scenario) => [scenario, newTally()]));
      for (const scenario of group) {
        await settle();
        if (warmup > 0) await run({ ...scenario.options(portOf(scenario)), duration: warmup });
      }
      await settle();
      // Every measurement starts on vacuumed tables and a fresh checkpoint: Postgres's background work
      // (autovacuum after the payments' inserts, a checkpoint's flush and the full pages written after
      // it) otherwise falls in whichever run it happens to, and is charged to that run alone.
      await data.raw('vacuum');
      await data.raw('checkpoint');
      // In turns, each scenario's share of the machine's drift (its speed moves under a run of minutes on
      // this shared VM) is the same as its baseline's: TURNS turns each, the order reversed every turn.
      const turns = group.length > 1 ? TURNS : 1;
      for (let turn = 0; turn < turns; turn++) {
        const order = turn % 2 === 0 ? group : [...group].reverse();
        for (const scenario of order) await measureTurn(scenario, duration / turns, tallies.get(scenario)!);
      }
      for (const scenario of group) {
        const tally = tallies.get(scenario)!;
        const cpu = tally.cpu ? cpuPerRequest(tally.cpu, tally.requests) : null;
        const windowName = Object.keys(windows).find((name) => scenario.label.endsWith(name));
        const measured: Measured = {
          name: scenario.name,
          label: scenario.label,
          target: scenario.target,
          baseline: scenario.target === 'baseline' ? scenario.name : (scenario.baseline ?? null),
          connections: scenario.connections,
          durationSeconds: round(tally.seconds, 2),
          requests: tally.requests,
          requestsPerSecond: tally.seconds > 0 ? round(tally.requests / tally.seconds) : 0,
          latencyMs: latencyOf(tally.times),
          ratioToBaseline: null,
          non2xx: tally.non2xx,
          errors: tally.errors,
          timeouts: tally.timeouts,
          graphqlErrors: tally.graphqlErrors,
          ...(windowName
            ? { rowsPerResponse: scenario.graphql ? Math.min(rows[windowName]!, MAX_PAGE) : rows[windowName] }
            : {}),
          bytesPerResponse: tally.requests ? Math.round(tally.bytes / tally.requests) : 0,
          serviceRssPeakBytes: scenario.target === 'service' ? tally.peak : null,
          settledBeforeSeconds: round(tally.settledSeconds),
          loadAverage: { before: tally.loadBefore, after: round(os.loadavg()[0] ?? 0, 2) },
          cpu,
          turns,
        };
        rates.set(scenario.name, measured.requestsPerSecond);
        const baselineRate = measured.baseline === null ? undefined : rates.get(measured.baseline);
        if (measured.baseline !== null && baselineRate === undefined)
          throw new Error(
            `scenario ${scenario.name} names the baseline ${measured.baseline}, which has not run before it`,
          );
        measured.ratioToBaseline = baselineRate ? round(measured.requestsPerSecond / baselineRate, 3) : null;
        results.push(measured);
        const bad = measured.non2xx + measured.errors + measured.timeouts + measured.graphqlErrors;
        const none = measured.requests === 0 ? '  NO REQUEST COMPLETED within the run' : '';
        log(
          `${measured.label.padEnd(42)} ${String(measured.requestsPerSecond).padStart(9)}/s  p50 ${String(measured.latencyMs.p50).padStart(5)} ms  p99 ${String(measured.latencyMs.p99).padStart(5)} ms  ×${measured.ratioToBaseline?.toFixed(2) ?? '-'}${bad ? `  FAILURES ${bad} (non2xx ${measured.non2xx}, errors ${measured.errors}, timeouts ${measured.timeouts}, graphql ${measured.graphqlErrors})` : ''}${none}`,
        );
        if (cpu) log(`${''.padEnd(42)} CPU per request: ${describeCpu(cpu)}${turns > 1 ? `; in ${turns} turns` : ''}`);
      }
    }
  });

  const serviceHwm = procStatus(servicePid, 'VmHWM');
  const rssPeakSampled = rssSamples.length ? Math.max(...rssSamples) : null;

  // 5. The ledger after the payments, once the service has drained: SIGTERM lets it finish the
  // requests still in flight when the load stopped, so the check sees a settled ledger.
  await phase('stopService', () => stopProcess(service));
  await phase('stopCore', () => stopProcess(core));

  // 5a. Issue 14: the lookups with the limits in Redis, against the Postgres-counted ones of the same turns.
  // Its process stops here, before the webhooks: every service process runs a webhook worker on this
  // database, and a production one claims the phase's deliveries and refuses their http:// receiver.
  // (Not measured when --only left the REST lookups out.)
  const inRedis = results.find((result) => result.name === 'redis-rest-lookup-customer');
  const inPostgres = results.find((result) => result.name === 'rest-lookup-customer');
  const limitsInRedis = await phase('limitsInRedis', async () => {
    try {
      if (!inRedis || !inPostgres) return null;
      const readiness = (await (await fetch(`http://127.0.0.1:${redisPort}/readyz`)).json()) as {
        rateLimitStore?: string;
      };
      return {
        vmHwmBytes: procStatus(redisCounted.pid as number, 'VmHWM'),
        store: readiness.rateLimitStore ?? 'unknown',
        requestsPerSecond: inRedis.requestsPerSecond,
        p99Ms: inRedis.latencyMs.p99,
        non2xx: inRedis.non2xx,
        inPostgresRequestsPerSecond: inPostgres.requestsPerSecond,
        ratio: inPostgres.requestsPerSecond ? round(inRedis.requestsPerSecond / inPostgres.requestsPerSecond, 3) : null,
      };
    } finally {
      await stopProcess(redisCounted);
    }
  });
  if (limitsInRedis)
    log(
      `REST lookup-customer with the limits in Redis (${limitsInRedis.store}): ${limitsInRedis.requestsPerSecond}/s against ${limitsInRedis.inPostgresRequestsPerSecond}/s in Postgres in the same turns (×${limitsInRedis.ratio})`,
    );

  // 5b. Issue 13: the same in-store payments with one webhook endpoint subscribed to every event
  // type, against none, on one more service process, in turns. It runs outside production, the one mode
  // in which an endpoint may point at a receiver on this machine; both halves run on it alike.
  // (Not run when --only left the payments out.)
  const paymentScenario = scenarios.find((scenario) => scenario.name === 'rest-record-customer-payment');
  const webhooks = !paymentScenario
    ? null
    : await phase('webhooks', async () => {
        let delivered = 0;
        const receiver = createServer((req, res) => {
          req.resume().on('end', () => {
            delivered += 1;
            res.writeHead(204).end();
          });
        });
        await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
        const receiverPort = (receiver.address() as AddressInfo).port;
        // Closed however the phase ends: a failed drain must not leave the bench waiting on its socket.
        try {
          const { child, port } = await startProcess(
            'service (webhooks)',
            'src/main.ts',
            // The worker looks for deliveries every 50 ms when it has none (1 s by default): a turn with the
            // endpoint starts with its queue empty, and in a turn of 2 s the default's first second idle
            // would leave most of the turn's deliveries to the drain after it.
            serviceEnvironment('webhooks', { NODE_ENV: 'development', WEBHOOK_POLL_MS: '50' }),
          );
          const graphql = async (query: string, variables: Record<string, unknown>) => {
            const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-api-key': partnerKey },
              body: JSON.stringify({ query, variables }),
            });
            const body = (await answer.json()) as { data?: Record<string, { id?: string; endpoint?: { id: string } }> };
            if (!answer.ok || !body.data)
              throw new Error(`${query} answered ${answer.status}: ${JSON.stringify(body)}`);
            return body.data;
          };
          /** One endpoint subscribed to every event type: its id. */
          const subscribe = async () =>
            (
              await graphql(
                'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
                {
                  input: {
                    url: `http://127.0.0.1:${receiverPort}/hooks`,
                    eventTypes: [
                      'PAYMENT_RECORDED',
                      'TRANSACTION_CREATED',
                      'FINANCE_ORDER_CREATED',
                      'FINANCE_ORDER_PAID_OFF',
                    ],
                  },
                },
              )
            ).createWebhookEndpoint!.endpoint!.id;
          const unsubscribe = (id: string) =>
            graphql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }', { id });
          // Deliveries pending, and of those the ones due now (the rest wait for a retry after a failed post).
          const queued = () => queueDepth(data);
          // The worker delivers what a half with the endpoint left behind before the next half starts, so
          // a half without it never pays for those deliveries. A delivery whose post failed waits minutes
          // for its retry: it is not waited for, but counted (the endpoint's deletion then ends it).
          let retrying = 0;
          const drain = async () => {
            const until = Date.now() + 180_000;
            for (let left = await queued(); left.due > 0 || left.pending > 0; left = await queued()) {
              if (left.due === 0) {
                retrying += left.pending;
                return;
              }
              if (Date.now() > until)
                throw new Error(`the webhook worker still had ${left.due} deliveries due after 180 s`);
              await new Promise((done) => setTimeout(done, 200));
            }
          };
          // In turns, as the payments are (TURNS each, the order reversed every turn): the machine's drift
          // falls on both halves alike. The endpoint exists only during the halves that have it.
          // Each half's CPU as the scenarios' (bench/cpu.ts): the service's process (its webhook worker
          // included), Postgres, and the bench's own process, which here runs the receiver beside autocannon.
          interface HalfTally {
            requests: number;
            seconds: number;
            non2xx: number;
            cpu: CpuSpent | null;
          }
          const halves: Record<'without' | 'withEndpoint', HalfTally> = {
            without: { requests: 0, seconds: 0, non2xx: 0, cpu: null },
            withEndpoint: { requests: 0, seconds: 0, non2xx: 0, cpu: null },
          };
          let deliveredDuringRun = 0;
          let pendingAfterTurns = 0;
          const half = async (name: keyof typeof halves, seconds: number, measured: boolean) => {
            await settle(port);
            const endpoint = name === 'withEndpoint' ? await subscribe() : null;
            const deliveredBefore = delivered;
            const cpuBefore = measured && cpuReadable ? readCpu(child.pid as number, postgresLocal) : null;
            const result = await run({ ...paymentScenario.options(port), duration: seconds });
            if (measured) {
              const tally = halves[name];
              tally.requests += result.requests.total;
              tally.seconds += result.duration;
              tally.non2xx += result.non2xx;
              const spent = cpuBefore && cpuBetween(cpuBefore, readCpu(child.pid as number, postgresLocal));
              if (spent) tally.cpu = tally.cpu ? addCpu(tally.cpu, spent) : spent;
            }
            if (endpoint === null) return;
            if (measured) {
              deliveredDuringRun += delivered - deliveredBefore;
              pendingAfterTurns += (await queued()).pending;
            }
            await drain();
            await unsubscribe(endpoint);
          };
          if (warmup > 0) for (const name of ['without', 'withEndpoint'] as const) await half(name, warmup, false);
          for (let turn = 0; turn < TURNS; turn++) {
            const order =
              turn % 2 === 0 ? (['without', 'withEndpoint'] as const) : (['withEndpoint', 'without'] as const);
            for (const name of order) await half(name, duration / TURNS, true);
          }
          const rateOf = (name: keyof typeof halves) => ({
            requestsPerSecond: halves[name].seconds ? round(halves[name].requests / halves[name].seconds) : 0,
            non2xx: halves[name].non2xx,
            cpu: halves[name].cpu ? cpuPerRequest(halves[name].cpu, halves[name].requests) : null,
          });
          const without = rateOf('without');
          const withEndpoint = rateOf('withEndpoint');
          const vmHwmBytes = procStatus(child.pid as number, 'VmHWM');
          await stopProcess(child);
          return {
            vmHwmBytes,
            without,
            withEndpoint,
            ratio: without.requestsPerSecond
              ? round(withEndpoint.requestsPerSecond / without.requestsPerSecond, 3)
              : null,
            deliveredDuringRun,
            pendingAfterTurns,
            retrying,
          };
        } finally {
          receiver.closeAllConnections();
          receiver.close();
        }
      });
  if (webhooks) {
    log(
      `payments with a webhook endpoint: ${webhooks.withEndpoint.requestsPerSecond}/s against ${webhooks.without.requestsPerSecond}/s without (×${webhooks.ratio}); ${webhooks.deliveredDuringRun} deliveries made during the turns with it, ${webhooks.pendingAfterTurns} left pending at their ends (delivered before the next turn)${webhooks.retrying ? `; ${webhooks.retrying} whose post failed, left to their retry` : ''}`,
    );
    for (const [name, half] of [
      ['without', webhooks.without],
      ['with the endpoint', webhooks.withEndpoint],
    ] as const)
      if (half.cpu) log(`  CPU per payment ${name}: ${describeCpu(half.cpu)} (autocannon's process runs the receiver)`);
  }

  // 5c. Issue 15, item 4 (--profile): each hot door on its own service process under the CPU profiler,
  // counted from the end of its warm-up to the end of its run (bench/profile.ts).
  const profiles = args.profile
    ? await phase('profiles', async () => {
        const summaries: Record<string, ProfileSummary> = {};
        for (const name of PROFILED_DOORS) {
          const scenario = scenarios.find((candidate) => candidate.name === name);
          if (!scenario) continue;
          const dir = mkdtempSync(join(os.tmpdir(), 'dfs-profile-'));
          try {
            // The profile's clock starts with the process: the span is measured from its spawning.
            const spawnedAt = performance.now();
            const { child, port } = await startProcess(
              `${scenario.target} (profile of ${name})`,
              scenario.target === 'baseline' ? 'bench/baseline-server.ts' : 'src/main.ts',
              scenario.target === 'baseline' ? baselineEnvironment : serviceEnvironment(`profile-${name}`),
              undefined,
              ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=500'],
            );
            await settle(port);
            if (warmup > 0) await run({ ...scenario.options(port), duration: warmup });
            await settle(port);
            const fromMs = performance.now() - spawnedAt;
            const result = await run(scenario.options(port));
            const toMs = performance.now() - spawnedAt;
            await stopProcess(child); // the profile is written as the process exits
            const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
            if (!file) throw new Error(`the profiled service of ${name} wrote no .cpuprofile`);
            summaries[name] = summariseProfile(join(dir, file), result.requests.total, { fromMs, toMs });
            // Kept for Chrome DevTools' Performance panel (or speedscope): bench/profiles/<door>.cpuprofile.
            mkdirSync(join(outDir, 'profiles'), { recursive: true });
            copyFileSync(join(dir, file), join(outDir, 'profiles', `${name}.cpuprofile`));
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
          const summary = summaries[name]!;
          log(
            `profile of ${scenario.label}: ${summary.busyMsPerRequest} ms of main-thread CPU per request; ${summary.byOwner
              .slice(0, 8)
              .map((share) => `${share.name} ${share.percent}%`)
              .join(', ')}`,
          );
        }
        return summaries;
      })
    : null;

  // Issue 15: GraphQL execution of a 5,000-row page (bench/graphql-execution.ts: execution only, the
  // page's SQL excluded), graphql-js against jit, in a process of its own as the service runs
  // (compiled, NODE_ENV=production: graphql-js reads it when it loads) on this run's database.
  const graphqlExecutionFigures = await phase('graphqlExecution', async () => {
    const out = mkdtempSync(join(os.tmpdir(), 'dfs-graphql-execution-'));
    try {
      const entry = 'bench/graphql-execution.ts';
      const script = fromSource ? ['--import', 'tsx', entry] : [join(BUILD_DIR, entry.replace(/\.ts$/, '.js'))];
      await new Promise<void>((done, reject) =>
        execFile(
          process.execPath,
          [...serviceV8Flags, ...script, '--database-url', dbUrl, '--partner-key', partnerKey, '--out', out],
          { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } },
          (error, _stdout, stderr) =>
            error ? reject(new Error(`bench/graphql-execution.ts failed: ${stderr || error.message}`)) : done(),
        ),
      );
      return JSON.parse(readFileSync(join(out, 'graphql-execution.json'), 'utf8')) as GraphqlExecutionFigures;
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
  const graphqlExecution = {
    cpuMs: graphqlExecutionFigures.executors.jit.cpuMs.median,
    executor: `jit; graphql-js ${graphqlExecutionFigures.executors['graphql-js'].cpuMs.median} ms`,
  };
  log(
    `GraphQL execution of a ${graphqlExecutionFigures.rows}-row page (CPU, median of ${graphqlExecutionFigures.runs}): jit ${graphqlExecution.cpuMs} ms, graphql-js ${graphqlExecutionFigures.executors['graphql-js'].cpuMs.median} ms`,
  );

  const ledger = await phase('ledgerCheck', () => checkLedger(data));
  log(
    `ledger: ${ledger.problems.length === 0 ? 'clean' : `${ledger.problems.length} problems`} (checked ${JSON.stringify(ledger.checked)})`,
  );
  for (const problem of ledger.problems.slice(0, 10)) log(`  ${problem}`);

  // 6. The targets of issue 15, each door against its own bare baseline; a miss names what bounds it
  // where this run measured it (the README's Performance section explains each).
  const failuresOf = (result: Measured) => result.non2xx + result.errors + result.timeouts + result.graphqlErrors;
  const find = (name: string) => results.find((result) => result.name === name);
  const tenK = find('rest-list-transactions-10-000-rows');
  const payment = find('rest-record-customer-payment');
  const barePayment = find('baseline-record-customer-payment');
  const fractionOfPgbench = (result: Measured | undefined) =>
    result && pgbenchResult.tps > 0 ? round(result.requestsPerSecond / pgbenchResult.tps, 3) : null;
  const paymentFractionOfPgbench = fractionOfPgbench(payment);
  /** A door's ratio to its baseline, at least `floor`, with no failed request. */
  const ratioTarget = (name: string, label: string, floor: number) => {
    const result = find(name);
    const bare = result?.baseline ? find(result.baseline) : undefined;
    const core = find(`core-${name}`);
    return {
      target: `${label} ≥ ${floor} of its baseline's requests/s`,
      measured: result?.ratioToBaseline ?? null,
      met: result ? (result.ratioToBaseline ?? 0) >= floor && failuresOf(result) === 0 : false,
      // The rate follows the CPU a request costs the machine's shared cores (bench/cpu.ts).
      ...(result?.cpu && bare?.cpu
        ? {
            bound:
              `CPU per request, the service against its bare code: ${cpuAgainst(result.cpu, bare.cpu, { process: 'its process' })}` +
              // The same door without the layers operations add: what the design itself reaches.
              (core?.ratioToBaseline != null
                ? `; the design's core (no operations layers, limits in memory) ${core.ratioToBaseline} of the baseline${core.cpu ? `, its process ${cpuMs(core.cpu.processMs)}, Postgres ${cpuMs(core.cpu.postgresMs)}, the machine ${cpuMs(core.cpu.machineMs)}` : ''}`
                : ''),
          }
        : {}),
    };
  };
  const peakHwm = Math.max(...[serviceHwm, webhooks?.vmHwmBytes, limitsInRedis?.vmHwmBytes].map((bytes) => bytes ?? 0));
  const targets: Array<{ target: string; measured: unknown; met: boolean | null; bound?: string }> = [
    ratioTarget('rest-lookup-customer', 'REST lookup-customer', 0.85),
    ratioTarget('graphql-lookup-customer', 'GraphQL customer(locator)', 0.8),
    ratioTarget('rest-list-transactions-1-day', 'REST list-transactions, 1 day (300 rows)', 0.7),
    ratioTarget('rest-list-transactions-10-000-rows', 'REST list-transactions, 10,000 rows', 0.7),
    {
      target: 'REST list-transactions of 10,000 rows: p99 < 250 ms (one connection)',
      measured: tenK
        ? tenK.requests > 0 && failuresOf(tenK) === 0
          ? tenK.latencyMs.p99
          : `${tenK.requests} answered, ${failuresOf(tenK)} failed (first probe: ${probes['10,000 rows']?.status} after ${probes['10,000 rows']?.ms} ms)`
        : null,
      met: tenK
        ? tenK.requests > 0 &&
          failuresOf(tenK) === 0 &&
          tenK.latencyMs.p99 < 250 &&
          (tenK.rowsPerResponse ?? 0) >= 10_000
        : null,
      bound: `the bare list of the same statements: p99 ${find('baseline-list-transactions-10-000-rows')?.latencyMs.p99 ?? '?'} ms`,
    },
    {
      target: 'GraphQL execution of a 5,000-row page < 20 ms of CPU',
      measured: graphqlExecution ? `${graphqlExecution.cpuMs} ms (${graphqlExecution.executor})` : null,
      met: graphqlExecution ? graphqlExecution.cpuMs < 20 : null,
    },
    ratioTarget('rest-record-customer-payment', 'REST record-customer-payment', 0.8),
    {
      target: `REST record-customer-payment ≥ 25% of pgbench's TPC-B-like tps (-M prepared, ${pgbenchResult.clients} clients)`,
      measured:
        paymentFractionOfPgbench === null
          ? null
          : `${paymentFractionOfPgbench} (${payment?.requestsPerSecond}/s of ${pgbenchResult.tps} tps)`,
      met: payment
        ? paymentFractionOfPgbench !== null && paymentFractionOfPgbench >= 0.25 && failuresOf(payment) === 0
        : false,
      bound: `the bare payment of the same statements: ${fractionOfPgbench(barePayment) ?? '?'} of pgbench (${barePayment?.requestsPerSecond ?? '?'}/s)`,
    },
    {
      target: 'ledger:check clean after the payments',
      measured: ledger.problems.length,
      met: ledger.problems.length === 0,
    },
    {
      target: 'peak resident memory < 250 MB across the whole benchmark (VmHWM of every service process)',
      measured: mb(peakHwm),
      met: peakHwm > 0 && peakHwm < 250 * 1024 * 1024,
      bound: `${mb(serviceRssAtStart)} MB resident at start`,
    },
    // Issue 13's, kept: the event log's webhooks must not slow the payments much.
    {
      target: 'record-customer-payment with a webhook endpoint ≥ 85% of the rate without one',
      measured: webhooks?.ratio ?? null,
      met: webhooks ? webhooks.ratio !== null && webhooks.ratio >= 0.85 && webhooks.withEndpoint.non2xx === 0 : null,
      ...(webhooks?.withEndpoint.cpu && webhooks.without.cpu
        ? {
            // What the endpoint adds to a payment, by who spends it (the process runs the worker, autocannon's the receiver).
            bound: `CPU per payment with the endpoint against without: ${cpuAgainst(webhooks.withEndpoint.cpu, webhooks.without.cpu, { process: "the service's process (its worker included)", loadGenerator: "autocannon's process (the receiver's too)" })}`,
          }
        : {}),
    },
  ];

  phases.total = Math.round((Date.now() - started) / 100) / 10;

  // 7. The record and the chart.
  const postgres = (await data.raw('show server_version')).rows[0]?.server_version as string;
  const report = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryBytes: os.totalmem(),
      platform: `${os.type()} ${os.release()}`,
      node: process.version,
      postgres,
      loadAverageAtStart: round(busy, 2),
    },
    pgbench: { ...pgbenchResult, paymentFractionOfTps: paymentFractionOfPgbench },
    profiles,
    graphqlExecution: graphqlExecutionFigures,
    webhooks,
    limitsInRedis,
    settings: {
      customers,
      durationSeconds: duration,
      warmupSeconds: warmup,
      lookupConnections,
      paymentConnections,
      fill: 'generator',
      runsAs: fromSource ? 'TypeScript through tsx (--from-source)' : 'compiled JavaScript (dist-bench/)',
      graphqlExecutor: args.executor,
      serviceV8Flags,
      only: only.length ? only : null,
      partnerId: partner,
    },
    data: {
      counts,
      windows: Object.fromEntries(
        Object.entries(windows).map(([name, w]) => [name, { ...w, rows: rows[name], probe: probes[name] }]),
      ),
    },
    serviceErrorLog: { count: serviceErrors.count, samples: serviceErrors.samples },
    scenarios: results,
    memory: {
      serviceRssAtStartBytes: serviceRssAtStart,
      serviceRssPeakSampledBytes: rssPeakSampled,
      serviceVmHWMBytes: serviceHwm,
    },
    ledger: { clean: ledger.problems.length === 0, checked: ledger.checked, problems: ledger.problems.slice(0, 50) },
    targets,
    phasesSeconds: phases,
  };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  const subtitle = `${report.at.slice(0, 16).replace('T', ' ')} UTC · ${report.machine.cpus} × ${report.machine.cpuModel.trim()} · Postgres ${postgres.split(' ')[0]} · ${counts.customers?.toLocaleString('en-US')} customers · ${duration} s per scenario`;
  writeFileSync(
    join(outDir, 'results.svg'),
    renderChart(
      results.map((result) => ({
        label: `${result.label} (${result.connections} conn)`,
        requestsPerSecond: result.requestsPerSecond,
        p50Ms: result.latencyMs.p50,
        p99Ms: result.latencyMs.p99,
        // A ratio only where the scenario has a baseline; a baseline's own bar carries none.
        ratioToBaseline: result.target === 'baseline' ? null : result.ratioToBaseline,
        baselineRequestsPerSecond:
          result.target === 'baseline' || result.baseline === null ? null : (rates.get(result.baseline) ?? null),
        baseline: result.target === 'baseline',
      })),
      'device-financing service: requests per second (npm run bench)',
      subtitle,
      `pgbench TPC-B-like (-M prepared, scale ${pgbenchResult.scale}, ${pgbenchResult.clients} clients) on the same server: ${Math.round(pgbenchResult.tps).toLocaleString('en-US')} tps; the payments ran at ${paymentFractionOfPgbench ?? '?'} of it`,
    ),
  );

  // 8. The table.
  log('');
  log(`| scenario | conn | rows | req/s | p50 ms | p99 ms | × its baseline | failures |`);
  log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
  for (const result of results) {
    const failures = result.non2xx + result.errors + result.timeouts + result.graphqlErrors;
    log(
      `| ${result.label} | ${result.connections} | ${result.rowsPerResponse ?? ''} | ${result.requestsPerSecond.toLocaleString('en-US')} | ${result.latencyMs.p50} | ${result.latencyMs.p99} | ${result.ratioToBaseline?.toFixed(2) ?? ''} | ${failures} |`,
    );
  }
  log('');
  log(
    `pgbench TPC-B-like (-M prepared, scale ${pgbenchResult.scale}, ${pgbenchResult.clients} clients, ${pgbenchResult.threads} threads): ${pgbenchResult.tps} tps; record-customer-payment ${payment?.requestsPerSecond ?? '?'}/s = ${paymentFractionOfPgbench ?? '?'} of it`,
  );
  log(
    `service memory: ${mb(serviceRssAtStart)} MB at start, peak ${mb(serviceHwm)} MB (VmHWM), ${mb(rssPeakSampled)} MB highest sampled RSS`,
  );
  if (serviceErrors.count)
    log(`service error log: ${serviceErrors.count} error lines, e.g. ${serviceErrors.samples[0]}`);
  log(`ledger after the payments: ${ledger.problems.length === 0 ? 'clean' : `${ledger.problems.length} problems`}`);
  log('targets:');
  for (const target of targets)
    log(
      `  ${target.met === null ? 'n/a ' : target.met ? 'met ' : 'MISS'}  ${target.target}: ${target.measured ?? 'not measured'}${!target.met && target.bound ? `; bound: ${target.bound}` : ''}`,
    );
  log(
    `phases (s): ${Object.entries(phases)
      .map(([name, seconds]) => `${name} ${seconds}`)
      .join(', ')}`,
  );
  log(`wrote ${join(args.out, 'results.json')} and ${join(args.out, 'results.svg')}`);
}

function mb(bytes: number | null): string {
  return bytes === null ? '?' : (bytes / 1024 / 1024).toFixed(1);
}
