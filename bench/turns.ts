// A turn of load: autocannon (or a scenario's own runner: pgbench) against one scenario's answering
// process for a number of seconds, after the service has settled, with the CPU it cost read before
// and after (bench/cpu.ts: the answering process, the backends of the bench's databases, the
// server's background, the load generator, the bench's other processes) and the service's RSS
// sampled meanwhile; and a group's turns, alternating, until each has its answers (load.ts).
import os from 'node:os';
import autocannon from 'autocannon';
import { addCpu, type CpuSpent, cpuBetween, cpuReadable, type PostgresPids, readCpu } from './cpu.js';
import { round } from './log.js';
import { benchPids, procStatus } from './processes.js';
import type { Scenario, TurnFigures } from './scenario.js';
import type { Bench } from './services.js';

/** One autocannon run; `onResponseTime` hears each answer's latency in ms (a scenario's turns pool them). */
export function run(options: autocannon.Options, onResponseTime?: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((done, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : done(result)));
    if (onResponseTime)
      instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => onResponseTime(ms));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/**
 * Between runs, the service must be idle: autocannon stops at the deadline but the service still
 * answers what it had received (it does not cancel on a closed socket). Waits until /healthz answers
 * promptly three times in a row and no statement of the service runs on the bench database; the
 * seconds it waited.
 */
