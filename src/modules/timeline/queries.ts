// Reads of the lock timeline for the graph: what the timeline says is ahead of a partner.
import type { DbOrTrx } from '../../db/knex.js';

/** A partner and its time now (its sandbox clock's, or real time). */
export interface PartnerAt {
  partnerId: string;
  now: Date;
}

/**
 * Each partner's earliest pending lock still ahead of its `now`: the next device to lock among its
 * open orders (a paid-off or closed order has no pending lock: its instants were cancelled). One statement, a
 * min per partner, each one probe into the partial index of pending locks by partner and lockAt
 * (lock_timeline_partner_next_lock).
 */
export async function nextLockAtOf(db: DbOrTrx, partners: readonly PartnerAt[]): Promise<Map<string, Date>> {
  const { rows } = (await db.raw(
    `select p.partner_id::text as partner_id, next.lock_at
     from unnest(?::int8[], ?::timestamptz[]) as p (partner_id, now)
     cross join lateral (
       select min(t.lock_at) as lock_at from lock_timeline t
       where t.partner_id = p.partner_id and t.kind = 'lock' and t.state = 'pending' and t.lock_at > p.now) next
     where next.lock_at is not null`,
    [partners.map((partner) => partner.partnerId), partners.map((partner) => partner.now.toISOString())],
  )) as { rows: Array<{ partner_id: string; lock_at: Date }> };
  return new Map(rows.map((row) => [row.partner_id, new Date(row.lock_at)]));
}
