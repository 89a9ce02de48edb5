// --profile (phase layers): what each of the service's layers costs a lookup, measured by switching it
// off alone (docs/decisions.md 47). The service's layers are served whole and without one named layer
// (bench/core-server.ts with BENCH_LAYERS, compiled, as production runs), each on a process of its own
// with the same pool, and every door (REST and GraphQL, 250 store keys and one key) is loaded on each
// in alternating turns, so the machine's drift falls on all alike. A process's CPU per request, and
// its Postgres backends', come from /proc (bench/cpu.ts); a layer's cost is the whole list's CPU per
// request minus the list's without it. Differences of a few µs are inside the noise of a shared machine:
// the turns say how many requests each figure comes from.
import type { ChildProcess } from 'node:child_process';
import { SERVICE_LAYER_NAMES } from '../core.js';
import { addCpu, type CpuSpent, cpuBetween, cpuReadable, readCpu } from '../cpu.js';
import { postgresPids, run, type Scenario, settle, unionOf } from '../load.js';
import { log, phase, round } from '../log.js';
import { benchPids, startProcess, stopProcess } from '../processes.js';
import type { Bench } from '../services.js';

/** The doors profiled, by the lookups' scenario names (scenarios/lookups.ts). */
const DOORS = [
  'rest-lookup-customer',
  'graphql-lookup-customer',
  'rest-lookup-customer-one-key',
  'graphql-lookup-customer-one-key',
] as const;

/** The lists served: the service's layers whole, then without each. */
const VARIANTS = ['service', ...SERVICE_LAYER_NAMES.map((name) => `service-without:${name}`)] as const;

/** One list's figures on one door: its requests, and CPU per request in µs. */
export interface LayerRun {
  requests: number;
  requestsPerSecond: number;
  processUs: number | null;
  postgresUs: number | null;
}

/** One door's profile: each list's run, and each layer's cost (the whole list's CPU per request minus its without). */
export interface DoorLayers {
  door: string;
  /** The rate every list was asked (60% of the whole list's flat-out rate). */
  requestsPerSecondAsked: number;
  runs: Record<string, LayerRun>;
  layers: Array<{ layer: string; processUs: number | null; postgresUs: number | null }>;
}

export function profileLayers(bench: Bench, lookups: readonly Scenario[]): Promise<DoorLayers[]> {
  return phase('layers', async () => {
    const { settings, services } = bench;
    const started: Array<{ variant: string; child: ChildProcess; port: number }> = [];
    try {
      for (const variant of VARIANTS) {
        const { child, port } = await startProcess(
          settings,
          `layers: ${variant}`,
          'bench/core-server.ts',
          services.serviceEnvironment(`layers-${variant.replace(/[^a-z]+/g, '-')}`, { BENCH_LAYERS: variant }),
          { anyAnswer: true },
          services.serviceErrors,
        );
        started.push({ variant, child, port });
      }
      const profiles: DoorLayers[] = [];
      for (const door of DOORS) {
        const scenario = lookups.find((candidate) => candidate.name === door);
        if (scenario) profiles.push(await profileDoor(bench, scenario, started));
      }
      return profiles;
    } finally {
      for (const { child } of started) await stopProcess(child);
    }
  });
}

async function profileDoor(
  bench: Bench,
  scenario: Scenario,
  processes: ReadonlyArray<{ variant: string; child: ChildProcess; port: number }>,
): Promise<DoorLayers> {
  const { settings } = bench;
  // Quiet between runs: the database idle and the whole list's /healthz prompt (a list without the
  // operations layer has no /healthz of its own).
  const wholePort = processes.find(({ variant }) => variant === 'service')!.port;
  const tallies = new Map(
    processes.map(({ variant }) => [variant, { requests: 0, seconds: 0, cpu: null as CpuSpent | null }]),
  );
  // Every list is asked the same rate, 60% of what the whole list answers flat out (read in its
  // warm-up): a process's CPU per request moves with how saturated it is (more shared in a busy turn,
  // more idle polling in a slow one), so lists loaded to their own limits would not compare.
  let wholeRate = 0;
  for (const { variant, port } of processes) {
    await settle(bench, wholePort);
    const warmup = await run({ ...scenario.options(port), duration: Math.max(2, settings.warmup) });
    if (variant === 'service') wholeRate = warmup.requests.total / Math.max(1, warmup.duration);
  }
  const overallRate = Math.max(10, Math.round(wholeRate * 0.6));
  const turnSeconds = Math.max(1, settings.duration / settings.turns);
  for (let turn = 0; turn < settings.turns; turn++) {
    const order = turn % 2 === 0 ? processes : [...processes].reverse();
    for (const { variant, child, port } of order) {
      await settle(bench, wholePort);
      const pid = child.pid as number;
      const pidsBefore = cpuReadable ? await postgresPids(bench) : null;
      const before = cpuReadable ? readCpu(pid, pidsBefore, benchPids()) : null;
      const result = await run({ ...scenario.options(port), duration: turnSeconds, overallRate });
      const pids = before ? unionOf(pidsBefore, await postgresPids(bench)) : null;
      const spent = before && cpuBetween(before, readCpu(pid, pids, benchPids()));
      const tally = tallies.get(variant)!;
      tally.requests += result.requests.total;
      tally.seconds += result.duration;
      if (spent) tally.cpu = tally.cpu ? addCpu(tally.cpu, spent) : spent;
    }
  }
  const perRequestUs = (ms: number | null | undefined, requests: number) =>
    ms == null || requests === 0 ? null : round((ms * 1000) / requests, 1);
  const runs: Record<string, LayerRun> = {};
  for (const [variant, tally] of tallies)
    runs[variant] = {
      requests: tally.requests,
      requestsPerSecond: tally.seconds > 0 ? round(tally.requests / tally.seconds) : 0,
      processUs: perRequestUs(tally.cpu?.process, tally.requests),
      postgresUs: perRequestUs(tally.cpu?.postgres, tally.requests),
    };
  const whole = runs.service!;
  const less = (a: number | null, b: number | null) => (a === null || b === null ? null : round(a - b, 1));
  const layers = SERVICE_LAYER_NAMES.map((layer) => {
    const without = runs[`service-without:${layer}`]!;
    return {
      layer,
      processUs: less(whole.processUs, without.processUs),
      postgresUs: less(whole.postgresUs, without.postgresUs),
    };
  });
  log(
    `layers of ${scenario.label}, at ${overallRate} requests/s each: the whole list ${whole.processUs ?? '?'} µs of the process and ${whole.postgresUs ?? '?'} µs of Postgres per request (${whole.requests} requests); ${layers
      .map((layer) => `${layer.layer} ${layer.processUs ?? '?'} + ${layer.postgresUs ?? '?'} µs`)
      .join(', ')}`,
  );
  return { door: scenario.name, requestsPerSecondAsked: overallRate, runs, layers };
}
