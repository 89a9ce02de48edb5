// The targets, each door against its own bare baseline, and the earlier ones kept (webhooks, the
// ledger): each met or missed; a miss names what bounds it where this run measured it
// (docs/performance.md#what-bounds-each-missed-target explains each).
import { cpuAgainst, cpuMs } from './cpu.js';
import { failuresOf, type Measured } from './load.js';
import { mb, round } from './log.js';
import type { GraphqlExecution } from './scenarios/graphql-execution.js';
import type { Probe } from './scenarios/lists.js';
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
  pgbench: Pgbench;
  probes: Record<string, Probe>;
  graphqlExecution: GraphqlExecution;
  ledgerProblems: number;
  peakHwm: number;
  serviceRssAtStart: number | null;
  webhooks: Webhooks | null;
}

/** The payments' rate as a fraction of pgbench's tps; null when either is missing. */
export function fractionOfPgbench(result: Measured | undefined, pgbench: Pgbench): number | null {
  return result && pgbench.tps > 0 ? round(result.requestsPerSecond / pgbench.tps, 3) : null;
}

export function targetsOf(judged: Judged): Target[] {
  const { results, pgbench, probes, graphqlExecution, ledgerProblems, peakHwm, webhooks } = judged;
  const find = (name: string) => results.find((result) => result.name === name);
  const tenK = find('rest-list-transactions-10-000-rows');
  const payment = find('rest-record-customer-payment');
  const barePayment = find('baseline-record-customer-payment');
  const paymentFraction = fractionOfPgbench(payment, pgbench);
  return [
    ratioTarget(results, 'rest-lookup-customer', 'REST lookup-customer', 0.85),
    ratioTarget(results, 'graphql-lookup-customer', 'GraphQL customer(locator)', 0.8),
    ratioTarget(results, 'rest-list-transactions-1-day', 'REST list-transactions, 1 day (300 rows)', 0.7),
    ratioTarget(results, 'rest-list-transactions-10-000-rows', 'REST list-transactions, 10,000 rows', 0.7),
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
    ratioTarget(results, 'rest-record-customer-payment', 'REST record-customer-payment', 0.8),
    {
      target: `REST record-customer-payment ≥ 25% of pgbench's TPC-B-like tps (-M prepared, ${pgbench.clients} clients)`,
      measured:
        paymentFraction === null ? null : `${paymentFraction} (${payment?.requestsPerSecond}/s of ${pgbench.tps} tps)`,
      met: payment ? paymentFraction !== null && paymentFraction >= 0.25 && failuresOf(payment) === 0 : false,
      bound: `the bare payment of the same statements: ${fractionOfPgbench(barePayment, pgbench) ?? '?'} of pgbench (${barePayment?.requestsPerSecond ?? '?'}/s)`,
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
      bound: `${mb(judged.serviceRssAtStart)} MB resident at start`,
    },
    webhooksTarget(webhooks),
  ];
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
}

/** Kept from the event log's arrival: its webhooks must not slow the payments much. */
function webhooksTarget(webhooks: Webhooks | null): Target {
  return {
    target: 'record-customer-payment with a webhook endpoint ≥ 85% of the rate without one',
    measured: webhooks?.ratio ?? null,
    met: webhooks ? webhooks.ratio !== null && webhooks.ratio >= 0.85 && webhooks.withEndpoint.non2xx === 0 : null,
    ...(webhooks?.withEndpoint.cpu && webhooks.without.cpu
      ? {
          // What the endpoint adds to a payment, by who spends it (the process runs the worker, autocannon's the receiver).
          bound: `CPU per payment with the endpoint against without: ${cpuAgainst(webhooks.withEndpoint.cpu, webhooks.without.cpu, { process: "the service's process (its worker included)", loadGenerator: "autocannon's process (the receiver's too)" })}`,
        }
      : {}),
  };
}
