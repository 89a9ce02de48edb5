// The lock timeline's due instants, fired batch after batch until none is due: each partner's batch one
// transaction (claim.ts), so any number of instances fire beside each other and each instant once. The
// job loop's "lock instants" task runs one batch at a time (src/jobs/tasks.ts); this drains at once (the
// suites, the bench). The log publishes each batch's events once it commits.
import type { Db } from '../../db/knex.js';
import { fireDueInstantsOfEachPartner } from './claim.js';

export const DEFAULT_LOCK_BATCH = 500;

/** Fires every instant due at `now()`, `batchSize` per transaction; answers the number of instants taken. */
export async function fireAllDueInstants(
  db: Db,
  options: { batchSize?: number; now?: () => Date } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? DEFAULT_LOCK_BATCH;
  const now = options.now ?? (() => new Date());
  let taken = 0;
  for (;;) {
    const claimed = await fireDueInstantsOfEachPartner(db, now(), batchSize);
    taken += claimed;
    if (claimed < batchSize) return taken;
  }
}
