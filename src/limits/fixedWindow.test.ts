import { describe, expect, it } from 'vitest';
import { FixedWindowCounters } from './fixedWindow.js';

describe('FixedWindowCounters', () => {
  it('takes exactly `limit` events per window, then says how long until the window ends', () => {
    const counters = new FixedWindowCounters(60_000);
    const taken = Array.from({ length: 5 }, (_, i) => counters.take('key', 3, 1000 + i));
    expect(taken).toEqual([null, null, null, 60_000 - 3, 60_000 - 4]);
    // The window started at the first event (t = 1000) and ends at 61000.
    expect(counters.take('key', 3, 60_999)).toBe(1);
    expect(counters.take('key', 3, 61_000)).toBeNull();
  });

  it("tells a key's count and how long its window has left", () => {
    const counters = new FixedWindowCounters(60_000);
    expect(counters.usage('key', 0)).toBeNull();
    counters.take('key', 3, 1000);
    counters.take('key', 3, 2000);
    expect(counters.usage('key', 2500)).toEqual({ count: 2, endsInMs: 58_500 });
    expect(counters.usage('key', 61_000)).toBeNull(); // the window ended
  });

  it('counts every key on its own', () => {
    const counters = new FixedWindowCounters(1000);
    expect(counters.take('a', 1, 0)).toBeNull();
    expect(counters.take('a', 1, 1)).toBe(999);
    expect(counters.take('b', 1, 1)).toBeNull();
  });

  it('blocks once `limit` events were added, and not before', () => {
    const counters = new FixedWindowCounters(300_000);
    for (let i = 0; i < 20; i++) {
      expect(counters.blockedFor('10.0.0.1', 20, i)).toBeNull();
      counters.add('10.0.0.1', i);
    }
    expect(counters.blockedFor('10.0.0.1', 20, 100)).toBe(300_000 - 100);
    expect(counters.blockedFor('10.0.0.1', 20, 300_000)).toBeNull();
  });

  it('keeps bounded memory: ended windows are dropped, and past maxKeys the oldest', () => {
    const counters = new FixedWindowCounters(1000, 100);
    for (let i = 0; i < 50; i++) counters.add(`old-${i}`, 0);
    expect(counters.size).toBe(50);
    counters.add('new', 1000); // every old window ended at t = 1000
    expect(counters.size).toBe(1);
    for (let i = 0; i < 500; i++) counters.add(`burst-${i}`, 1500);
    expect(counters.size).toBe(100);
    expect(counters.blockedFor('burst-499', 1, 1500)).not.toBeNull(); // the newest are kept
    expect(counters.blockedFor('new', 1, 1500)).toBeNull(); // the oldest went first
  });
});
