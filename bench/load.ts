// The load: autocannon on loopback against the answering process of each scenario, after a short
// warm-up, and the figures of each measured run. Every door is measured in turns with its baseline
// (TURNS each, the order reversed every turn, their answer times pooled) so that the machine's drift
// falls on both alike; pgbench's turns join the payments' (pgbench.ts). A group's turns go on until
// each of its scenarios has answered --p99-requests requests (its p99 then a tail, not the slowest of
// a few dozen) or has had --max-seconds of load; a p99 from fewer says why (p99Basis).
import os from 'node:os';
import { type CpuPerRequest, cpuPerRequest, describeCpu } from './cpu.js';
import { log, phase, round } from './log.js';
// A turn's pieces live in turns.ts; the webhooks phase and the lists' probes use these from here.
import type { Scenario } from './scenario.js';
import type { Bench, Target } from './services.js';
import { measureInTurns, newTally, settle, type Tally, warmUp } from './turns.js';

export type { Scenario, TurnFigures } from './scenario.js';
export { postgresPids, run, settle, unionOf } from './turns.js';

/** How many answers a p99 comes from, and why fewer than asked for where so. */
export interface P99Basis {
  requests: number;
  wanted: number;
  /** The rank of the answer reported as p99, counted from the slowest (1: the slowest of all). */
  rankFromSlowest: number;
  why: string | null;
}

export interface Measured {
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
  p99Basis: P99Basis;
}

/** What the load phase measured: each scenario's figures, in order, and the service's sampled RSS. */
export interface Load {
  results: Measured[];
  /** Each scenario's requests per second, by name: the baselines' are the ratios' denominators. */
  rates: Map<string, number>;
  rssPeakSampled: number | null;
}

export const failuresOf = (result: Measured) => result.non2xx + result.errors + result.timeouts + result.graphqlErrors;

/** Latency figures of pooled answer times, as autocannon reports its own. */
function latencyOf(times: number[]): Measured['latencyMs'] {
  if (times.length === 0) return { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  const sorted = [...times].sort((a, b) => a - b);
  const at = (share: number) => round(sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!, 0);
  const mean = sorted.reduce((sum, time) => sum + time, 0) / sorted.length;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(sorted.at(-1)!, 0), mean: round(mean, 2) };
}

/** The scenarios measured together: a baseline with those held against it in turns, or one scenario alone. */
export function groupsOf(scenarios: readonly Scenario[]): Scenario[][] {
  const groups: Scenario[][] = [];
  for (const scenario of scenarios) {
    const group = groups.at(-1);
    const joins =
      scenario.inTurns &&
      group?.[0]?.inTurns &&
      group[0].target === 'baseline' &&
      (scenario.baseline ?? scenario.turnsWith) === group[0].name;
    if (joins) group.push(scenario);
    else groups.push([scenario]);
  }
  return groups;
}

/**
 * How many warm-ups a scenario of `group` runs: every process answering the group gets as many as the
 * one answering most of its scenarios (the service answers REST and GraphQL; the limits-in-Redis
 * process one door, the bare code one). A process's JavaScript costs less per request the longer it
 * has run (measured: a lookup 0.2 to 0.3 ms less after 25 s of load than after 5), so a process warmed
 * half as long would be measured half-warm against the others.
 */
export function warmUpShares(group: readonly Scenario[]): (scenario: Scenario) => number {
  // A scenario with a runner of its own (pgbench) loads no process of ours.
  const served = group.filter((scenario) => !scenario.runTurn);
  const answered = new Map<Target, number>();
  for (const scenario of served) answered.set(scenario.target, (answered.get(scenario.target) ?? 0) + 1);
  const most = Math.max(1, ...answered.values());
  return (scenario) => (scenario.runTurn ? 1 : most / answered.get(scenario.target)!);
}

/**
 * The phase load: every scenario in order, each group warmed up, then measured (in turns where it is a
 * group). `rowsOf` gives a scenario's rows per response, where it lists rows.
 */
export async function measureScenarios(
  bench: Bench,
  scenarios: readonly Scenario[],
  rowsOf: (scenario: Scenario) => number | undefined,
): Promise<Load> {
  const load: Load = { results: [], rates: new Map(), rssPeakSampled: null };
  const rssSamples: number[] = [];
  await phase('load', async () => {
    for (const group of groupsOf(scenarios)) {
      const tallies = new Map(group.map((scenario) => [scenario, newTally()]));
      const warmUpOf = warmUpShares(group);
      for (const scenario of group) {
        await settle(bench);
        if (bench.settings.warmup > 0) await warmUp(bench, scenario, warmUpOf(scenario));
      }
      await settle(bench);
      // Every measurement starts on vacuumed tables and a fresh checkpoint (a smoke run's need not): Postgres's background work
      // (autovacuum after the payments' inserts, a checkpoint's flush and the full pages written after
      // it) otherwise falls in whichever run it happens to, and is charged to that run alone.
      if (bench.settings.quietBeforeRuns) {
        await bench.data.raw('vacuum');
        await bench.data.raw('checkpoint');
      }
      const turns = await measureInTurns(bench, group, tallies, rssSamples);
      for (const scenario of group) {
        const measured = measuredOf(scenario, tallies.get(scenario)!, turns, rowsOf(scenario), load.rates, bench);
        load.results.push(measured);
        report(measured);
      }
    }
  });
  load.rssPeakSampled = rssSamples.length ? Math.max(...rssSamples) : null;
  return load;
}

