import { describe, expect, it } from 'vitest';
import { ReadAhead } from './readAhead.js';

/** A read that answers when told to. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ReadAhead', () => {
  it('hands the read left for a key to the first taker of that key, once', async () => {
    const reads = new ReadAhead();
    reads.leave('list a', () => Promise.resolve(['page 2']));
    expect(reads.take('list b')).toBeNull();
    expect(await reads.take('list a')).toEqual(['page 2']);
    expect(reads.take('list a')).toBeNull();
  });

  it('keeps one read: the next one left takes its place', async () => {
    const reads = new ReadAhead();
    reads.leave('list', () => Promise.resolve('page 2'));
    reads.leave('list', () => Promise.resolve('page 3'));
    expect(await reads.take('list')).toBe('page 3');
  });

  it('starts the read at once, and a failure nobody takes is no unhandled rejection', async () => {
    const reads = new ReadAhead();
    let started = false;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      reads.leave('list', () => {
        started = true;
        return Promise.reject(new Error('statement failed'));
      });
      expect(started).toBe(true);
      await reads.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a taker sees the failure of the read it took', async () => {
    const reads = new ReadAhead();
    reads.leave('list', () => Promise.reject(new Error('statement failed')));
    await expect(reads.take('list')!).rejects.toThrow('statement failed');
  });

  it('closing waits for the reads still running, and nothing starts after', async () => {
    const reads = new ReadAhead();
    const running = deferred<string>();
    reads.leave('list', () => running.promise);
    let closed = false;
    const closing = reads.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    running.resolve('page 2');
    await closing;
    expect(closed).toBe(true);
    let startedAfter = false;
    reads.leave('list', () => {
      startedAfter = true;
      return Promise.resolve('page 3');
    });
    expect(startedAfter).toBe(false);
    expect(reads.take('list')).toBeNull();
  });

  it('starts nothing once its list has gone', () => {
    const gone = new AbortController();
    const reads = new ReadAhead(gone.signal);
    gone.abort();
    let started = false;
    reads.leave('list', () => {
      started = true;
      return Promise.resolve('page 2');
    });
    expect(started).toBe(false);
    expect(reads.signal).toBe(gone.signal);
  });
});
