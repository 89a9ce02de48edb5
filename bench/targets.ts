// The targets, each door against its own bare baseline in the same turns, and the earlier ones kept
// (GraphQL execution, the ledger, the webhooks' cost to a payment): each met or missed; a miss names
// what bounds it where this run measured it (docs/performance.md#what-bounds-each-missed-target
// explains each). The lookups and payments are judged on their many-key rows (a fleet of store tills).
import { cpuAgainst, cpuMs } from './cpu.js';
import { failuresOf, type Measured } from './load.js';
import { mb, round } from './log.js';
import type { Book } from './scenarios/book.js';
import type { GraphqlExecution } from './scenarios/graphql-execution.js';
import type { Probe } from './scenarios/lists.js';
import type { LongWindow } from './scenarios/long-window.js';
import type { Pgbench } from './scenarios/pgbench.js';
import type { Webhooks } from './scenarios/webhooks.js';

export interface Target {
  target: string;
  measured: unknown;
  met: boolean | null;
  bound?: string;
}

/** What the targets are judged on. */
export interface Judged {
  results: readonly Measured[];
  pgbench: Pgbench | null;
  probes: Record<string, Probe>;
  graphqlExecution: GraphqlExecution;
  ledgerProblems: number;
  peakHwm: number;
  serviceRssAtStart: number | null;
  webhooks: Webhooks | null;
  longWindow: LongWindow | null;
  book: Book | null;
  /** The data set's scale: the book's targets are set at 10x. */
  scale: number;
}

/** The webhooks' pace, each field absent when the phase did not run (a null `webhooks`). */
export const paceOf = (webhooks: Webhooks | null): Partial<Webhooks> => webhooks ?? {};

/** The payments' rate as a fraction of pgbench's tps; null when either is missing. */
export function fractionOfPgbench(result: Measured | undefined, pgbench: Pgbench | null): number | null {
  return result && pgbench && pgbench.tps > 0 ? round(result.requestsPerSecond / pgbench.tps, 3) : null;
}

/** "p99 312 ms from 2,000 answers", or with fewer, from how many and why. */
const p99Of = (result: Measured | undefined) =>
  result
    ? `p99 ${result.latencyMs.p99} ms from ${result.p99Basis.requests.toLocaleString('en-US')} answers${result.p99Basis.why ? ` (fewer than ${result.p99Basis.wanted}: ${result.p99Basis.why})` : ''}`
    : '?';

