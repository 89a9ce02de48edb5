// The bench's pieces that keep it from flattering the service: the fleet of tills (no key shared by
// two requests under way while a till is idle), the turns that pair every door (and pgbench) with its
// baseline, how many answers a p99 is read from, pgbench's own per-transaction times, and the judge
// that refuses to call a run on a busy machine "of record".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { CpuPerRequest } from '../cpu.js';
import { groupsOf, type Measured, ordinalFromSlowest, type Scenario, warmUpShares } from '../load.js';
import { judgeRecord } from '../record.js';
import { chartOf, scalesWith } from '../results.js';
import { parsePgbench, transactionTimes } from '../scenarios/pgbench.js';
import type { Settings } from '../settings.js';
import { tillFleet } from '../workload.js';

const scenario = (name: string, at: Partial<Scenario> = {}): Scenario => ({
  name,
  label: name,
  target: name.startsWith('baseline') ? 'baseline' : 'service',
  connections: 1,
  options: () => ({ url: 'http://127.0.0.1:1' }),
  ...at,
});

describe('the fleet of tills', () => {
  it('hands out no key twice while it is taken, and takes a given-back key again', () => {
    const keys = Array.from({ length: 250 }, (_, n) => `bench-store-key-${2 * n + 1}`);
    const fleet = tillFleet(keys);
    const underWay = Array.from({ length: 32 }, () => fleet.take());
    expect(new Set(underWay).size).toBe(32);
    for (const key of underWay) expect(keys).toContain(key);
    // 250 tills, 32 busy: a thousand more takes, each given back at once, never hand out a busy one.
    const busy = new Set(underWay);
    for (let i = 0; i < 1000; i++) {
      const key = fleet.take();
      expect(busy.has(key)).toBe(false);
      fleet.giveBack(key);
    }
  });

  it('shares a key only when every till is busy', () => {
    const fleet = tillFleet(['a', 'b']);
    const first = [fleet.take(), fleet.take()].sort();
    expect(first).toEqual(['a', 'b']);
    expect(['a', 'b']).toContain(fleet.take());
    fleet.giveBack('a');
    expect(fleet.take()).toBe('a');
  });
});

describe('the turns', () => {
  it('measures each door with its baseline, and pgbench in the payments baseline turns', () => {
    const groups = groupsOf([
      scenario('baseline-record-customer-payment', { inTurns: true }),
      scenario('rest-record-customer-payment', { inTurns: true, baseline: 'baseline-record-customer-payment' }),
      scenario('pgbench-pool', { inTurns: true, target: 'baseline', turnsWith: 'baseline-record-customer-payment' }),
      scenario('baseline-list-transactions-1-day', { inTurns: true }),
      scenario('rest-list-transactions-1-day', { inTurns: true, baseline: 'baseline-list-transactions-1-day' }),
      scenario('graphql-list-transactions-1-day'),
    ]);
    expect(groups.map((group) => group.map((member) => member.name))).toEqual([
      ['baseline-record-customer-payment', 'rest-record-customer-payment', 'pgbench-pool'],
      ['baseline-list-transactions-1-day', 'rest-list-transactions-1-day'],
      ['graphql-list-transactions-1-day'],
    ]);
  });

  it('warms every process of a group as long as the one answering most of its doors, pgbench aside', () => {
    const lookups = [
      scenario('baseline-lookup-customer', { inTurns: true }),
      scenario('rest-lookup-customer', { inTurns: true }),
      scenario('graphql-lookup-customer', { inTurns: true }),
      scenario('redis-rest-lookup-customer', { inTurns: true, target: 'redis' }),
    ];
    const shareOf = warmUpShares(lookups);
    expect(lookups.map(shareOf)).toEqual([2, 1, 1, 2]);
    const payments = [
      scenario('baseline-record-customer-payment', { inTurns: true }),
      scenario('rest-record-customer-payment', { inTurns: true }),
      scenario('pgbench-pool', { inTurns: true, target: 'baseline', runTurn: async () => ({}) as never }),
    ];
    expect(payments.map(warmUpShares(payments))).toEqual([1, 1, 1]);
  });

  it('names the answer a p99 is', () => {
    expect(['slowest', '2nd slowest', '3rd slowest', '11th slowest', '21st slowest']).toEqual(
      [1, 2, 3, 11, 21].map(ordinalFromSlowest),
    );
  });
});

describe('pgbench', () => {
  it("reads its report and each transaction's time from its per-transaction log", () => {
    const report = [
      'number of transactions actually processed: 8000',
      'number of failed transactions: 0 (0.000%)',
      'latency average = 2.500 ms',
      'tps = 3998.123456 (without initial connection time)',
    ].join('\n');
    expect(parsePgbench(report)).toEqual({ tps: 3998.1, transactions: 8000, failed: 0 });
    // client_id transaction_no time(µs) script_no time_epoch time_us
    expect(transactionTimes('0 0 2500 0 1764268800 1000\n1 0 12000 0 1764268800 2000\n')).toEqual([2.5, 12]);
  });
});

