// The record of a run: bench/results.json (or --out's), its chart results.svg (bench/chart.ts), and
// the table and targets printed at the end. results.json keeps one run per data scale (its `scales`
// map, keyed by the scale: "1", "10"): a run replaces its own scale's and keeps the others', and the
// chart draws every scale's rows, so the 10x run sits beside the 1x one.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { LedgerReport } from '../src/ledger/check.js';
import { type ChartRow, renderChart } from './chart.js';
import { failuresOf, type Load, type Measured, ordinalFromSlowest } from './load.js';
import { log, mb, phases } from './log.js';
import type { ErrorLog } from './processes.js';
import type { ProfileSummary } from './profile.js';
import type { RecordJudgement } from './record.js';
import type { Book } from './scenarios/book.js';
import type { GraphqlExecution } from './scenarios/graphql-execution.js';
import type { DoorLayers } from './scenarios/layers.js';
import type { LimitsInRedis } from './scenarios/limits-in-redis.js';
import type { WindowRows } from './scenarios/lists.js';
import type { LockTimelineFigures } from './scenarios/lock-timeline.js';
import type { LongWindow } from './scenarios/long-window.js';
import type { Pgbench } from './scenarios/pgbench.js';
import type { Webhooks } from './scenarios/webhooks.js';
import type { Settings } from './settings.js';
import { paceOf, type Target } from './targets.js';
import type { Window } from './workload.js';

/** Everything the run measured and read, as the record is written from it. */
export interface Run {
  settings: Settings;
  /** Of record or not, and why (record.ts). */
  record: RecordJudgement;
  postgresVersion: string;
  partner: string;
  counts: Record<string, number>;
  windows: Record<string, Window>;
  windowRows: WindowRows;
  longWindow: LongWindow;
  pgbench: Pgbench | null;
  paymentFractionOfPgbench: number | null;
  profiles: Record<string, ProfileSummary> | null;
  /** --profile: each of the service's layers switched off alone (scenarios/layers.ts). */
  layers: DoorLayers[] | null;
  graphqlExecution: GraphqlExecution;
  webhooks: Webhooks | null;
  limitsInRedis: LimitsInRedis | null;
  book: Book;
  /** Null on a reused database (--database): its orders stay behind. */
  lockTimeline: LockTimelineFigures | null;
  serviceErrors: ErrorLog;
  load: Load;
  serviceRssAtStart: number | null;
  serviceHwm: number | null;
  ledger: LedgerReport;
  targets: Target[];
}

