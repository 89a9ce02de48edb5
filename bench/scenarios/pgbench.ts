// pgbench, the server's own floor: its TPC-B-like transaction, prepared, in a database of its own on
// the same server. Measured in the payments' turns (payments.ts: the bare payment, the service's and
// pgbench's turns alternate, so the machine's drift falls on all alike), at as many clients as the
// service's database pool has connections (--pool: the payment's share of it is against the same
// number of connections), and at its best client count, found by a short sweep before the load and
// measured in the same turns beside it. Scale = the largest client count swept (TPC-B's rule: at
// least one branch row per client, so the clients do not all queue on one row). Each turn's
// transactions' times come from pgbench's own per-transaction log (-l), so its p50 and p99 are read
// like the doors'.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { databaseUrl, withAdmin } from '../database.js';
import type { Measured, TurnFigures } from '../load.js';
import { log, phase, round } from '../log.js';
import type { Bench } from '../services.js';

const THREADS = 2;

export interface Pgbench {
  version: string;
  scale: number;
  /** The paired run's clients: the service's pool (--pool). */
  clients: number;
  threads: number;
  /** Its rate in the payments' turns (transactions per second without connection time), and its answers. */
  tps: number;
  transactions: number;
  failed: number;
  latencyMs: Measured['latencyMs'] | null;
  /** The sweep before the load: tps by client count (short runs, not paired). */
  sweep: Array<{ clients: number; tps: number }>;
  /** The best count of the sweep, measured in the same turns. */
  best: { clients: number; tps: number } | null;
}

function pgbench(args: readonly string[]): Promise<string> {
  return new Promise((done, reject) =>
    execFile('pgbench', [...args], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`pgbench ${args.join(' ')} failed: ${stderr || error.message}`)) : done(stdout),
    ),
  );
}

/** Reads pgbench's report (Postgres 14 and later: "without initial connection time"; before: "excluding connections establishing"). */
export function parsePgbench(output: string): { tps: number; transactions: number; failed: number } {
  const tps = /^tps = ([0-9.]+) \((?:without initial connection time|excluding connections establishing)\)/m.exec(
    output,
  );
  if (!tps) throw new Error(`pgbench printed no tps:\n${output}`);
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  return {
    tps: round(Number(tps[1])),
    transactions: number(/^number of transactions actually processed: (\d+)/m),
    failed: number(/^number of failed transactions: (\d+)/m),
  };
}

/** Each transaction's time in ms from pgbench's per-transaction logs (their third field is its latency in µs). */
export function transactionTimes(logText: string): number[] {
  const times: number[] = [];
  for (const line of logText.split('\n')) {
    const latency = line.split(' ')[2];
    if (latency) times.push(Number(latency) / 1000);
  }
  return times;
}

/** The floor's database, created on demand, its sweep, and a turn at a client count. */
export interface PgbenchFloor {
  readonly name: string;
  prepare: () => Promise<void>;
  turn: (clients: 'pool' | 'best', seconds: number) => Promise<TurnFigures>;
  /** The sweep's best client count (the pool's size until the sweep has run). */
  bestClients: () => number;
  summary: (results: readonly Measured[]) => Pgbench | null;
  drop: () => Promise<void>;
}

export function pgbenchFloor(bench: Bench): PgbenchFloor {
  const { adminUrl } = bench.database;
  // The sweep's client counts (the pool's added): the best is measured in the turns too.
  const { pool, pgbenchSweep } = bench.settings;
  const name = `${bench.database.name}_pgbench`;
  const url = databaseUrl(adminUrl, name);
  const scale = Math.max(pool, ...pgbenchSweep);
  const state = { created: false, version: '', sweep: [] as Array<{ clients: number; tps: number }>, best: pool };
  const once = async (clients: number, seconds: number) => {
    const logs = mkdtempSync(join(os.tmpdir(), 'pgbench-'));
    try {
      const output = await pgbench([
        ...['-M', 'prepared', '-c', String(clients), '-j', String(Math.min(THREADS, clients))],
        ...['-T', String(Math.max(1, Math.round(seconds))), '-l', '--log-prefix', join(logs, 'tx'), url],
      ]);
      const times = readdirSync(logs).flatMap((file) => transactionTimes(readFileSync(join(logs, file), 'utf8')));
      return { ...parsePgbench(output), times };
    } finally {
      rmSync(logs, { recursive: true, force: true });
    }
  };
  return {
    name,
    prepare: () =>
      phase('pgbench', async () => {
        await withAdmin(adminUrl, (admin) => admin.raw('create database ??', [name]));
        state.created = true;
        await pgbench(['-i', '-q', '-s', String(scale), '-I', 'dtGvp', url]);
        state.version = (await pgbench(['--version'])).trim();
        const seconds = Math.max(2, bench.settings.duration / 5);
        for (const clients of [...new Set([...pgbenchSweep, pool])].sort((a, b) => a - b)) {
          const { tps } = await once(clients, seconds);
          state.sweep.push({ clients, tps });
        }
        state.best = state.sweep.reduce((best, next) => (next.tps > best.tps ? next : best)).clients;
        log(
          `pgbench sweep (scale ${scale}, ${seconds} s each): ${state.sweep.map((s) => `${s.clients} clients ${s.tps} tps`).join(', ')}; best ${state.best}`,
        );
      }),
    bestClients: () => state.best,
    turn: async (clients, seconds) => {
      const figures = await once(clients === 'pool' ? pool : state.best, seconds);
      // Its rate is pgbench's own (without connection time): the seconds are what that rate implies.
      return {
        requests: figures.transactions,
        seconds: figures.tps > 0 ? figures.transactions / figures.tps : seconds,
        times: figures.times,
        failed: figures.failed,
      };
    },
    summary: (results) => {
      const paired = results.find((result) => result.name === 'pgbench-pool');
      if (!paired) return null;
      const best = results.find((result) => result.name === 'pgbench-best');
      return {
        version: state.version,
        scale,
        clients: pool,
        threads: Math.min(THREADS, pool),
        tps: paired.requestsPerSecond,
        transactions: paired.requests,
        failed: paired.errors,
        latencyMs: paired.latencyMs,
        sweep: state.sweep,
        best: best ? { clients: state.best, tps: best.requestsPerSecond } : null,
      };
    },
    drop: async () => {
      if (!state.created) return;
      await withAdmin(adminUrl, (admin) => admin.raw('drop database if exists ?? with (force)', [name])).catch(
        (error: unknown) => process.stderr.write(`bench: could not drop ${name}: ${String(error)}\n`),
      );
    },
  };
}
