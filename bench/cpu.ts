// The bound of a missed ratio: where a scenario's CPU went. On this machine the service,
// its Postgres server and the load generator share two cores, and a door's rate is bounded by the CPU
// each request costs all three, not by its own process alone. Read from /proc before and after each
// measured run: the CPU time of the process answering (the service or the bare baseline), of every
// Postgres server process, of the load generator (this process: autocannon), and how busy the
// machine's cores were. Linux only (cpuReadable: elsewhere the bench reports none); with the
// database on another host the Postgres figure is null.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** Whether this machine has /proc to read (Linux): elsewhere the bench reports no CPU figures. */
export const cpuReadable = existsSync('/proc/stat');

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on every Linux we run). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User and system CPU of one process, in ms; null once it is gone. */
function processCpuMs(pid: number | string): { comm: string; ms: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields are counted after its end.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ms: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** CPU of every process named postgres, by pid (the postmaster, its backends and workers). */
function postgresCpuMs(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cpu = processCpuMs(entry);
    if (cpu?.comm === 'postgres') byPid.set(entry, cpu.ms);
  }
  return byPid;
}

/** The machine's busy and total CPU time over all cores, in ms (/proc/stat's first line). */
function machineCpuMs(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { busy: toMs(busy), total: toMs(busy + idle! + iowait!) };
}

export interface CpuReading {
  process: number | null;
  postgres: Map<string, number> | null;
  loadGenerator: number;
  machine: { busy: number; total: number };
}

/** CPU spent between two readings (or over several spans, added), in ms. */
export interface CpuSpent {
  process: number | null;
  postgres: number | null;
  loadGenerator: number;
  machineBusy: number;
  machineTotal: number;
}

/** CPU spent per request over a run, in ms, and how busy the machine's cores were. */
export interface CpuPerRequest {
  /** The process that answered (the service or the bare baseline). */
  processMs: number | null;
  /** Every Postgres process that lived through the run (null: the database is not on this machine). */
  postgresMs: number | null;
  /** The load generator (autocannon, in the bench's own process). */
  loadGeneratorMs: number;
  /** All of the machine's cores: the three above, and anything else running. */
  machineMs: number;
  /** The machine's busy share over the run: 1 is every core busy all the time. */
  machineBusy: number;
  cores: number;
}

export function readCpu(pid: number, postgresLocal: boolean): CpuReading {
  const own = process.cpuUsage();
  return {
    process: processCpuMs(pid)?.ms ?? null,
    postgres: postgresLocal ? postgresCpuMs() : null,
    loadGenerator: (own.user + own.system) / 1000,
    machine: machineCpuMs(),
  };
}

export function cpuBetween(before: CpuReading, after: CpuReading): CpuSpent {
  let postgres: number | null = null;
  if (before.postgres && after.postgres && after.postgres.size > 0) {
    postgres = 0;
    // A backend that started during the span counts from zero; one that ended is lost (the pools keep theirs).
    for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  }
  return {
    process: before.process !== null && after.process !== null ? after.process - before.process : null,
    postgres,
    loadGenerator: after.loadGenerator - before.loadGenerator,
    machineBusy: after.machine.busy - before.machine.busy,
    machineTotal: after.machine.total - before.machine.total,
  };
}

/** Two spans' CPU together (a scenario measured in turns); a figure unknown in either is unknown. */
export function addCpu(a: CpuSpent, b: CpuSpent): CpuSpent {
  const both = (x: number | null, y: number | null) => (x === null || y === null ? null : x + y);
  return {
    process: both(a.process, b.process),
    postgres: both(a.postgres, b.postgres),
    loadGenerator: a.loadGenerator + b.loadGenerator,
    machineBusy: a.machineBusy + b.machineBusy,
    machineTotal: a.machineTotal + b.machineTotal,
  };
}

const perRequest = (ms: number, requests: number) => Math.round((ms / requests) * 1000) / 1000;

export function cpuPerRequest(spent: CpuSpent, requests: number): CpuPerRequest | null {
  if (requests === 0) return null;
  return {
    processMs: spent.process === null ? null : perRequest(spent.process, requests),
    postgresMs: spent.postgres === null ? null : perRequest(spent.postgres, requests),
    loadGeneratorMs: perRequest(spent.loadGenerator, requests),
    machineMs: perRequest(spent.machineBusy, requests),
    machineBusy: spent.machineTotal > 0 ? Math.round((spent.machineBusy / spent.machineTotal) * 100) / 100 : 0,
    cores: os.availableParallelism(),
  };
}

/** A CPU figure per request as printed; unknown (no reading) as "?". */
export const cpuMs = (value: number | null | undefined) => (value == null ? '?' : `${value.toFixed(2)} ms`);

/**
 * Two runs' CPU per request side by side, as a missed target's bound: the answering process (named as
 * `names.process`), Postgres, the load generator's process when `names.loadGenerator` names it, and the
 * whole machine with how busy its cores were.
 */
export function cpuAgainst(
  a: CpuPerRequest,
  b: CpuPerRequest,
  names: { process: string; loadGenerator?: string },
): string {
  const pair = (label: string, x: number | null, y: number | null) => `${label} ${cpuMs(x)} against ${cpuMs(y)}`;
  return [
    pair(names.process, a.processMs, b.processMs),
    pair('Postgres', a.postgresMs, b.postgresMs),
    ...(names.loadGenerator ? [pair(names.loadGenerator, a.loadGeneratorMs, b.loadGeneratorMs)] : []),
    `${pair('the whole machine', a.machineMs, b.machineMs)} (cores ${Math.round(a.machineBusy * 100)}% and ${Math.round(b.machineBusy * 100)}% busy)`,
  ].join(', ');
}

/** A run's CPU per request, as printed: the answering process, Postgres, the load generator, and the machine. */
export function describeCpu(cpu: CpuPerRequest): string {
  return `its process ${cpuMs(cpu.processMs)}, Postgres ${cpuMs(cpu.postgresMs)}, autocannon ${cpuMs(cpu.loadGeneratorMs)}; the machine ${cpuMs(cpu.machineMs)} (${Math.round(cpu.machineBusy * 100)}% of ${cpu.cores} cores busy)`;
}