/** The report of one run, as results.json keeps it under its scale. */
function reportOf(run: Run) {
  const { settings, pgbench, load, windowRows } = run;
  return {
    at: new Date().toISOString(),
    scale: settings.scale,
    recordWorthy: run.record.recordWorthy,
    notOfRecordBecause: run.record.reasons,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryBytes: os.totalmem(),
      platform: `${os.type()} ${os.release()}`,
      node: process.version,
      postgres: run.postgresVersion,
      before: run.record.before,
      busiestScenario: run.record.busiestScenario,
    },
    pgbench: pgbench && { ...pgbench, paymentFractionOfTps: run.paymentFractionOfPgbench },
    longWindow: run.longWindow,
    profiles: run.profiles,
    layers: run.layers,
    graphqlExecution: run.graphqlExecution.figures,
    webhooks: run.webhooks,
    limitsInRedis: run.limitsInRedis,
    book: run.book,
    lockTimeline: run.lockTimeline,
    settings: {
      scale: settings.scale,
      customers: settings.customers,
      durationSeconds: settings.duration,
      warmupSeconds: settings.warmup,
      p99Requests: settings.p99Requests,
      maxSecondsPerScenario: settings.maxSeconds,
      lookupConnections: settings.lookupConnections,
      paymentConnections: settings.paymentConnections,
      databasePool: settings.pool,
      fill: settings.reuse ? `reused database ${settings.reuse} (--database)` : 'generator',
      runsAs: settings.fromSource ? 'TypeScript through tsx (--from-source)' : 'compiled JavaScript (dist-bench/)',
      serviceV8Flags: settings.serviceV8Flags,
      baselineV8Flags: settings.baselineV8Flags,
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
}

type Report = ReturnType<typeof reportOf>;

/** The runs results.json already holds, by scale (none if it is missing or from before the scales). */
function storedScales(path: string): Record<string, Report> {
  if (!existsSync(path)) return {};
  try {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as { scales?: Record<string, Report> };
    return stored.scales ?? {};
  } catch {
    return {};
  }
}

/** The runs of results.json at `path` with `report` under its scale (replacing that scale's only), smallest scale first. */
export function scalesWith(path: string, scale: number, report: Report): Record<string, Report> {
  const scales = { ...storedScales(path), [String(scale)]: report };
  return Object.fromEntries(Object.entries(scales).sort(([a], [b]) => Number(a) - Number(b)));
}

/** Writes results.json (this run under its scale, beside the others) and results.svg (every scale) into --out. */
export function writeResults(run: Run): void {
  const { settings } = run;
  const path = join(settings.outDir, 'results.json');
  const report = reportOf(run);
  const ordered = scalesWith(path, settings.scale, report);
  mkdirSync(settings.outDir, { recursive: true });
  writeFileSync(path, `${JSON.stringify({ scales: ordered }, null, 2)}\n`);
  writeFileSync(join(settings.outDir, 'results.svg'), chartOf(ordered, report));
  log(
    `wrote ${join(settings.out, 'results.json')} (scale ${settings.scale}, beside the other scales it holds) and ${join(settings.out, 'results.svg')}`,
  );
}

/** Each scale's rows (labelled with their scale when there are several), and a note per scale. */
export function chartOf(scales: Record<string, Report>, latest: Report): string {
  const several = Object.keys(scales).length > 1;
  const rows: ChartRow[] = [];
  const notes: string[] = [];
  for (const [scale, report] of Object.entries(scales)) {
    const rate = (name: string | null) =>
      report.scenarios.find((result: Measured) => result.name === name)?.requestsPerSecond ?? null;
    for (const result of report.scenarios) {
      const isBaseline = result.target === 'baseline' && result.baseline === result.name;
      rows.push({
        label: `${several ? `${scale}x · ` : ''}${result.label} (${result.connections} conn)`,
        requestsPerSecond: result.requestsPerSecond,
        p50Ms: result.latencyMs.p50,
        p99Ms: result.latencyMs.p99,
        // A ratio only where the scenario has a baseline; a baseline's own bar carries none.
        ratioToBaseline: isBaseline ? null : result.ratioToBaseline,
        baselineRequestsPerSecond: isBaseline || result.baseline === null ? null : rate(result.baseline),
        baseline: isBaseline,
      });
    }
    const pace = paceOf(report.webhooks);
    notes.push(
      `${scale}x (${report.settings.customers.toLocaleString('en-US')} customers${report.recordWorthy ? '' : ', not of record'}): ` +
        `pgbench ${report.pgbench ? `${Math.round(report.pgbench.tps).toLocaleString('en-US')} tps at ${report.pgbench.clients} clients (best ${report.pgbench.best?.clients ?? '?'}: ${report.pgbench.best?.tps ?? '?'}), payments ${report.pgbench.paymentFractionOfTps ?? '?'} of it` : 'not run'}; ` +
        `webhooks ${pace.deliveriesPerSecond ?? '?'} deliveries/s, lag p99 ${pace.lagP99Ms ?? '?'} ms, backlog ${pace.backlogAtEnd ?? '?'} at the end, ${pace.backlogAfter10s ?? '?'} after 10 s; ` +
        `${report.longWindow.days} days: ${report.longWindow.rowsAnswered.toLocaleString('en-US')} rows in ${(report.longWindow.ms / 1000).toFixed(1)} s`,
    );
  }
  const subtitle = `${latest.at.slice(0, 16).replace('T', ' ')} UTC · ${latest.machine.cpus} × ${latest.machine.cpuModel.trim()} · Postgres ${latest.machine.postgres.split(' ')[0]} · ${Object.keys(
    scales,
  )
    .map((scale) => `${scale}x`)
    .join(', ')} data · at least ${latest.settings.durationSeconds} s per scenario, in turns`;
  return renderChart(rows, 'device-financing service: requests per second (npm run bench)', subtitle, notes);
}

/** The table of every scenario, the floor, the long window, memory, the webhooks, the ledger, the targets, the phases and whether the run is of record, printed. */
export function printSummary(run: Run): void {
  const { pgbench, serviceErrors } = run;
  log('');
  log(`| scenario | conn | rows | req/s | p50 ms | p99 ms | p99 of | × its baseline | failures |`);
  log(`|---|---:|---:|---:|---:|---:|---:|---:|---:|`);
  for (const result of run.load.results) {
    const basis = result.p99Basis;
    log(
      `| ${result.label} | ${result.connections} | ${result.rowsPerResponse ?? ''} | ${result.requestsPerSecond.toLocaleString('en-US')} | ${result.latencyMs.p50} | ${result.latencyMs.p99} | ${basis.requests.toLocaleString('en-US')}${basis.why ? ' *' : ''} | ${result.ratioToBaseline?.toFixed(2) ?? ''} | ${failuresOf(result)} |`,
    );
  }
  const few = run.load.results.filter((result) => result.p99Basis.why);
  for (const result of few)
    log(
      `* ${result.label}: p99 is the ${ordinalFromSlowest(result.p99Basis.rankFromSlowest)} of ${result.p99Basis.why}`,
    );
  log('');
  const payment = run.load.results.find((result) => result.name === 'rest-record-customer-payment');
  if (pgbench)
    log(
      `pgbench TPC-B-like (-M prepared, scale ${pgbench.scale}) in the payments' turns: ${pgbench.tps} tps at ${pgbench.clients} clients (the service's pool), ${pgbench.best?.tps ?? '?'} tps at its best count of ${pgbench.best?.clients ?? '?'}; record-customer-payment ${payment?.requestsPerSecond ?? '?'}/s = ${run.paymentFractionOfPgbench ?? '?'} of it`,
    );
  const pace = paceOf(run.webhooks);
  log(
    `webhooks: ${pace.deliveriesPerSecond ?? '?'} deliveries/s against ${pace.paymentsPerSecond ?? '?'} payments/s; lag p50 ${pace.lagP50Ms ?? '?'} ms, p99 ${pace.lagP99Ms ?? '?'} ms; backlog ${pace.backlogAtEnd ?? '?'} at the load's end, ${pace.backlogAfter10s ?? '?'} 10 s later (drained in ${pace.drainedInMs ?? '?'} ms)`,
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
  log(
    run.record.recordWorthy
      ? `of record: the machine was idle before and during the run (other work at most ${Math.round((run.record.busiestScenario?.othersShare ?? 0) * 100)}% of it)`
      : `NOT of record: ${run.record.reasons.join('; ')}`,
  );
}
