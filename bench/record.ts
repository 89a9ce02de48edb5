// Whether a run may call itself "of record": only on a machine that was idle before it started and
// stayed so, measured rather than trusted. Before the run: the 1-minute load average, and a few
// seconds of the machine's busy time against the bench's own (other work's share). During it: each
// scenario's share of the machine that went to other work (cpu.ts's othersShare: busy time spent by
// neither the bench's processes, its databases' backends, nor the Postgres server's background). A
// run with --only, --from-source, a shorter --duration than the default or a data set that is not a
// whole scale is a partial run, never of record either. The results say recordWorthy and why not.
import os from 'node:os';
import { machineCpuMs } from './cpu.js';
import type { Measured } from './load.js';
import { log, round } from './log.js';
import type { Settings } from './settings.js';

/** Other work may take at most this share of the machine, before the run or during any scenario. */
export const OTHERS_AT_MOST = 0.1;
/** The 1-minute load average at the start may be at most this per core. */
export const LOAD_PER_CORE_AT_MOST = 0.5;

export interface Idleness {
  loadAverage: number;
  /** The machine's busy share over a few seconds before the run, less this process's own. */
  othersShare: number | null;
}

export interface RecordJudgement {
  recordWorthy: boolean;
  reasons: string[];
  before: Idleness;
  /** The scenario during which other work took the largest share of the machine, and that share. */
  busiestScenario: { name: string; othersShare: number } | null;
}

/** The machine before the run: its load average, and other work's share over `seconds`. */
export async function idlenessBefore(seconds = 3): Promise<Idleness> {
  const loadAverage = round(os.loadavg()[0] ?? 0, 2);
  let othersShare: number | null = null;
  try {
    const before = machineCpuMs();
    const own = process.cpuUsage();
    await new Promise((done) => setTimeout(done, seconds * 1000));
    const after = machineCpuMs();
    const spent = process.cpuUsage(own);
    const total = after.total - before.total;
    const others = after.busy - before.busy - (spent.user + spent.system) / 1000;
    othersShare = total > 0 ? round(Math.max(0, others) / total, 2) : null;
  } catch {
    othersShare = null; // no /proc: judged on the load average alone
  }
  log(
    `the machine before the run: 1-minute load average ${loadAverage} on ${os.cpus().length} CPUs, other work ${othersShare === null ? '?' : `${Math.round(othersShare * 100)}%`} of it over ${seconds} s`,
  );
  return { loadAverage, othersShare };
}

export function judgeRecord(settings: Settings, before: Idleness, results: readonly Measured[]): RecordJudgement {
  const reasons: string[] = [];
  const cores = os.cpus().length;
  if (before.loadAverage > LOAD_PER_CORE_AT_MOST * cores)
    reasons.push(
      `the 1-minute load average was ${before.loadAverage} at the start (at most ${LOAD_PER_CORE_AT_MOST * cores} on ${cores} CPUs)`,
    );
  if (before.othersShare !== null && before.othersShare > OTHERS_AT_MOST)
    reasons.push(
      `other work took ${Math.round(before.othersShare * 100)}% of the machine before the run (at most ${OTHERS_AT_MOST * 100}%)`,
    );
  let busiestScenario: RecordJudgement['busiestScenario'] = null;
  for (const result of results) {
    const share = result.cpu?.othersShare;
    if (share != null && share > (busiestScenario?.othersShare ?? -1))
      busiestScenario = { name: result.name, othersShare: share };
  }
  if (busiestScenario && busiestScenario.othersShare > OTHERS_AT_MOST)
    reasons.push(
      `other work took ${Math.round(busiestScenario.othersShare * 100)}% of the machine during ${busiestScenario.name} (at most ${OTHERS_AT_MOST * 100}%)`,
    );
  if (!results.some((result) => result.cpu))
    reasons.push('no CPU figures (no /proc): the machine could not be judged idle');
  const partial = [
    settings.only.length ? `--only ${settings.onlyOption}` : null,
    settings.fromSource ? '--from-source' : null,
    settings.duration < 10 ? `--duration ${settings.duration} (under 10 s)` : null,
    !Number.isInteger(settings.scale) ? `${settings.customers} customers (not a whole scale of 20,000)` : null,
  ].filter((word): word is string => word !== null);
  if (partial.length) reasons.push(`a partial run: ${partial.join(', ')}`);
  return { recordWorthy: reasons.length === 0, reasons, before, busiestScenario };
}
