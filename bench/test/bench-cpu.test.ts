// The bench's CPU accounting (bench/cpu.ts), the measured bound of a missed ratio: what it reads from
// /proc follows real work, and the arithmetic charges each process only what it spent in the run.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { addCpu, type CpuReading, cpuBetween, cpuPerRequest, othersShareOf, readCpu } from '../cpu.js';

/** Keeps this process busy until it has spent `ms` of CPU (however long a shared machine makes that take). */
function burn(ms: number): void {
  const start = process.cpuUsage();
  let spin = 0;
  for (;;) {
    spin += 1;
    const spent = process.cpuUsage(start);
    if ((spent.user + spent.system) / 1000 >= ms) break;
  }
  expect(spin).toBeGreaterThan(0);
}

const reading = (at: Partial<CpuReading>): CpuReading => ({
  process: 0,
  postgres: new Map(),
  postgresServer: new Map(),
  loadGenerator: 0,
  benchOthers: new Map(),
  machine: { busy: 0, total: 0 },
  ...at,
});

describe("the bench's CPU accounting", () => {
  it('reads a process that works as spending CPU, and one that sleeps as spending next to none', async () => {
    // It says so once its start-up (tens of ms of CPU, longer on a busy machine) is behind it.
    const sleeper = spawn(process.execPath, ['-e', "process.stdout.write('sleeping'); setTimeout(() => {}, 10000)"]);
    try {
      await new Promise((resolve) => sleeper.stdout.once('data', resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const before = readCpu(sleeper.pid as number, false);
      burn(400);
      const after = readCpu(sleeper.pid as number, false);
      const per = cpuPerRequest(cpuBetween(before, after), 1)!;
      // This process (the load generator's place) burnt 400 ms; the sleeper nothing worth a tick.
      expect(per.loadGeneratorMs).toBeGreaterThanOrEqual(400);
      expect(per.processMs).not.toBeNull();
      expect(per.processMs!).toBeLessThan(50);
      expect(per.machineMs).toBeGreaterThanOrEqual(300);
      expect(per.machineBusy).toBeGreaterThan(0);
      expect(per.machineBusy).toBeLessThanOrEqual(1);
      expect(per.postgresMs).toBeNull();
    } finally {
      sleeper.kill();
    }
  });

  it('counts a process named postgres as the database server, and a process that is gone as unknown', async () => {
    // A stand-in for a Postgres backend: a process that calls itself postgres and works.
    const backend = spawn(process.execPath, [
      '-e',
      "process.title = 'postgres'; const until = Date.now() + 5000; while (Date.now() < until);",
    ]);
    try {
      const pid = String(backend.pid);
      // Until it has named itself postgres (node's start-up takes seconds on a loaded machine).
      let before = readCpu(backend.pid as number, true);
      for (let waited = 0; !before.postgres!.has(pid) && waited < 20_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        before = readCpu(backend.pid as number, true);
      }
      expect(before.postgres!.has(pid)).toBe(true);
      // Until its own entry among the Postgres processes shows a tenth of a second of work, however long a
      // loaded machine takes to give it that (the process and the /proc scan are read a moment apart).
      let after = readCpu(backend.pid as number, true);
      while (after.postgres!.get(pid)! - before.postgres!.get(pid)! < 100) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = readCpu(backend.pid as number, true);
      }
      const spent = cpuBetween(before, after);
      // The Postgres figure holds its work (with whatever the machine's own Postgres did meanwhile).
      expect(spent.postgres).toBeGreaterThanOrEqual(after.postgres!.get(pid)! - before.postgres!.get(pid)!);
      expect(spent.process).toBeGreaterThan(0);
    } finally {
      backend.kill();
    }
    const gone = 2 ** 22 + 12_345; // above Linux's default pid_max: no such process
    expect(readCpu(gone, false).process).toBeNull();
    expect(readCpu(gone, false).postgres).toBeNull();
  });

  it("reads only the Postgres backends it is given, and counts the rest of the machine's busy time as other work", async () => {
    // Two stand-ins for Postgres backends, both working: one of the bench's databases, one of another's.
    const busy = "process.title = 'postgres'; const until = Date.now() + 20000; while (Date.now() < until);";
    const ours = spawn(process.execPath, ['-e', busy]);
    const theirs = spawn(process.execPath, ['-e', busy]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const named = { own: [String(ours.pid)], server: [] };
      const before = readCpu(process.pid, named);
      expect([...before.postgres!.keys()]).toEqual([String(ours.pid)]);
      let after = readCpu(process.pid, named);
      while (after.postgres!.get(String(ours.pid))! - before.postgres!.get(String(ours.pid))! < 200) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        after = readCpu(process.pid, named);
      }
      const spent = cpuBetween(before, after);
      // The other database's backend worked as long as ours, on the same cores: other work, not the bench's.
      expect(othersShareOf(spent)!).toBeGreaterThan(0);
      expect(spent.postgres!).toBeLessThan(spent.machineBusy);
    } finally {
      ours.kill();
      theirs.kill();
    }
  });

  it('charges each figure per request, and a Postgres backend by what it spent within the run', () => {
    const before = reading({
      process: 1_000,
      postgres: new Map([
        ['10', 500],
        ['11', 200],
      ]),
      loadGenerator: 300,
      machine: { busy: 10_000, total: 40_000 },
    });
    const after = reading({
      process: 1_600,
      // Backend 11 ended during the run (its time is lost); 12 started during it (all of its time counts).
      postgres: new Map([
        ['10', 900],
        ['12', 100],
      ]),
      loadGenerator: 400,
      machine: { busy: 11_500, total: 42_000 },
    });
    const spent = cpuBetween(before, after);
    expect(cpuPerRequest(spent, 200)).toEqual({
      processMs: 3,
      postgresMs: 2.5,
      postgresServerMs: 0,
      loadGeneratorMs: 0.5,
      machineMs: 7.5,
      machineBusy: 0.75,
      // 1,500 ms busy, of which the bench's 1,200 (600 + 500 + 100): the other 300 of 2,000 were other work.
      othersShare: 0.15,
      cores: expect.any(Number),
    });
    expect(cpuPerRequest(spent, 0)).toBeNull();
    expect(cpuPerRequest(cpuBetween(before, { ...after, process: null }), 100)!.processMs).toBeNull();
  });

  it('adds the turns of a scenario measured in turns, per request over all of them', () => {
    const backend = (ms: number) => new Map([['7', ms]]);
    const turn = cpuBetween(
      reading({ postgres: backend(0) }),
      reading({ process: 100, postgres: backend(40), loadGenerator: 10, machine: { busy: 150, total: 200 } }),
    );
    const idle = cpuBetween(
      reading({ postgres: backend(40) }),
      reading({ postgres: backend(40), machine: { busy: 0, total: 200 } }),
    );
    expect(cpuPerRequest(addCpu(turn, idle), 50)).toMatchObject({
      processMs: 2,
      postgresMs: 0.8,
      loadGeneratorMs: 0.2,
      machineMs: 3,
      machineBusy: 0.38,
    });
    // Postgres unread in one turn (another host): unknown over the whole, not counted as nothing.
    expect(addCpu(turn, { ...idle, postgres: null }).postgres).toBeNull();
  });
});
