// Reads of the lock timeline for the graph: what the timeline says is ahead of a partner.
import type { DbOrTrx } from '../../db/knex.js';

/** A partner and its time now (its sandbox clock's, or real time). */
export interface PartnerAt {
  partnerId: string;
  now: Date;
}

/**
 * Each partner's earliest pending lock still ahead of its `now`: the next device to lock among its
 * open orders (a paid-off or closed order has no pending lock: its instants were cancelled). A
 * statement per partner, all at once, each one probe into the partial index of pending locks by
 * partner and lockAt (lock_timeline_partner_next_lock); Citus refuses the min of a lateral over
 * several partners, and routes each of these to its partner's worker (decisions.md 51).
 */
export async function nextLockAtOf(db: DbOrTrx, partners: readonly PartnerAt[]): Promise<Map<string, Date>> {
  const found = await Promise.all(
    partners.map(async ({ partnerId, now }) => {
      const row = (await db('lock_timeline')
        .where({ partner_id: partnerId, kind: 'lock', state: 'pending' })
        .where('lock_at', '>', now)
        .min({ lock_at: 'lock_at' })
        .first()) as { lock_at: Date | null } | undefined;
      return [partnerId, row?.lock_at ?? null] as const;
    }),
  );
  return new Map(
    found.flatMap(([partnerId, lockAt]) => (lockAt === null ? [] : [[partnerId, new Date(lockAt)] as const])),
  );
}
