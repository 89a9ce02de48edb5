// Phase book: the book's reads and one report run (docs/decisions.md 45), on two processes of their own
// started after the load, once every other service process has stopped (each runs a worker, which
// would take the run): one in the api role answering, one in the worker role running the report, its
// memory measured.
// - portfolioMetrics of the busiest partner, groupBy NONE and MERCHANT, as of now and 30 days ago (a
//   month more of the ledger read), and portfolioAgeing as of now: each asked one request at a time,
//   settings.book.runs times after settings.book.warmup: p50 and p99 over the loopback, and the
//   figures' statement alone (portfolioSums on the bench's own connection), its p50: the service's share;
// - portfolioHistory of 365 days, from the daily snapshots fillSnapshots wrote after the fill;
// - one TRANSACTIONS report of the partner's last 366 days (the long window's): scenarios/book-report.ts.

import type { Db } from '../../src/db/knex.js';
import { portfolioSums } from '../../src/modules/book/figures.js';
import { cpuBetween, cpuReadable, readCpu } from '../cpu.js';
import { postgresPids, unionOf } from '../load.js';
import { log, mb, phase, round } from '../log.js';
import { procStatus, SERVICE_READY, startProcess, stopProcess } from '../processes.js';
import type { Bench } from '../services.js';
import { DAY } from '../settings.js';
import { type Ask, type BookReport, reportRun } from './book-report.js';

/** One read asked `requests` times in a row (after its warm-up): its latencies over the loopback. */
export interface BookRead {
  name: string;
  requests: number;
  failed: number;
  /** The answer's rows (groups × currencies, or points) of the last answer. */
  rows: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  /** The figures' statement alone on the bench's connection (portfolioMetrics only): its p50. */
  sqlP50Ms?: number | null;
  /** …and the CPU it costs its Postgres backend, a run. */
  sqlPostgresCpuMs?: number | null;
  /**
   * CPU per measured request, in ms: the answering process's, and the bench database's Postgres
   * backends' (null: not readable here). On a busy machine the wall times stretch; these less so.
   */
  cpuMsPerRequest: { process: number | null; postgres: number | null } | null;
  error: string | null;
}

export interface Book {
  partnerId: string;
  /** The partner's orders, and its ledger's rows (payments and reversals) a figures pass reads as of now and 30 days ago. */
  orders: number;
  ledgerRowsRead: { now: number; thirtyDaysAgo: number };
  reads: BookRead[];
  report: BookReport;
  /** The api-role process's peak resident memory (VmHWM), having answered every read and the download. */
  apiVmHwmBytes: number | null;
}

