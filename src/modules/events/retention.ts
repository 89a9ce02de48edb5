// Retention: events are kept EVENT_RETENTION_DAYS (30 by default, like Stripe's event log) and then
// go a whole month at a time (docs/decisions.md 25): a month partition is dropped once all of it is
// older than the horizon, so an event is kept at least the retention and at most a month more. Rows
// in the default partition (times no month covers) are deleted as before, oldest first, a batch at a
// time so no one statement holds a month of rows. An event's webhook deliveries go with it, in the
// same transaction (they have no foreign key to the partitioned log to cascade from).

import type { DbOrTrx } from '../../db/knex.js';
import { monthPartitions, monthStart } from '../../db/partitions.js';

const BATCH = 10_000;
const DAY_MS = 86_400_000;

const countOf = (result: unknown) => {
  const { rowCount, affectedRows, rows } = result as { rowCount?: number; affectedRows?: number; rows?: unknown[] };
  return Number(rowCount ?? affectedRows ?? rows?.length ?? 0);
};

/** Drops the month partitions of events wholly before `horizon`, with their deliveries; answers how many events went. */
async function dropExpiredMonths(db: DbOrTrx, horizon: Date): Promise<number> {
  let dropped = 0;
  for (const { name, month } of await monthPartitions(db, 'events')) {
    if (monthStart(month, 1) > horizon) break;
    // One month per transaction: dropping a partition briefly locks the whole log.
    dropped += await db.transaction(async (trx) => {
      const { rows } = (await trx.raw(`select count(*)::int8 as n from ${name}`)) as { rows: Array<{ n: string }> };
      await trx.raw(
        `delete from webhook_deliveries d using ${name} e where d.partner_id = e.partner_id and d.event_id = e.id`,
      );
      await trx.raw(`drop table ${name}`);
      return Number(rows[0]!.n);
    });
  }
  return dropped;
}

/** Deletes, a batch at a time, the default partition's events before `horizon` and their deliveries. */
async function deleteExpiredStrays(db: DbOrTrx, horizon: Date): Promise<number> {
  let purged = 0;
  for (;;) {
    const deleted = countOf(
      await db.raw(
        `with doomed as (select partner_id, id from events_default where occurred_at < ? limit ?),
              deliveries as (delete from webhook_deliveries d using doomed
                             where d.partner_id = doomed.partner_id and d.event_id = doomed.id)
         delete from events_default e using doomed where e.partner_id = doomed.partner_id and e.id = doomed.id`,
        [horizon, BATCH],
      ),
    );
    purged += deleted;
    if (deleted < BATCH) return purged;
  }
}

/** Purges the events that expired `days` days before `now` (whole months, and strays); answers how many. */
export async function purgeExpiredEvents(db: DbOrTrx, now: Date, days: number): Promise<number> {
  const horizon = new Date(now.getTime() - days * DAY_MS);
  return (await dropExpiredMonths(db, horizon)) + (await deleteExpiredStrays(db, horizon));
}
