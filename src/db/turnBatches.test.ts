import { describe, expect, it } from 'vitest';
import { TurnBatches, turnBatchesPerDatabase } from './turnBatches.js';

/** A TurnBatches whose runs wait until released, recording each run's members. */
function heldBatches() {
  const runs: string[][] = [];
  const releases: Array<(fail?: Error) => void> = [];
  const batches = new TurnBatches<string, string>(
    (members) =>
      new Promise((resolve, reject) => {
        runs.push(members);
        releases.push((fail) => (fail ? reject(fail) : resolve(members.map((member) => `${member}!`))));
      }),
  );
  /** Releases the oldest held run, then lets its answers (and the next run's start) settle. */
  const release = async (fail?: Error) => {
    releases.shift()!(fail);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, runs, release };
}

describe('TurnBatches', () => {
  it('runs a lone call at once and alone, before the tick ends', () => {
    const { batches, runs } = heldBatches();
    void batches.submit('k', 'a');
    expect(runs).toEqual([['a']]);
  });

  it('runs the calls that arrived during a run together, in their order, each answered its own', async () => {
    const { batches, runs, release } = heldBatches();
    const answers = ['a', 'b', 'c', 'd'].map((member) => batches.submit('k', member));
    expect(runs).toEqual([['a']]);
    await release();
    expect(runs).toEqual([['a'], ['b', 'c', 'd']]);
    const late = batches.submit('k', 'e');
    await release();
    expect(runs).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
    await release();
    expect(await Promise.all([...answers, late])).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
  });

  it('never holds one key behind another', () => {
    const { batches, runs } = heldBatches();
    void batches.submit('k', 'a');
    void batches.submit('other', 'b');
    void batches.submit('k', 'c');
    expect(runs).toEqual([['a'], ['b']]);
  });

  it("fails every member of a failed run, and only those; the key's next batch still runs", async () => {
    const { batches, runs, release } = heldBatches();
    const first = expect(batches.submit('k', 'a')).rejects.toThrow('the store failed');
    const second = [batches.submit('k', 'b'), batches.submit('k', 'c')];
    await release(new Error('the store failed'));
    await first;
    await release();
    expect(await Promise.all(second)).toEqual(['b!', 'c!']);
    expect(runs).toEqual([['a'], ['b', 'c']]);
  });

  it('forgets a key once its calls are answered: the next call runs at once again', async () => {
    const { batches, runs, release } = heldBatches();
    const first = batches.submit('k', 'a');
    await release();
    await first;
    void batches.submit('k', 'b');
    expect(runs).toEqual([['a'], ['b']]);
  });
});

describe('turnBatchesPerDatabase', () => {
  it('keeps one TurnBatches per handle: calls on two handles never share a run, and each run knows its handle and key', async () => {
    const runs: string[] = [];
    const on = turnBatchesPerDatabase(async (db: { name: string }, members: string[], key: string) => {
      runs.push(`${db.name}:${key}:${members.join('')}`);
      return members;
    });
    const pool = { name: 'pool' };
    const transaction = { name: 'trx' };
    expect(on(pool)).toBe(on(pool));
    await Promise.all([on(pool).submit('k', 'a'), on(transaction).submit('k', 'b'), on(pool).submit('k', 'c')]);
    expect(runs).toEqual(['pool:k:a', 'trx:k:b', 'pool:k:c']);
  });
});