export function asker(port: number, key: string): Ask {
  return async (query, variables) => {
    const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await answer.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] };
    if (!answer.ok || !body.data || body.errors?.length)
      throw new Error(`answered ${answer.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
}

const METRICS = `query($partnerId: ID!, $asOf: Timestamp, $groupBy: PortfolioGroupBy) {
  portfolioMetrics(partnerId: $partnerId, asOf: $asOf, groupBy: $groupBy) {
    group currency asOf openOrders outstanding par30 par60 par90 collectionRate firstPaymentDefaultRate
    lockedShare writtenOff writeOffRatio
  }
}`;
const AGEING = `query($partnerId: ID!) {
  portfolioAgeing(partnerId: $partnerId) { currency asOf orders outstanding buckets { bucket orders outstanding } }
}`;
const HISTORY = `query($partnerId: ID!, $from: String!, $to: String!) {
  portfolioHistory(partnerId: $partnerId, from: $from, to: $to, interval: DAY) {
    day metrics { currency openOrders outstanding par30 collectionRate writeOffRatio }
  }
}`;

/** The days a history asks for (365, today's included), and the snapshots written before the phase (fillSnapshots). */
export const HISTORY_DAYS = 365;
const SNAPSHOT_DAYS = 400;

export async function book(bench: Bench): Promise<Book> {
  const { partner, partnerKey } = bench.workload;
  const figures = await phase('book', async () => {
    const api = await startProcess(
      bench.settings,
      'service (book, api role)',
      'src/main.ts',
      bench.services.serviceEnvironment('book-api', { SERVICE_ROLE: 'api' }),
      SERVICE_READY,
      bench.services.serviceErrors,
    );
    const worker = await startProcess(
      bench.settings,
      'service (book, worker role)',
      'src/main.ts',
      bench.services.serviceEnvironment('book-worker', { SERVICE_ROLE: 'worker' }),
      SERVICE_READY,
      bench.services.serviceErrors,
    );
    try {
      const ask = asker(api.port, partnerKey);
      const reads = await measureReads(bench, ask, api.child.pid as number);
      const report = await reportRun(bench, ask, api.port, worker.child.pid as number);
      const apiVmHwmBytes = procStatus(api.child.pid as number, 'VmHWM');
      return { partnerId: partner, ...(await sizeOf(bench.data, partner)), reads, report, apiVmHwmBytes };
    } finally {
      await stopProcess(worker.child);
      await stopProcess(api.child);
    }
  });
  for (const read of figures.reads)
    log(
      `book: ${read.name}: p50 ${read.p50Ms ?? '?'} ms, p99 ${read.p99Ms ?? '?'} ms of ${read.requests} (${read.rows} rows${read.sqlP50Ms != null ? `; its statement alone p50 ${read.sqlP50Ms} ms, Postgres CPU ${read.sqlPostgresCpuMs ?? '?'} ms` : ''}${read.cpuMsPerRequest ? `; CPU a request: the process ${read.cpuMsPerRequest.process ?? '?'} ms, Postgres ${read.cpuMsPerRequest.postgres ?? '?'} ms` : ''})${read.failed ? `, ${read.failed} FAILED: ${read.error}` : ''}`,
    );
  const { report } = figures;
  log(
    `book: TRANSACTIONS report of ${report.days} days (${report.rowsInWindow.toLocaleString('en-US')} rows in the window): ${report.state ?? 'not created'} in ${report.msToSucceeded ?? '?'} ms (the worker's run ${report.runMs ?? '?'} ms), ${report.rowCount?.toLocaleString('en-US') ?? '?'} rows, ${report.rowsPerSecond ?? '?'} rows/s, ${mb(report.byteSize)} MB; the worker's RSS ${mb(report.workerRssBeforeBytes)} MB before, ${mb(report.workerRssPeakSampledBytes)} MB at most sampled, VmHWM ${mb(report.workerVmHwmBytes)} MB${report.cpu ? `; CPU meanwhile: the worker ${report.cpu.workerMs ?? '?'} ms, Postgres ${report.cpu.postgresMs ?? '?'} ms, the machine's ${report.cpu.cores} cores ${report.cpu.machineBusyMs} ms busy` : ''}${report.error ? `; ${report.error}` : ''}`,
  );
  return figures;
}

/** The reads, each in turn: the figures four ways, the ageing, the history. */
async function measureReads(bench: Bench, ask: Ask, apiPid: number): Promise<BookRead[]> {
  const { partner } = bench.workload;
  const now = Math.floor(Date.now() / 1000);
  const monthAgo = now - 30 * DAY;
  const graceHours = await graceHoursOf(bench.data, partner);
  const reads: BookRead[] = [];
  for (const groupBy of ['NONE', 'MERCHANT'] as const)
    for (const asOf of [null, monthAgo]) {
      const variables = { partnerId: partner, groupBy, ...(asOf === null ? {} : { asOf }) };
      const read = await timed(
        bench,
        `portfolioMetrics ${groupBy} as of ${asOf === null ? 'now' : '30 days ago'}`,
        () => ask(METRICS, variables).then((data) => (data.portfolioMetrics as unknown[]).length),
        apiPid,
      );
      // The statement alone, as of the same moment (now: this instant, a few ms after the requests' own),
      // a few times: what the service adds is the difference.
      const moment = { partnerId: partner, asOf: new Date((asOf ?? Math.floor(Date.now() / 1000)) * 1000), graceHours };
      const statement = () => portfolioSums(bench.data, moment, groupBy).then((rows) => rows.length);
      const alone = await timed(bench, 'sql', statement, process.pid, {
        runs: Math.min(5, bench.settings.book.runs),
        warmup: 1,
      });
      read.sqlP50Ms = alone.p50Ms;
      read.sqlPostgresCpuMs = alone.cpuMsPerRequest?.postgres ?? null;
      reads.push(read);
    }
  reads.push(
    await timed(
      bench,
      'portfolioAgeing as of now',
      () => ask(AGEING, { partnerId: partner }).then((data) => (data.portfolioAgeing as unknown[]).length),
      apiPid,
    ),
  );
  const to = new Date(now * 1000).toISOString().slice(0, 10);
  const from = new Date((now - (HISTORY_DAYS - 1) * DAY) * 1000).toISOString().slice(0, 10);
  reads.push(
    await timed(
      bench,
      `portfolioHistory of ${HISTORY_DAYS} days (DAY)`,
      () => ask(HISTORY, { partnerId: partner, from, to }).then((data) => (data.portfolioHistory as unknown[]).length),
      apiPid,
      { runs: bench.settings.book.historyRuns, warmup: bench.settings.book.warmup },
    ),
  );
  return reads;
}

/**
 * `request` asked one at a time, after the warm-up; a failure is counted and named, the others
 * measured, with the CPU they cost process `pid` and the database's backends.
 */
async function timed(
  bench: Bench,
  name: string,
  request: () => Promise<number>,
  pid: number,
  { runs, warmup }: { runs: number; warmup: number } = bench.settings.book,
): Promise<BookRead> {
  const read: BookRead = {
    ...{ name, requests: 0, failed: 0, rows: 0, p50Ms: null, p99Ms: null, maxMs: null },
    ...{ cpuMsPerRequest: null, error: null },
  };
  const times: number[] = [];
  const once = async (measured: boolean) => {
    const at = performance.now();
    try {
      read.rows = await request();
      if (measured) times.push(performance.now() - at);
    } catch (error) {
      read.failed += 1;
      read.error ??= error instanceof Error ? error.message : String(error);
    }
  };
  for (let i = 0; i < warmup; i++) await once(false);
  const pids = cpuReadable ? await postgresPids(bench) : null;
  const before = cpuReadable ? readCpu(pid, pids) : null;
  for (let i = 0; i < runs; i++) await once(true);
  const spent = before && cpuBetween(before, readCpu(pid, unionOf(pids, await postgresPids(bench))));
  read.requests = times.length;
  const perRequest = (ms: number | null) => (ms === null || !times.length ? null : round(ms / times.length));
  read.cpuMsPerRequest = spent ? { process: perRequest(spent.process), postgres: perRequest(spent.postgres) } : null;
  const sorted = times.sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!) : null;
  return { ...read, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

async function graceHoursOf(data: Db, partner: string): Promise<number> {
  const row = (await data('partners').where({ id: partner }).first('lock_grace_hours')) as { lock_grace_hours: number };
  return row.lock_grace_hours;
}

/** What one figures pass of the partner reads: its orders, and the ledger's rows after the period's start (asOf − 30 days). */
async function sizeOf(data: Db, partner: string): Promise<Pick<Book, 'orders' | 'ledgerRowsRead'>> {
  const row = (
    await data.raw(
      `select (select count(*) from finance_orders where partner_id = :partner)::int8 as orders,
        (select count(*) from payments where partner_id = :partner and received_at > now() - interval '30 days')
          + (select count(*) from payment_reversals where partner_id = :partner and reversed_at > now() - interval '30 days') as now,
        (select count(*) from payments where partner_id = :partner and received_at > now() - interval '60 days')
          + (select count(*) from payment_reversals where partner_id = :partner and reversed_at > now() - interval '60 days') as month`,
      { partner },
    )
  ).rows[0] as { orders: string; now: string; month: string };
  return { orders: Number(row.orders), ledgerRowsRead: { now: Number(row.now), thirtyDaysAgo: Number(row.month) } };
}

/**
 * Phase fillSnapshots, after the fill: every partner's daily snapshots (per currency) of the last 400
 * days (PORTFOLIO_BACKFILL_DAYS) up to today, from the day after its first sale, as a worker running
 * since then would have left them: the history has its year to read, and no service process the bench
 * starts spends the load's turns making them (the worker makes the days after a partner's latest one).
 * Each day holds the partner's figures as of now, not as of that day: what a read costs does not
 * depend on the sums it reads, and one pass per partner takes seconds where 400 would take minutes. A
 * reused database's days are left as they are.
 */
export async function fillSnapshots(data: Db): Promise<number> {
  return phase('fillSnapshots', async () => {
    const partners = (
      await data.raw(
        `select partner_id::text as id, min(ordered_at) as first_sale from finance_orders group by partner_id`,
      )
    ).rows as Array<{ id: string; first_sale: Date }>;
    const now = new Date();
    const today = Math.floor(now.getTime() / 1000 / DAY) * DAY;
    let written = 0;
    for (const { id, first_sale } of partners) {
      const sums = await portfolioSums(
        data,
        { partnerId: id, asOf: now, graceHours: await graceHoursOf(data, id) },
        'NONE',
      );
      const firstDay = Math.max(
        today - (SNAPSHOT_DAYS - 1) * DAY,
        Math.floor(first_sale.getTime() / 1000 / DAY) * DAY + DAY,
      );
      for (const s of sums) {
        const result = await data.raw(
          `insert into portfolio_snapshots (partner_id, day, currency, as_of, open_orders, outstanding_minor, par30_minor,
             par60_minor, par90_minor, locked_orders, collected_minor, due_minor, first_payment_defaulted,
             first_payment_eligible, written_off_minor, period_start_outstanding_minor)
           select ?, (d at time zone 'UTC')::date, ?, d, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
           from generate_series(to_timestamp(?), to_timestamp(?), interval '1 day') d
           on conflict do nothing`,
          [
            ...[id, s.currency, s.openOrders, String(s.outstandingMinor), String(s.par30Minor), String(s.par60Minor)],
            ...[String(s.par90Minor), s.lockedOrders, String(s.collectedMinor), String(s.dueMinor)],
            ...[s.firstPaymentDefaulted, s.firstPaymentEligible, String(s.writtenOffMinor)],
            ...[String(s.periodStartOutstandingMinor), firstDay, today],
          ],
        );
        written += result.rowCount ?? 0;
      }
    }
    log(
      `portfolio snapshots: ${written.toLocaleString('en-US')} written (${partners.length} partners, up to ${SNAPSHOT_DAYS} days each)`,
    );
    return written;
  });
}
