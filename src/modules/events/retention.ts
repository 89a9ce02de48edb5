// Retention: events are kept EVENT_RETENTION_DAYS (30 by default, like Stripe's event log), then
// deleted, oldest first, a batch at a time so no one statement holds a month of rows.
import type { DbOrTrx } from '../../db/knex.js';

const BATCH = 10_000;
const DAY_MS = 86_400_000;

/** Deletes every event that happened more than `days` days before `now`; answers how many. */
export async function purgeExpiredEvents(db: DbOrTrx, now: Date, days: number): Promise<number> {
  const horizon = new Date(now.getTime() - days * DAY_MS);
  let purged = 0;
  for (;;) {
    const result = (await db.raw(
      'delete from events where ctid in (select ctid from events where occurred_at < ? limit ?)',
      [horizon, BATCH],
    )) as { rowCount?: number; affectedRows?: number };
    const deleted = Number(result.rowCount ?? result.affectedRows ?? 0);
    purged += deleted;
    if (deleted < BATCH) return purged;
  }
}

/**
 * Purges at once, then every `everyMs` (an hour by default) until stopped; the timer does not keep the
 * process alive. A failed purge is reported and tried again at the next tick.
 */
export function scheduleEventRetention(
  db: DbOrTrx,
  options: { days: number; now: () => Date; everyMs?: number; onError: (error: unknown) => void },
): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = purgeExpiredEvents(db, options.now(), options.days).then(() => {}, options.onError);
  };
  tick();
  const timer = setInterval(tick, options.everyMs ?? 3_600_000);
  timer.unref();
  return {
    // Waits for a purge under way, so the database can be closed after it.
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
