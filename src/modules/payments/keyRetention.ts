// Retention of Idempotency-Key records (decisions.md 23): a record is kept its 24 hours, then purged
// here, off the payment's path (a payment replaces only its own key's expired record), oldest first,
// a batch at a time so no one statement holds a day of rows. Every instance runs it: a batch skips
// the rows another instance is deleting, so instances never wait on each other.
import type { DbOrTrx } from '../../db/knex.js';

const BATCH = 10_000;

/** Deletes every record of any partner expired by `now`; answers how many. */
export async function purgeExpiredIdempotencyKeys(db: DbOrTrx, now: Date): Promise<number> {
  let purged = 0;
  for (;;) {
    // Along the expires_at index: the rows read are the expired ones, and no more than a batch.
    const result = (await db.raw(
      `delete from idempotency_keys where ctid in (
         select ctid from idempotency_keys where expires_at <= ? order by expires_at limit ? for update skip locked)`,
      [now, BATCH],
    )) as { rowCount?: number; affectedRows?: number };
    const deleted = Number(result.rowCount ?? result.affectedRows ?? 0);
    purged += deleted;
    if (deleted < BATCH) return purged;
  }
}
