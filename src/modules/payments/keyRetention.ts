// Retention of Idempotency-Key records (decisions.md 23): a record is kept its 24 hours, then purged
// here, off the payment's path (a payment replaces only its own key's expired record), oldest first,
// a batch at a time so no one statement holds a day of rows. Every instance runs it: a batch skips
// the rows another instance is deleting, so instances never wait on each other.
//
// A partner at a time, the same on every backend, since Citus locks rows only in a statement it runs on
// one shard (decisions.md 48): a read with no row lock lists the partners with an expired record (Citus
// reads every shard), then each partner's records are deleted in batches by statements pinned to it,
// oldest first within the partner.
import type { DbOrTrx } from '../../db/knex.js';

const BATCH = 10_000;

/** The partners with a record expired by `now`, by id: no row locked, so it may read every partner's rows. */
async function partnersWithExpiredKeys(db: DbOrTrx, now: Date): Promise<string[]> {
  const { rows } = (await db.raw(
    'select distinct partner_id from idempotency_keys where expires_at <= ? order by partner_id',
    [now],
  )) as { rows: Array<{ partner_id: string | number }> };
  return rows.map((row) => String(row.partner_id));
}

/** Deletes the partner's records expired by `now`, a batch at a time; answers how many. */
async function purgePartnerKeys(db: DbOrTrx, partnerId: string, now: Date): Promise<number> {
  let purged = 0;
  for (;;) {
    // The partner's expired rows, oldest first, no more than a batch, each table pinned to the partner
    // (one shard on Citus). Named by primary key rather than ctid, which Citus takes only in a statement
    // it routes to one shard; as an array, found along the primary key (pairs IN the subquery were
    // planned as a hash join over a scan of the whole table).
    const result = (await db.raw(
      `delete from idempotency_keys where partner_id = ? and idempotency_key = any(array(
         select idempotency_key from idempotency_keys
         where partner_id = ? and expires_at <= ? order by expires_at limit ? for update skip locked))`,
      [partnerId, partnerId, now, BATCH],
    )) as { rowCount?: number; affectedRows?: number };
    const deleted = Number(result.rowCount ?? result.affectedRows ?? 0);
    purged += deleted;
    if (deleted < BATCH) return purged;
  }
}

/** Deletes every record of any partner expired by `now`; answers how many. */
export async function purgeExpiredIdempotencyKeys(db: DbOrTrx, now: Date): Promise<number> {
  let purged = 0;
  for (const partnerId of await partnersWithExpiredKeys(db, now)) purged += await purgePartnerKeys(db, partnerId, now);
  return purged;
}