/** How the p99 of a scenario's answers was read, and why from fewer than --p99-requests where so. */
function p99BasisOf(scenario: Scenario, tally: Tally, bench: Bench): P99Basis {
  const { p99Requests: wanted, maxSeconds } = bench.settings;
  const requests = tally.times.length;
  const rankFromSlowest = requests ? requests - Math.min(requests, Math.ceil(0.99 * requests)) + 1 : 0;
  let why: string | null = null;
  if (requests < wanted) {
    const perSecond = tally.seconds ? requests / tally.seconds : 0;
    why =
      requests === 0
        ? 'no request answered'
        : `${requests} answers in ${round(tally.seconds)} s of load (${round(perSecond, 2)}/s on ${scenario.connections} connection${scenario.connections === 1 ? '' : 's'}): ${wanted.toLocaleString('en-US')} would take about ${Math.round(wanted / perSecond)} s, over --max-seconds ${maxSeconds}`;
  }
  return { requests, wanted, rankFromSlowest, why };
}

/** A scenario's figures from its tally, its ratio against its baseline's rate (which must have run before it). */
function measuredOf(
  scenario: Scenario,
  tally: Tally,
  turns: number,
  rowsPerResponse: number | undefined,
  rates: Map<string, number>,
  bench: Bench,
): Measured {
  const measured: Measured = {
    name: scenario.name,
    label: scenario.label,
    target: scenario.target,
    // A baseline is its own (ratio 1); what only shares a baseline's turns (pgbench) has no ratio.
    baseline: scenario.target === 'baseline' && !scenario.turnsWith ? scenario.name : (scenario.baseline ?? null),
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
    ...(rowsPerResponse === undefined ? {} : { rowsPerResponse }),
    bytesPerResponse: tally.requests ? Math.round(tally.bytes / tally.requests) : 0,
    serviceRssPeakBytes: scenario.target === 'service' ? tally.peak : null,
    settledBeforeSeconds: round(tally.settledSeconds),
    loadAverage: { before: tally.loadBefore, after: round(os.loadavg()[0] ?? 0, 2) },
    cpu: tally.cpu ? cpuPerRequest(tally.cpu, tally.requests) : null,
    turns,
    p99Basis: p99BasisOf(scenario, tally, bench),
  };
  rates.set(scenario.name, measured.requestsPerSecond);
  const baselineRate = measured.baseline === null ? undefined : rates.get(measured.baseline);
  if (measured.baseline !== null && baselineRate === undefined)
    throw new Error(`scenario ${scenario.name} names the baseline ${measured.baseline}, which has not run before it`);
  measured.ratioToBaseline = baselineRate ? round(measured.requestsPerSecond / baselineRate, 3) : null;
  return measured;
}

/** A scenario's line as it is measured, and its CPU per request. */
function report(measured: Measured): void {
  const bad = failuresOf(measured);
  const none = measured.requests === 0 ? '  NO REQUEST COMPLETED within the run' : '';
  log(
    `${measured.label.padEnd(42)} ${String(measured.requestsPerSecond).padStart(9)}/s  p50 ${String(measured.latencyMs.p50).padStart(5)} ms  p99 ${String(measured.latencyMs.p99).padStart(5)} ms  ×${measured.ratioToBaseline?.toFixed(2) ?? '-'}${bad ? `  FAILURES ${bad} (non2xx ${measured.non2xx}, errors ${measured.errors}, timeouts ${measured.timeouts}, graphql ${measured.graphqlErrors})` : ''}${none}`,
  );
  if (measured.cpu)
    log(
      `${''.padEnd(42)} CPU per request: ${describeCpu(measured.cpu)}${measured.turns > 1 ? `; in ${measured.turns} turns` : ''}`,
    );
  const basis = measured.p99Basis;
  log(
    `${''.padEnd(42)} p99 from ${basis.requests} answers (the ${ordinalFromSlowest(basis.rankFromSlowest)})${basis.why ? `; fewer than ${basis.wanted}: ${basis.why}` : ''}`,
  );
}

/** 1: "slowest", 2: "2nd slowest", 21: "21st slowest". */
export function ordinalFromSlowest(rank: number): string {
  if (rank <= 1) return 'slowest';
  const suffix = rank % 100 >= 11 && rank % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][rank % 10] ?? 'th');
  return `${rank}${suffix} slowest`;
}