export function targetsOf(judged: Judged): Target[] {
  const { results, pgbench, probes, graphqlExecution, ledgerProblems, peakHwm } = judged;
  const find = (name: string) => results.find((result) => result.name === name);
  const tenK = find('rest-list-transactions-10-000-rows');
  const bareTenK = find('baseline-list-transactions-10-000-rows');
  const payment = find('rest-record-customer-payment');
  const barePayment = find('baseline-record-customer-payment');
  const paymentFraction = fractionOfPgbench(payment, pgbench);
  const tenKMeasured = tenK && bareTenK && tenK.requests > 0 && failuresOf(tenK) === 0;
  return [
    // What the design's core reached (docs/decisions.md 47): the layers around it at their floor.
    ratioTarget(results, 'rest-lookup-customer', 'REST lookup-customer (many store keys)', 0.9),
    ratioTarget(results, 'graphql-lookup-customer', 'GraphQL customer(locator) (many store keys)', 0.9),
    ratioTarget(results, 'redis-rest-lookup-customer', 'REST lookup-customer, limits in Redis (many store keys)', 0.85),
    ratioTarget(results, 'rest-record-customer-payment', 'REST record-customer-payment (many store keys)', 0.88),
    {
      target: `REST record-customer-payment ≥ 25% of pgbench's TPC-B-like tps in the same turns (-M prepared, ${pgbench?.clients ?? '?'} clients: the service's pool)`,
      measured:
        paymentFraction === null ? null : `${paymentFraction} (${payment?.requestsPerSecond}/s of ${pgbench?.tps} tps)`,
      met: payment && pgbench ? paymentFraction !== null && paymentFraction >= 0.25 && failuresOf(payment) === 0 : null,
      bound: `the bare payment of the same statements: ${fractionOfPgbench(barePayment, pgbench) ?? '?'} of pgbench (${barePayment?.requestsPerSecond ?? '?'}/s); pgbench at its best count (${pgbench?.best?.clients ?? '?'} clients) ${pgbench?.best?.tps ?? '?'} tps`,
    },
    ...['1 day', '30 days', '10,000 rows'].map((window) =>
      ratioTarget(
        results,
        `rest-list-transactions-${window.replace(/[^0-9a-z]+/gi, '-').replace(/-$/, '')}`,
        `REST list-transactions, ${window}`,
        0.8,
      ),
    ),
    {
      target: "REST list-transactions of 10,000 rows: p99 ≤ 1.2 × the bare list's p99 (one connection, in turns)",
      measured: tenK
        ? tenKMeasured
          ? `${tenK.latencyMs.p99} ms against ${bareTenK.latencyMs.p99} ms (×${round(tenK.latencyMs.p99 / Math.max(1, bareTenK.latencyMs.p99), 2)})`
          : `${tenK.requests} answered, ${failuresOf(tenK)} failed (first probe: ${probes['10,000 rows']?.status} after ${probes['10,000 rows']?.ms} ms)`
        : null,
      met: tenK
        ? Boolean(tenKMeasured) &&
          tenK.latencyMs.p99 <= 1.2 * bareTenK!.latencyMs.p99 &&
          (tenK.rowsPerResponse ?? 0) >= 10_000
        : null,
      bound: `the service's ${p99Of(tenK)}; the bare list's ${p99Of(bareTenK)}`,
    },
    longWindowTarget(judged.longWindow),
    {
      target: 'GraphQL execution of a 5,000-row page < 20 ms of CPU',
      measured: graphqlExecution ? `${graphqlExecution.cpuMs} ms (${graphqlExecution.executor})` : null,
      met: graphqlExecution ? graphqlExecution.cpuMs < 20 : null,
    },
    {
      target: 'ledger:check clean after the payments',
      measured: ledgerProblems,
      met: ledgerProblems === 0,
    },
    {
      target: 'peak resident memory < 250 MB across the whole benchmark (VmHWM of every service process)',
      measured: mb(peakHwm),
      met: peakHwm > 0 && peakHwm < 250 * 1024 * 1024,
      bound: `${mb(judged.serviceRssAtStart)} MB resident at start; ${judged.longWindow ? `${mb(judged.longWindow.serviceRssPeakBytes)} MB at most while answering a ${judged.longWindow.days}-day window` : ''}`,
    },
    ...webhookTargets(judged.webhooks),
    ...bookTargets(judged.book, judged.scale),
  ];
}

/**
 * The book (decisions.md 45), set at 10x data and judged at any scale against the same figures: the
 * figures of the busiest partner p50 < 500 ms (NONE and MERCHANT, as of now and 30 days ago), a year's
 * history p50 < 50 ms, and a year's TRANSACTIONS report completed with the worker's peak RSS < 250 MB.
 */