describe('of record', () => {
  const settings = {
    only: [],
    onlyOption: '',
    fromSource: false,
    duration: 10,
    scale: 1,
    customers: 20_000,
  } as unknown as Settings;
  const cpu = (othersShare: number) => ({ othersShare }) as CpuPerRequest;
  const measured = (name: string, othersShare: number) => ({ name, cpu: cpu(othersShare) }) as Measured;

  it('is of record on an idle machine that stayed idle', () => {
    const judged = judgeRecord(settings, { loadAverage: 0.1, othersShare: 0.02 }, [
      measured('rest-lookup-customer', 0.03),
    ]);
    expect(judged).toMatchObject({ recordWorthy: true, reasons: [] });
  });

  it('is not, and says why, on a machine busy before or during the run, or for a partial run', () => {
    const busyBefore = judgeRecord(settings, { loadAverage: 9, othersShare: 0.6 }, [measured('a', 0.01)]);
    expect(busyBefore.recordWorthy).toBe(false);
    expect(busyBefore.reasons.join(' ')).toMatch(/load average was 9/);
    expect(busyBefore.reasons.join(' ')).toMatch(/60% of the machine before the run/);
    const busyDuring = judgeRecord(settings, { loadAverage: 0, othersShare: 0 }, [
      measured('a', 0.01),
      measured('rest-record-customer-payment', 0.4),
    ]);
    expect(busyDuring).toMatchObject({
      recordWorthy: false,
      busiestScenario: { name: 'rest-record-customer-payment' },
    });
    const partial = judgeRecord(
      { ...settings, only: ['lookup'], onlyOption: 'lookup' },
      { loadAverage: 0, othersShare: 0 },
      [measured('a', 0)],
    );
    expect(partial.reasons).toEqual(['a partial run: --only lookup']);
  });
});

describe('the results of several scales', () => {
  /** A run's report as results.json keeps it, with the fields the chart reads. */
  const report = (customers: number, rate: number) =>
    ({
      at: '2026-11-28T10:00:00.000Z',
      recordWorthy: customers === 20_000,
      machine: { cpus: 2, cpuModel: 'test CPU', postgres: '15.20' },
      settings: { customers, durationSeconds: 10 },
      pgbench: { tps: 4000, clients: 10, best: { clients: 16, tps: 4200 }, paymentFractionOfTps: 0.26 },
      webhooks: { deliveriesPerSecond: 900, lagP99Ms: 120, backlogAtEnd: 40, backlogAfter10s: 0 },
      longWindow: { days: 366, rowsAnswered: customers * 4.5, ms: 2500 },
      scenarios: [
        {
          name: 'baseline-lookup-customer',
          label: 'bare lookup',
          target: 'baseline',
          baseline: 'baseline-lookup-customer',
          connections: 32,
          requestsPerSecond: rate,
          latencyMs: { p50: 20, p99: 60 },
          ratioToBaseline: 1,
        },
        {
          name: 'rest-lookup-customer',
          label: 'REST lookup',
          target: 'service',
          baseline: 'baseline-lookup-customer',
          connections: 32,
          requestsPerSecond: rate * 0.9,
          latencyMs: { p50: 22, p99: 66 },
          ratioToBaseline: 0.9,
        },
      ],
    }) as unknown as Parameters<typeof chartOf>[1];

  it("draws every scale's doors, each scale's floor, webhooks and year, and which run is not of record", () => {
    const tenX = report(200_000, 800);
    const svg = chartOf({ '1': report(20_000, 1000), '10': tenX }, tenX);
    for (const text of [
      '1x · REST lookup',
      '10x · REST lookup',
      '1x (20,000 customers)',
      '10x (200,000 customers, not of record)',
    ])
      expect(svg).toContain(text);
    expect(svg).toContain('lag p99 120 ms');
    expect(svg).toContain('366 days: 900,000 rows');
  });

  it("keeps the other scales' runs when a run writes its own, and starts afresh from a file before the scales", () => {
    const folder = mkdtempSync(join(os.tmpdir(), 'bench-results-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const path = join(folder, 'results.json');
    const tenX = report(200_000, 800);
    writeFileSync(path, JSON.stringify({ scales: { '10': tenX, '1': report(20_000, 1) } }));
    const oneX = report(20_000, 1000);
    const scales = scalesWith(path, 1, oneX);
    expect(Object.keys(scales)).toEqual(['1', '10']);
    expect(scales['1']).toEqual(oneX);
    expect(scales['10']).toEqual(tenX);
    writeFileSync(path, JSON.stringify({ at: 'a run of the bench before its scales', scenarios: [] }));
    expect(Object.keys(scalesWith(path, 10, tenX))).toEqual(['10']);
  });
});
