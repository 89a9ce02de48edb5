// The job loop's own rules, on fake timers (no database: its tasks here are counters): a full batch
// runs again at once, a short one waits for the poll; a failure backs off, doubling; a task that yields
// to requests waits while they wait; stop asks the batch under way to end early, lets it end and drains
// every task.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/knex.js';
import { backoffMs, type JobTask, startJobLoop } from './loop.js';

const silent = { warn: () => {}, error: () => {} };
const noDatabase = {} as Db;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A task taking `sizes` items in turn (then none), recording when each batch ran (fake time). */
function countingTask(sizes: number[], overrides: Partial<JobTask> = {}) {
  const ranAt: number[] = [];
  const task: JobTask = {
    name: 'counting',
    batchSize: 10,
    pollMs: 1000,
    runBatch: async () => {
      ranAt.push(Date.now());
      return sizes.shift() ?? 0;
    },
    ...overrides,
  };
  return { task, ranAt };
}

describe('the job loop', () => {
  it('runs a task at once, again at once while its batches are full, then on its poll', async () => {
    const { task, ranAt } = countingTask([10, 10, 3]);
    const loop = startJobLoop({ db: noDatabase, logger: silent, tasks: [task] });
    await vi.advanceTimersByTimeAsync(10);
    const start = ranAt[0]!;
    // "At once" is a timer of 0, which the timers make 1 ms.
    expect(ranAt.map((at) => at - start)).toEqual([0, 1, 2]);
    await vi.advanceTimersByTimeAsync(991);
    expect(ranAt).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(ranAt.map((at) => at - start)).toEqual([0, 1, 2, 1002]);
    await loop.stop();
  });

  it('backs off after failures, doubling up to its ceiling, and polls again once a batch succeeds', async () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((failures) => backoffMs(1000, failures, 30_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    let failuresLeft = 3;
    const ranAt: number[] = [];
    const task: JobTask = {
      name: 'failing',
      batchSize: 10,
      pollMs: 1000,
      runBatch: async () => {
        ranAt.push(Date.now());
        if (failuresLeft-- > 0) throw new Error('the database is away');
        return 0;
      },
    };
    const loop = startJobLoop({ db: noDatabase, logger: silent, tasks: [task] }, { maxBackoffMs: 30_000 });
    await vi.advanceTimersByTimeAsync(20_000);
    const start = ranAt[0]!;
    // Failed at 0, 1000 and 3000 (waits of 1 s, 2 s, 4 s), succeeded at 7000, then polled every second.
    expect(ranAt.slice(0, 6).map((at) => at - start)).toEqual([0, 1000, 3000, 7000, 8000, 9000]);
    await loop.stop();
  });

  it('holds back a task that yields to requests while they wait for a connection', async () => {
    let waiting = true;
    const { task, ranAt } = countingTask([], { yieldsToRequests: true });
    const loop = startJobLoop(
      { db: noDatabase, logger: silent, tasks: [task], requestsWaiting: () => waiting },
      { shedMs: 250 },
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(ranAt).toEqual([]);
    waiting = false;
    await vi.advanceTimersByTimeAsync(250);
    expect(ranAt).toHaveLength(1);
    await loop.stop();
  });

  it('runs a task woken during its batch once more after it, and never two of its batches at once', async () => {
    let release: () => void = () => {};
    let underWay = 0;
    let most = 0;
    let runs = 0;
    const task: JobTask = {
      name: 'held',
      batchSize: 10,
      pollMs: 60_000,
      runBatch: () => {
        runs++;
        most = Math.max(most, ++underWay);
        return new Promise((resolve) => {
          release = () => {
            underWay--;
            resolve(1);
          };
        });
      },
    };
    const loop = startJobLoop({ db: noDatabase, logger: silent, tasks: [task] });
    await vi.advanceTimersByTimeAsync(0);
    loop.wake('held');
    loop.wake();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    expect(most).toBe(1);
    await loop.stop();
  });

  it('stops cleanly: nothing more claimed, the batch under way ended, every task drained', async () => {
    let release: () => void = () => {};
    const order: string[] = [];
    const task: JobTask = {
      name: 'stopping',
      batchSize: 1,
      pollMs: 10,
      runBatch: () => {
        order.push('batch');
        return new Promise((resolve) => {
          release = () => {
            order.push('batch ended');
            resolve(1);
          };
        });
      },
      drain: async () => {
        order.push('drained');
      },
      // Asked first: a long batch may end early (a report run put back).
      abort: () => order.push('aborted'),
    };
    const loop = startJobLoop({ db: noDatabase, logger: silent, tasks: [task] });
    await vi.advanceTimersByTimeAsync(0);
    const stopped = loop.stop().then(() => order.push('stopped'));
    await vi.advanceTimersByTimeAsync(100);
    expect(order).toEqual(['batch', 'aborted']);
    release();
    await stopped;
    await vi.advanceTimersByTimeAsync(1000);
    // A full batch would have run again at once: after stop, nothing more.
    expect(order).toEqual(['batch', 'aborted', 'batch ended', 'drained', 'stopped']);
  });
});
