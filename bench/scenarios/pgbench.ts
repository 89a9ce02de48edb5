// pgbench, the server's own floor (phase pgbench): its TPC-B-like transaction, prepared, in a fresh
// database of its own on the same server, with the payments' connections as clients: the rate at
// which this server commits small write transactions, the floor under any payment's. Scale = clients
// (TPC-B's rule: at least one branch row per client, so the clients do not all queue on one row); a
// warm-up as long as the scenarios'.
import { execFile } from 'node:child_process';
import { databaseUrl, withAdmin } from '../database.js';
import { log, phase, round } from '../log.js';
import type { Bench } from '../services.js';

/** pgbench's summary of a run: transactions per second without the initial connection time. */
interface PgbenchResult {
  tps: number;
  transactions: number;
  failed: number;
  latencyAverageMs: number | null;
}

export interface Pgbench extends PgbenchResult {
  version: string;
  scale: number;
  clients: number;
  threads: number;
  durationSeconds: number;
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

export async function runPgbench(bench: Bench): Promise<Pgbench> {
  const { adminUrl } = bench.database;
  const { paymentConnections, warmup, duration } = bench.settings;
  const result = await phase('pgbench', async () => {
    const name = `${bench.database.name}_pgbench`;
    const url = databaseUrl(adminUrl, name);
    const scale = paymentConnections;
    const threads = 2;
    await withAdmin(adminUrl, (admin) => admin.raw('create database ??', [name]));
    try {
      await pgbench(['-i', '-q', '-s', String(scale), '-I', 'dtGvp', url]);
      const runArgs = ['-M', 'prepared', '-c', String(paymentConnections), '-j', String(threads)];
      if (warmup > 0) await pgbench([...runArgs, '-T', String(Math.ceil(warmup)), url]);
      const output = await pgbench([...runArgs, '-T', String(Math.ceil(duration)), url]);
      return {
        version: (await pgbench(['--version'])).trim(),
        scale,
        clients: paymentConnections,
        threads,
        durationSeconds: Math.ceil(duration),
        ...parsePgbench(output),
      };
    } finally {
      await withAdmin(adminUrl, (admin) => admin.raw('drop database if exists ?? with (force)', [name])).catch(
        (error: unknown) => process.stderr.write(`bench: could not drop ${name}: ${String(error)}\n`),
      );
    }
  });
  log(
    `pgbench -M prepared TPC-B-like (scale ${result.scale}, ${result.clients} clients, ${result.threads} threads, ${result.durationSeconds} s): ${result.tps} tps (without connection time), latency ${result.latencyAverageMs} ms, ${result.failed} failed`,
  );
  return result;
}
