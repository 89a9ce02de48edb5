// Calls for one key taken in turns: a call whose key has none in flight runs at once, alone; calls
// that arrive while one runs wait for it and then run together, as one batch. Under load a busy key's
// calls share one run each turn; a lone call never waits. DataLoader (the per-request loaders) batches
// what arrives within one tick instead, and a lone call waits for the tick: not what a hot path wants.

interface Waiting<Member, Answer> {
  member: Member;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

export class TurnBatches<Member, Answer> {
  /** A key's calls waiting for the run in flight; a key is here only while it has one. */
  private readonly queues = new Map<string, Array<Waiting<Member, Answer>>>();

  /** `runBatch` answers its members (all of `key`) in their order; a failure fails every member of the batch. */
  constructor(private readonly runBatch: (members: Member[], key: string) => Promise<Answer[]>) {}

  submit(key: string, member: Member): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const waiting = this.queues.get(key);
      if (waiting) {
        waiting.push({ member, resolve, reject });
        return;
      }
      const queue = [{ member, resolve, reject }];
      this.queues.set(key, queue);
      void this.drain(key, queue);
    });
  }

  private async drain(key: string, queue: Array<Waiting<Member, Answer>>): Promise<void> {
    while (queue.length) {
      const batch = queue.splice(0);
      try {
        const answers = await this.runBatch(
          batch.map((waiting) => waiting.member),
          key,
        );
        for (const [i, waiting] of batch.entries()) waiting.resolve(answers[i]!);
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.queues.delete(key);
  }
}

/**
 * A TurnBatches for each database handle, made on first use: calls on two databases (or a transaction
 * and the pool) never share a run. `runBatch` is given the handle the batch runs on.
 */
export function turnBatchesPerDatabase<Db extends object, Member, Answer>(
  runBatch: (db: Db, members: Member[], key: string) => Promise<Answer[]>,
): (db: Db) => TurnBatches<Member, Answer> {
  const byDatabase = new WeakMap<Db, TurnBatches<Member, Answer>>();
  return (db) => {
    let batches = byDatabase.get(db);
    if (!batches) {
      batches = new TurnBatches((members, key) => runBatch(db, members, key));
      byDatabase.set(db, batches);
    }
    return batches;
  };
}