export async function settle(bench: Bench, port = bench.services.servicePort): Promise<number> {
  const at = Date.now();
  let quiet = 0;
  // A smoke run's figures mean nothing: one answer says the service is there.
  const needed = bench.settings.quietBeforeRuns ? 3 : 1;
  while (quiet < needed && Date.now() - at < 180_000) {
    const asked = performance.now();
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`, {
      signal: AbortSignal.timeout(5000),
    }).then(
      (r) => r.ok,
      () => false,
    );
    const prompt = healthy && (!bench.settings.quietBeforeRuns || performance.now() - asked < 100);
    const active = (
      await bench.data.raw(
        `select count(*)::int as n from pg_stat_activity where datname = ? and state <> 'idle' and pid <> pg_backend_pid()`,
        [bench.database.name],
      )
    ).rows[0] as { n: number };
    quiet = prompt && (!bench.settings.quietBeforeRuns || Number(active.n) === 0) ? quiet + 1 : 0;
    await new Promise((done) => setTimeout(done, quiet ? 100 : 500));
  }
  return round((Date.now() - at) / 1000);
}

/** What one scenario's turns add up to. */
export interface Tally {
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

export const newTally = (): Tally => ({
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

/** `scenario`'s warm-up, `times` the settings' (a group's share, load.ts). */
export async function warmUp(bench: Bench, scenario: Scenario, times = 1): Promise<void> {
  const seconds = Math.max(bench.settings.warmup * times, scenario.minTurnSeconds ?? 0);
  if (scenario.runTurn) await scenario.runTurn(seconds);
  else await run({ ...scenario.options(portOf(bench, scenario)), duration: seconds });
}

/**
 * A group's turns: settings.turns of them (TURNS; one in a smoke run or for a scenario alone), the order reversed every turn, so that
 * each scenario's share of the machine's drift (its speed moves under a run of minutes on this shared
 * VM) is its baseline's; then more, still alternating, while a scenario has fewer answers than
 * --p99-requests and less than --max-seconds of load. How many turns it took.
 */
export async function measureInTurns(
  bench: Bench,
  group: readonly Scenario[],
  tallies: Map<Scenario, Tally>,
  rssSamples: number[],
): Promise<number> {
  const { duration, p99Requests, maxSeconds } = bench.settings;
  const planned = group.length > 1 ? bench.settings.turns : 1;
  const turnSeconds = Math.max(duration / planned, ...group.map((scenario) => scenario.minTurnSeconds ?? 0));
  const short = () =>
    group.some((scenario) => {
      const tally = tallies.get(scenario)!;
      return tally.requests < p99Requests && tally.seconds + turnSeconds <= maxSeconds;
    });
  let turn = 0;
  for (; turn < planned || short(); turn++) {
    const order = turn % 2 === 0 ? group : [...group].reverse();
    for (const scenario of order) await measureTurn(bench, scenario, turnSeconds, tallies.get(scenario)!, rssSamples);
  }
  return turn;
}

const portOf = (bench: Bench, scenario: Scenario) => bench.services.answering[scenario.target].port;

/**
 * The Postgres processes whose CPU is the bench's: the backends of its databases (the run's and
 * pgbench's), and the server's background processes (no database); every other backend is other work.
 */
export async function postgresPids(bench: Bench): Promise<PostgresPids | null> {
  if (!bench.database.postgresLocal) return null;
  const rows = (await bench.data.raw(`select pid::text as pid, datname from pg_stat_activity`)).rows as Array<{
    pid: string;
    datname: string | null;
  }>;
  const ours = new Set([bench.database.name, `${bench.database.name}_pgbench`]);
  return {
    own: rows.filter((row) => row.datname !== null && ours.has(row.datname)).map((row) => row.pid),
    server: rows.filter((row) => row.datname === null).map((row) => row.pid),
  };
}

/** Both readings' pids: a backend that started during the span counts from zero. */
export const unionOf = (a: PostgresPids | null, b: PostgresPids | null): PostgresPids | null =>
  a && b ? { own: [...new Set([...a.own, ...b.own])], server: [...new Set([...a.server, ...b.server])] } : null;

/** One measured turn of `scenario`, `seconds` long, added to its tally; the service's RSS sampled meanwhile. */
async function measureTurn(
  bench: Bench,
  scenario: Scenario,
  seconds: number,
  tally: Tally,
  rssSamples: number[],
): Promise<void> {
  tally.settledSeconds += await settle(bench);
  const sampler = setInterval(() => {
    const rss = procStatus(bench.services.answering.service.pid, 'VmRSS');
    if (rss !== null) {
      tally.peak = Math.max(tally.peak, rss);
      rssSamples.push(rss);
    }
  }, 200);
  // pgbench's client and its backends live only through its turn, gone before the second reading: its
  // CPU is not read (nor judged in record.ts), its rate and times are.
  const readable = cpuReadable && !scenario.runTurn;
  const answering = bench.services.answering[scenario.target].pid;
  const pidsBefore = readable ? await postgresPids(bench) : null;
  const cpuBefore = readable ? readCpu(answering, pidsBefore, benchPids()) : null;
  const figures = scenario.runTurn
    ? await scenario.runTurn(seconds)
    : await autocannonTurn(bench, scenario, seconds, tally);
  const pids = cpuBefore ? unionOf(pidsBefore, await postgresPids(bench)) : null;
  const spent = cpuBefore && cpuBetween(cpuBefore, readCpu(answering, pids, benchPids()));
  clearInterval(sampler);
  if (spent) tally.cpu = tally.cpu ? addCpu(tally.cpu, spent) : spent;
  tally.requests += figures.requests;
  tally.seconds += figures.seconds;
  tally.errors += figures.failed;
  for (const time of figures.times) tally.times.push(time);
}

/** One turn of autocannon: its answers' times pooled, its failures and bytes counted in the tally. */
async function autocannonTurn(bench: Bench, scenario: Scenario, seconds: number, tally: Tally): Promise<TurnFigures> {
  const options = { ...scenario.options(portOf(bench, scenario)), duration: seconds };
  if (scenario.graphql && options.requests) {
    options.requests = options.requests.map((request) => ({
      ...request,
      onResponse: (status: number, body: string, context: object, headers: autocannon.Request['headers']) => {
        if (body.includes('"errors"')) tally.graphqlErrors += 1;
        if (typeof request.onResponse === 'function') request.onResponse(status, body, context, headers);
      },
    }));
  }
  const times: number[] = [];
  const result = await run(options, (ms) => times.push(ms));
  tally.non2xx += result.non2xx;
  tally.timeouts += result.timeouts;
  tally.bytes += result.throughput.total;
  return { requests: result.requests.total, seconds: result.duration, times, failed: result.errors };
}
