// The bound of a missed ratio: where a scenario's CPU went. On this machine the service,
// its Postgres server and the load generator share two cores, and a door's rate is bounded by the CPU
// each request costs all three, not by its own process alone. Read from /proc before and after each
// measured run: the CPU time of the process answering (the service or the bare baseline), of the
// Postgres backends serving the bench's own databases (their pids from pg_stat_activity, not every
// postgres process of the machine: another database's work is not the bench's), of the server's
// background processes (checkpointer, WAL writer: shared, counted apart), of the load generator (this
// process: autocannon), of the bench's other processes, and how busy the machine's cores were; what
// is left of the machine's busy time is other work, which makes a run not of record (record.ts).
// Linux only (cpuReadable: elsewhere the bench reports none); with the database on another host the
// Postgres figures are null.
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

/** CPU of the given processes, by pid; a pid that is gone is left out. */
function cpuOfPids(pids: readonly string[]): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of pids) {
    const cpu = processCpuMs(pid);
    if (cpu) byPid.set(pid, cpu.ms);
  }
  return byPid;
}

/** Every process named postgres, by pid: what `readCpu(pid, true)` reads for a caller that names no pids. */
function everyPostgresPid(): string[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && processCpuMs(entry)?.comm === 'postgres');
}

/** The Postgres processes to read: the backends of the bench's databases, and the server's background processes. */
export interface PostgresPids {
  own: readonly string[];
  server: readonly string[];
}

/** The machine's busy and total CPU time over all cores, in ms (/proc/stat's first line). */
export function machineCpuMs(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return { busy: toMs(busy), total: toMs(busy + idle! + iowait!) };
}

export interface CpuReading {
  process: number | null;
  postgres: Map<string, number> | null;
  postgresServer: Map<string, number> | null;
  loadGenerator: number;
  /** The bench's other processes (the services not answering this run, the receivers' processes). */
  benchOthers: Map<string, number>;
  machine: { busy: number; total: number };
}

/** CPU spent between two readings (or over several spans, added), in ms. */
export interface CpuSpent {
  process: number | null;
  postgres: number | null;
  postgresServer: number | null;
  loadGenerator: number;
  benchOthers: number;
  machineBusy: number;
  machineTotal: number;
}

/** CPU spent per request over a run, in ms, and how busy the machine's cores were. */
export interface CpuPerRequest {
  /** The process that answered (the service or the bare baseline). */
  processMs: number | null;
  /** The backends of the bench's databases that lived through the run (null: the database is not on this machine). */
  postgresMs: number | null;
  /** The Postgres server's background processes (shared with any other database of the server). */
  postgresServerMs: number | null;
  /** The load generator (autocannon, in the bench's own process). */
  loadGeneratorMs: number;
  /** All of the machine's cores: the three above, and anything else running. */
  machineMs: number;
  /** The machine's busy share over the run: 1 is every core busy all the time. */
  machineBusy: number;
  /**
   * The share of the machine's time (all cores) that other work took during the run: busy time not
   * spent by the bench's processes, its databases' backends or the server's background; null where
   * Postgres is not read.
   */
  othersShare: number | null;
  cores: number;
}

/**
 * A reading of the answering process `pid`, the Postgres processes named (null or false: the database
 * is not on this machine; true: every postgres process of the machine, counted as the bench's, for a
 * caller that does not name them) and the bench's other processes (`benchPids`, the answering one left out).
 */
export function readCpu(
  pid: number,
  named: PostgresPids | boolean | null,
  benchPids: readonly number[] = [],
): CpuReading {
  const own = process.cpuUsage();
  const postgres = named === true ? { own: everyPostgresPid(), server: [] } : named || null;
  return {
    process: processCpuMs(pid)?.ms ?? null,
    postgres: postgres ? cpuOfPids(postgres.own) : null,
    postgresServer: postgres ? cpuOfPids(postgres.server) : null,
    loadGenerator: (own.user + own.system) / 1000,
    benchOthers: cpuOfPids(benchPids.filter((other) => other !== pid).map(String)),
    machine: machineCpuMs(),
  };
}

/** What the processes of `after` spent since `before`: one that started in between counts from zero, one that ended is lost. */
function spentByPids(before: Map<string, number>, after: Map<string, number>): number {
  let spent = 0;
  for (const [pid, ms] of after) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

export function cpuBetween(before: CpuReading, after: CpuReading): CpuSpent {
  const postgres = before.postgres && after.postgres ? spentByPids(before.postgres, after.postgres) : null;
  const postgresServer =
    before.postgresServer && after.postgresServer ? spentByPids(before.postgresServer, after.postgresServer) : null;
  return {
    process: before.process !== null && after.process !== null ? after.process - before.process : null,
    postgres,
    postgresServer,
    loadGenerator: after.loadGenerator - before.loadGenerator,
    benchOthers: spentByPids(before.benchOthers, after.benchOthers),
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
    postgresServer: both(a.postgresServer, b.postgresServer),
    loadGenerator: a.loadGenerator + b.loadGenerator,
    benchOthers: a.benchOthers + b.benchOthers,
    machineBusy: a.machineBusy + b.machineBusy,
    machineTotal: a.machineTotal + b.machineTotal,
  };
}

const perRequest = (ms: number, requests: number) => Math.round((ms / requests) * 1000) / 1000;

/** The share of the machine's time that work other than the bench's took over the span; null where Postgres is not read. */
export function othersShareOf(spent: CpuSpent): number | null {
  if (spent.postgres === null || spent.postgresServer === null || spent.machineTotal <= 0) return null;
  const bench = (spent.process ?? 0) + spent.postgres + spent.postgresServer + spent.loadGenerator + spent.benchOthers;
  return Math.round((Math.max(0, spent.machineBusy - bench) / spent.machineTotal) * 100) / 100;
}

export function cpuPerRequest(spent: CpuSpent, requests: number): CpuPerRequest | null {
  if (requests === 0) return null;
  return {
    processMs: spent.process === null ? null : perRequest(spent.process, requests),
    postgresMs: spent.postgres === null ? null : perRequest(spent.postgres, requests),
    postgresServerMs: spent.postgresServer === null ? null : perRequest(spent.postgresServer, requests),
    loadGeneratorMs: perRequest(spent.loadGenerator, requests),
    machineMs: perRequest(spent.machineBusy, requests),
    machineBusy: spent.machineTotal > 0 ? Math.round((spent.machineBusy / spent.machineTotal) * 100) / 100 : 0,
    othersShare: othersShareOf(spent),
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
  const others = cpu.othersShare === null ? '' : `, other work ${Math.round(cpu.othersShare * 100)}% of the machine`;
  return `its process ${cpuMs(cpu.processMs)}, its Postgres backends ${cpuMs(cpu.postgresMs)} (server background ${cpuMs(cpu.postgresServerMs)}), autocannon ${cpuMs(cpu.loadGeneratorMs)}; the machine ${cpuMs(cpu.machineMs)} (${Math.round(cpu.machineBusy * 100)}% of ${cpu.cores} cores busy${others})`;
}
