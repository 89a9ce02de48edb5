// The record of a run: bench/results.json (or --out's), its chart results.svg (bench/chart.ts), and
// the table and targets printed at the end.

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { LedgerReport } from '../src/ledger/check.js';
import { renderChart } from './chart.js';
import type { Load } from './load.js';
import { log, mb, phases, round } from './log.js';
import type { ErrorLog } from './processes.js';
import type { ProfileSummary } from './profile.js';
import type { GraphqlExecution } from './scenarios/graphql-execution.js';
import type { LimitsInRedis } from './scenarios/limits-in-redis.js';
import type { WindowRows } from './scenarios/lists.js';
import type { LockTimelineFigures } from './scenarios/lock-timeline.js';
import type { Pgbench } from './scenarios/pgbench.js';
import type { Webhooks } from './scenarios/webhooks.js';
import type { Settings } from './settings.js';
import type { Target } from './targets.js';
import type { Window } from './workload.js';

/** Everything the run measured and read, as the record is written from it. */
export interface Run {
  settings: Settings;
  /** The machine's 1-minute load average at the start. */
  busy: number;
  postgresVersion: string;
  partner: string;
  counts: Record<string, number>;
  windows: Record<string, Window>;
  windowRows: WindowRows;
  pgbench: Pgbench;
  paymentFractionOfPgbench: number | null;
  profiles: Record<string, ProfileSummary> | null;
  graphqlExecution: GraphqlExecution;
  webhooks: Webhooks | null;
  limitsInRedis: LimitsInRedis | null;
  lockTimeline: LockTimelineFigures;
  serviceErrors: ErrorLog;
  load: Load;
  serviceRssAtStart: number | null;
  serviceHwm: number | null;
  ledger: LedgerReport;
  targets: Target[];
}

/** Writes results.json and results.svg into --out. */
export function writeResults(run: Run): void {
  const { settings, pgbench, load, windowRows } = run;
  const report = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryBytes: os.totalmem(),
      platform: `${os.type()} ${os.release()}`,
      node: process.version,
      postgres: run.postgresVersion,
      loadAverageAtStart: round(run.busy, 2),
    },
    pgbench: { ...pgbench, paymentFractionOfTps: run.paymentFractionOfPgbench },
    profiles: run.profiles,
    graphqlExecution: run.graphqlExecution.figures,
    webhooks: run.webhooks,
    limitsInRedis: run.limitsInRedis,
    lockTimeline: run.lockTimeline,
    settings: {
      customers: settings.customers,
      durationSeconds: settings.duration,
      warmupSeconds: settings.warmup,
      lookupConnections: settings.lookupConnections,
      paymentConnections: settings.paymentConnections,
      fill: 'generator',
      runsAs: settings.fromSource ? 'TypeScript through tsx (--from-source)' : 'compiled JavaScript (dist-bench/)',
      graphqlExecutor: settings.executor,
      serviceV8Flags: settings.serviceV8Flags,
      only: settings.only.length ? settings.only : null,
      partnerId: run.partner,
    },
    data: {
      counts: run.counts,
      windows: Object.fromEntries(
        Object.entries(run.windows).map(([name, w]) => [
          name,
          { ...w, rows: windowRows.rows[name], probe: windowRows.probes[name] },
        ]),
      ),
    },
    serviceErrorLog: { count: run.serviceErrors.count, samples: run.serviceErrors.samples },
    scenarios: load.results,
    memory: {
      serviceRssAtStartBytes: run.serviceRssAtStart,
      serviceRssPeakSampledBytes: load.rssPeakSampled,
      serviceVmHWMBytes: run.serviceHwm,
    },
    ledger: {
      clean: run.ledger.problems.length === 0,
      checked: run.ledger.checked,
      problems: run.ledger.problems.slice(0, 50),
    },
    targets: run.targets,
    phasesSeconds: phases,
  };
  mkdirSync(settings.outDir, { recursive: true });
  writeFileSync(join(settings.outDir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  const subtitle = `${report.at.slice(0, 16).replace('T', ' ')} UTC · ${report.machine.cpus} × ${report.machine.cpuModel.trim()} · Postgres ${run.postgresVersion.split(' ')[0]} · ${run.counts.customers?.toLocaleString('en-US')} customers · ${settings.duration} s per scenario`;
  writeFileSync(
    join(settings.outDir, 'results.svg'),
    renderChart(
      load.results.map((result) => ({
        label: `${result.label} (${result.connections} conn)`,
        requestsPerSecond: result.requestsPerSecond,
        p50Ms: result.latencyMs.p50,
        p99Ms: result.latencyMs.p99,
        // A ratio only where the scenario has a baseline; a baseline's own bar carries none.
        ratioToBaseline: result.target === 'baseline' ? null : result.ratioToBaseline,
        baselineRequestsPerSecond:
          result.target === 'baseline' || result.baseline === null ? null : (load.rates.get(result.baseline) ?? null),
        baseline: result.target === 'baseline',
      })),
      'device-financing service: requests per second (npm run bench)',
      subtitle,
      `pgbench TPC-B-like (-M prepared, scale ${pgbench.scale}, ${pgbench.clients} clients) on the same server: ${Math.round(pgbench.tps).toLocaleString('en-US')} tps; the payments ran at ${run.paymentFractionOfPgbench ?? '?'} of it`,
    ),
  );
}

/** The table of every scenario, the floor, memory, the ledger, the targets and the phases, printed. */
export function printSummary(run: Run): void {
  const { pgbench, serviceErrors } = run;
  log('');
  log(`| scenario | conn | rows | req/s | p50 ms | p99 ms | × its baseline | failures |`);
  log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
  for (const result of run.load.results) {
    const failures = result.non2xx + result.errors + result.timeouts + result.graphqlErrors;
    log(
      `| ${result.label} | ${result.connections} | ${result.rowsPerResponse ?? ''} | ${result.requestsPerSecond.toLocaleString('en-US')} | ${result.latencyMs.p50} | ${result.latencyMs.p99} | ${result.ratioToBaseline?.toFixed(2) ?? ''} | ${failures} |`,
    );
  }
  log('');
  const payment = run.load.results.find((result) => result.name === 'rest-record-customer-payment');
  log(
    `pgbench TPC-B-like (-M prepared, scale ${pgbench.scale}, ${pgbench.clients} clients, ${pgbench.threads} threads): ${pgbench.tps} tps; record-customer-payment ${payment?.requestsPerSecond ?? '?'}/s = ${run.paymentFractionOfPgbench ?? '?'} of it`,
  );
  log(
    `service memory: ${mb(run.serviceRssAtStart)} MB at start, peak ${mb(run.serviceHwm)} MB (VmHWM), ${mb(run.load.rssPeakSampled)} MB highest sampled RSS`,
  );
  if (serviceErrors.count)
    log(`service error log: ${serviceErrors.count} error lines, e.g. ${serviceErrors.samples[0]}`);
  log(
    `ledger after the payments: ${run.ledger.problems.length === 0 ? 'clean' : `${run.ledger.problems.length} problems`}`,
  );
  log('targets:');
  for (const target of run.targets)
    log(
      `  ${target.met === null ? 'n/a ' : target.met ? 'met ' : 'MISS'}  ${target.target}: ${target.measured ?? 'not measured'}${!target.met && target.bound ? `; bound: ${target.bound}` : ''}`,
    );
  log(
    `phases (s): ${Object.entries(phases)
      .map(([name, seconds]) => `${name} ${seconds}`)
      .join(', ')}`,
  );
  log(`wrote ${join(run.settings.out, 'results.json')} and ${join(run.settings.out, 'results.svg')}`);
}
