// The webhook fan-out: a relay over the committed event log (the transactional outbox). Each event is
// written not yet fanned out (events.fanned_out false, in the writer's own statement); a worker takes
// the oldest such events by sequence, writes one delivery for each enabled endpoint of the event's
// partner that subscribes to its type, and marks them fanned out, all in one transaction. So:
// - exactly once per event and endpoint: the deliveries and the mark commit together or not at all (a
//   worker killed mid-batch leaves both undone, for the next one), and a unique key on the fan-out's
//   deliveries (webhook_deliveries_fanned_out) refuses a second even if two batches ever overlapped;
// - in event order per endpoint: one relay at a time per partner across every instance (a
//   transaction-scoped advisory lock, let go with the transaction or its dead connection), each batch
//   inserting its deliveries in sequence order, so their ids (the queue's order) follow the events';
// - off the writer's path: no statement in the payment's transaction, none for a partner without endpoints.
// The rules are those of the trigger it replaces (migrations/20261127000500_webhook_tools.ts): enabled
// endpoints, subscribed types, payjoy_v1 endpoints hear transaction.created alone, test events none;
// and, as the trigger saw only the endpoints there at the insert, only endpoints created by the time
// the event was recorded (however late the relay comes to it).
import type { Db, DbOrTrx } from '../../db/knex.js';
import { DELIVERIES_DUE_PREFIX, EVENTS_CHANNEL } from '../events/publish.js';

/** The class of the relays' advisory locks, one per partner (any 32-bit number no other lock of the service uses). */
const FAN_OUT_LOCK_CLASS = 420_261_129;

export interface FanOutBatch {
  /** Events taken and marked fanned out (0: nothing waited, or other instances' relays hold every partner's lock). */
  events: number;
  /** Deliveries written. */
  deliveries: number;
  /** Another instance's relay was under way for a partner with events waiting: its events were left to it. */
  busy: boolean;
}

/**
 * Fans out up to `limit` committed events of each partner with events waiting, the oldest first, each
 * partner in a transaction of its own (decisions.md 50); tells every instance's delivery workers of
 * the partners given deliveries (a NOTIFY delivered at the commit).
 */
export async function fanOutCommittedEvents(db: Db, limit: number): Promise<FanOutBatch> {
  const total: FanOutBatch = { events: 0, deliveries: 0, busy: false };
  for (const partnerId of await partnersWithEventsWaiting(db)) {
    const batch = await fanOutPartner(db, partnerId, limit);
    total.events += batch.events;
    total.deliveries += batch.deliveries;
    total.busy ||= batch.busy;
  }
  return total;
}

/**
 * The partners with events not yet fanned out, read without a lock along the partial index of those
 * events (few: each is fanned out as it commits), so Citus may read every shard for it.
 */
async function partnersWithEventsWaiting(db: DbOrTrx): Promise<string[]> {
  const rows: Array<{ partner_id: string }> = await db('events')
    .distinct('partner_id')
    .whereRaw('not fanned_out')
    .orderBy('partner_id');
  return rows.map((row) => String(row.partner_id));
}

/**
 * One partner's batch: one relay at a time per partner across every instance (its endpoints' deliveries
 * follow its events' order), every table pinned to the partner, so Citus runs it on the partner's shard.
 */
function fanOutPartner(db: Db, partnerId: string, limit: number): Promise<FanOutBatch> {
  return db.transaction(async (trx) => {
    const { rows: locked } = (await trx.raw('select pg_try_advisory_xact_lock(?::int4, hashtext(?::text)) as taken', [
      FAN_OUT_LOCK_CLASS,
      partnerId,
    ])) as { rows: Array<{ taken: boolean }> };
    if (!locked[0]?.taken) return { events: 0, deliveries: 0, busy: true };
    const { rows } = (await trx.raw(
      `with batch as (
         select partner_id, id, occurred_at, sequence, type, recorded_at from events
          where partner_id = ? and not fanned_out order by sequence limit ?
       ), marked as (
         update events e set fanned_out = true from batch b
          where e.partner_id = ? and e.partner_id = b.partner_id and e.id = b.id and e.occurred_at = b.occurred_at
         returning 1
       ), written as (
         insert into webhook_deliveries (partner_id, endpoint_id, event_id, next_attempt_at, fanned_out)
         select b.partner_id, w.id, b.id, now(), true
           from batch b join webhook_endpoints w on w.partner_id = ? and w.partner_id = b.partner_id
          where b.type <> 'webhook.test' and w.enabled and b.type = any(w.event_types)
            and (w.format = 'standard' or b.type = 'transaction.created') and w.created_at <= b.recorded_at
          order by b.sequence, w.id
         on conflict do nothing
         returning partner_id
       )
       select (select count(*) from marked)::int as events, (select count(*) from written)::int as deliveries`,
      [partnerId, limit, partnerId, partnerId],
    )) as { rows: Array<{ events: number; deliveries: number }> };
    const { events, deliveries } = rows[0]!;
    // Its own statement, not a part of the one above: Citus cannot carry pg_notify's void through a part.
    if (deliveries > 0)
      await trx.raw('select pg_notify(?, ?)', [EVENTS_CHANNEL, `${DELIVERIES_DUE_PREFIX}${partnerId}`]);
    return { events, deliveries, busy: false };
  });
}

/** Events committed and not yet fanned out: the relay's backlog (a gauge, and the bench's wait). */
export async function fanOutBacklog(db: DbOrTrx): Promise<number> {
  const row = (await db('events').whereRaw('not fanned_out').count({ n: '*' }).first()) as { n: string | number };
  return Number(row.n);
}