function bookTargets(book: Book | null, scale: number): Target[] {
  const at = scale === 10 ? '' : ` (set at 10x; this run ${scale}x)`;
  const reads = (prefix: string) => book?.reads.filter((read) => read.name.startsWith(prefix)) ?? [];
  const readTarget = (prefix: string, label: string, limitMs: number): Target => {
    const measured = reads(prefix);
    return {
      target: `${label} p50 < ${limitMs} ms${at}`,
      measured: measured.length
        ? measured.map((read) => `${read.name.slice(prefix.length).trim()} ${read.p50Ms ?? '?'} ms`).join(', ')
        : null,
      met: measured.length
        ? measured.every((read) => read.failed === 0 && read.p50Ms !== null && read.p50Ms < limitMs)
        : null,
      bound: measured.length
        ? `p99 ${measured.map((read) => read.p99Ms ?? '?').join(', ')} ms${measured.some((read) => read.sqlP50Ms != null) ? `; the statement alone p50 ${measured.map((read) => read.sqlP50Ms ?? '?').join(', ')} ms` : ''}; the partner's ${book!.orders.toLocaleString('en-US')} orders`
        : undefined,
    };
  };
  const report = book?.report;
  return [
    readTarget('portfolioMetrics', 'portfolioMetrics of the busiest partner (NONE, MERCHANT; now, 30 days ago)', 500),
    readTarget('portfolioHistory', 'portfolioHistory of 365 days', 50),
    {
      target: `TRANSACTIONS report of a year completed, the worker's peak RSS < 250 MB${at}`,
      measured: report
        ? `${report.state ?? 'not created'}: ${report.rowCount?.toLocaleString('en-US') ?? '?'} of ${report.rowsInWindow.toLocaleString('en-US')} rows in ${report.msToSucceeded ?? '?'} ms (${report.rowsPerSecond ?? '?'} rows/s), VmHWM ${mb(report.workerVmHwmBytes)} MB`
        : null,
      met: report
        ? report.complete && report.workerVmHwmBytes !== null && report.workerVmHwmBytes < 250 * 1024 * 1024
        : null,
      bound: report
        ? `${report.error ?? ''}${report.error ? '; ' : ''}RSS ${mb(report.workerRssBeforeBytes)} MB before the run, ${mb(report.workerRssPeakSampledBytes)} MB at most sampled during it`
        : undefined,
    },
  ];
}

/** The whole year asked once: every row answered, its body closed, the service's memory under the cap meanwhile. */
function longWindowTarget(window: LongWindow | null): Target {
  return {
    target: `REST list-transactions of a ${window?.days ?? 366}-day window answered completely (streamed; RSS < 250 MB meanwhile)`,
    measured: window
      ? `${window.rowsAnswered.toLocaleString('en-US')} of ${window.rowsInWindow.toLocaleString('en-US')} rows, ${mb(window.bytes)} MB in ${window.ms} ms, RSS at most ${mb(window.serviceRssPeakBytes)} MB`
      : null,
    met: window
      ? window.complete && window.serviceRssPeakBytes !== null && window.serviceRssPeakBytes < 250 * 1024 * 1024
      : null,
    bound: window ? `status ${window.status ?? 'none'}${window.error ? `, ${window.error}` : ''}` : undefined,
  };
}

/** A door's ratio to its baseline, at least `floor`, with no failed request. */
function ratioTarget(results: readonly Measured[], name: string, label: string, floor: number): Target {
  const find = (wanted: string) => results.find((result) => result.name === wanted);
  const result = find(name);
  const bare = result?.baseline ? find(result.baseline) : undefined;
  const core = find(`core-${name}`);
  return {
    target: `${label} ≥ ${floor} of its baseline's requests/s`,
    measured: result?.ratioToBaseline ?? null,
    met: result ? (result.ratioToBaseline ?? 0) >= floor && failuresOf(result) === 0 : null,
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
}

/** The webhooks: their cost to a payment (kept), and their pace: the backlog gone within 10 s of the load's end. */
function webhookTargets(webhooks: Webhooks | null): Target[] {
  const pace = paceOf(webhooks);
  const backlogMeasured = pace.backlogAfter10s !== undefined;
  return [
    {
      target: "webhook backlog 0 within 10 s of the payments' end (one service instance)",
      measured: backlogMeasured
        ? `${pace.backlogAfter10s} pending after 10 s (${pace.backlogAtEnd} at the end; drained in ${pace.drainedInMs ?? '> 10,000'} ms)`
        : null,
      met: backlogMeasured ? pace.backlogAfter10s === 0 : null,
      bound: `deliveries ${pace.deliveriesPerSecond ?? '?'}/s against payments ${pace.paymentsPerSecond ?? '?'}/s (3 deliveries a payment); lag p50 ${pace.lagP50Ms ?? '?'} ms, p99 ${pace.lagP99Ms ?? '?'} ms`,
    },
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
}
