// The webhook fan-out: a relay over the committed event log (the transactional outbox). Each event is
// written not yet fanned out (events.fanned_out false, in the writer's own statement); a worker takes
// the oldest such events by sequence, writes one delivery for each enabled endpoint of the event's
// partner that subscribes to its type, and marks them fanned out, all in one transaction. So:
// - exactly once per event and endpoint: the deliveries and the mark commit together or not at all (a
//   worker killed mid-batch leaves both undone, for the next one), and a unique key on the fan-out's
//   deliveries (webhook_deliveries_fanned_out) refuses a second even if two batches ever overlapped;
// - in event order per endpoint: one relay at a time across every instance (a transaction-scoped
//   advisory lock, let go with the transaction or its dead connection), each batch inserting its
//   deliveries in sequence order, so their ids (the queue's order) follow the events';
// - off the writer's path: no statement in the payment's transaction, none for a partner without endpoints.
// The rules are those of the trigger it replaces (migrations/20261127000500_webhook_tools.ts): enabled
// endpoints, subscribed types, payjoy_v1 endpoints hear transaction.created alone, test events none;
// and, as the trigger saw only the endpoints there at the insert, only endpoints created by the time
// the event was recorded (however late the relay comes to it).
import type { DbOrTrx } from '../../db/knex.js';
import { DELIVERIES_DUE_PREFIX, EVENTS_CHANNEL } from '../events/publish.js';

/** The advisory lock of the one relay (any 64-bit number no other lock of the service uses). */
const FAN_OUT_LOCK = 4_202_611_290_001;

export interface FanOutBatch {
  /** Events taken and marked fanned out (0: nothing waited, or another instance's relay holds the lock). */
  events: number;
  /** Deliveries written. */
  deliveries: number;
  /** Another instance's relay was under way: nothing was taken. */
  busy: boolean;
}

/**
 * Fans out up to `limit` committed events, the oldest first, in one transaction; tells every instance's
 * delivery workers of the partners given deliveries (a NOTIFY delivered at the commit).
 */
export function fanOutCommittedEvents(db: DbOrTrx, limit: number): Promise<FanOutBatch> {
  return db.transaction(async (trx) => {
    const { rows: locked } = (await trx.raw('select pg_try_advisory_xact_lock(?::int8) as taken', [FAN_OUT_LOCK])) as {
      rows: Array<{ taken: boolean }>;
    };
    if (!locked[0]?.taken) return { events: 0, deliveries: 0, busy: true };
    const { rows } = (await trx.raw(
      `with batch as (
         select partner_id, id, occurred_at, sequence, type, recorded_at from events
          where not fanned_out order by sequence limit ?
       ), marked as (
         update events e set fanned_out = true from batch b
          where e.partner_id = b.partner_id and e.id = b.id and e.occurred_at = b.occurred_at
         returning 1
       ), written as (
         insert into webhook_deliveries (partner_id, endpoint_id, event_id, next_attempt_at, fanned_out)
         select b.partner_id, w.id, b.id, now(), true
           from batch b join webhook_endpoints w on w.partner_id = b.partner_id
          where b.type <> 'webhook.test' and w.enabled and b.type = any(w.event_types)
            and (w.format = 'standard' or b.type = 'transaction.created') and w.created_at <= b.recorded_at
          order by b.sequence, w.id
         on conflict do nothing
         returning partner_id
       ), told as (
         select pg_notify(?, ? || partner_id) from (select distinct partner_id from written) as partners
       )
       select (select count(*) from marked)::int as events, (select count(*) from written)::int as deliveries,
              (select count(*) from told)::int as told`,
      [limit, EVENTS_CHANNEL, DELIVERIES_DUE_PREFIX],
    )) as { rows: Array<{ events: number; deliveries: number }> };
    return { events: rows[0]!.events, deliveries: rows[0]!.deliveries, busy: false };
  });
}

/** Events committed and not yet fanned out: the relay's backlog (a gauge, and the bench's wait). */
export async function fanOutBacklog(db: DbOrTrx): Promise<number> {
  const row = (await db('events').whereRaw('not fanned_out').count({ n: '*' }).first()) as { n: string | number };
  return Number(row.n);
}
