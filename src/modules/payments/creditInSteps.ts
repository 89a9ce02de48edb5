// The in-store write on a database distributed by partner (Citus, decisions.md 48): what inStoreCreditSql
// writes in one statement, written as one transaction of statements that each name the partner. Citus
// routes such a statement to the partner's shard, and a transaction whose statements all went to one
// worker commits there in one phase. It cannot route the one statement: it plans each inserting part
// apart, copies each part's rows to every worker, and so commits on all of them in two phases.
// The same guards: the order's total and the code's counter as the read saw them (else nothing is
// written: the caller reads again), then the Idempotency-Key's live record (a unique violation: the
// transaction fails whole, before an event is numbered).
import type { DbOrTrx } from '../../db/knex.js';
import { appendEventsOf, appendedBy } from '../events/queries.js';
import { timelinePlanOf } from '../timeline/schedule.js';
import { counterUnmoved, type InStoreCredit, type InStoreCredited, payoffReleaseAtSql } from './queries.js';

/** The write for `credit` in one transaction of partner-pinned statements; null when the order's total or counter had moved. */
export async function creditInStorePaymentInSteps(db: DbOrTrx, credit: InStoreCredit): Promise<InStoreCredited | null> {
  const { row: payment, key } = credit;
  const partnerId = payment.partner_id;
  // The one statement's own guard on the code's counter and its payoff's releaseAt (queries.ts): one rule each.
  const unmoved = counterUnmoved(
    partnerId,
    credit.unlockCounter?.credentialKeyHash ?? null,
    credit.unlockCounter ? credit.unlockCounter.counter - 1 : null,
  );
  const releaseAt = payoffReleaseAtSql(payment.amount_minor, payment.reversible_until);
  const written = await db.transaction(async (trx) => {
    const credited = await trx('finance_orders')
      .where({ partner_id: partnerId, id: payment.finance_order_id, total_paid_minor: credit.totalPaidSeen })
      .whereNull('closed_at')
      .whereRaw(unmoved.sql, unmoved.bindings)
      .update({
        total_paid_minor: trx.raw('total_paid_minor + ?::int8', [payment.amount_minor]),
        release_at: trx.raw(releaseAt.sql, releaseAt.bindings),
      })
      .returning('id');
    if (credited.length === 0) return null;
    // The key's record before anything is numbered: a live one (another request's) fails the transaction here.
    if (key) {
      await trx('idempotency_keys')
        .where({ partner_id: partnerId, idempotency_key: key.key })
        .where('expires_at', '<=', key.expiredBy)
        .delete();
      await trx('idempotency_keys').insert({
        partner_id: partnerId,
        idempotency_key: key.key,
        request_hash: key.requestHash,
        response_status: 200,
        response_body: JSON.stringify(key.receipt),
        created_at: payment.received_at,
        expires_at: key.expiresAt,
      });
    }
    await trx('payments').insert(paymentColumns(credit));
    if (credit.transactions.length > 0)
      await trx('transactions').insert(
        credit.transactions.map((entry) => ({
          partner_id: partnerId,
          type: entry.type,
          amount_minor: entry.amount_minor,
          currency: payment.currency,
          occurred_at: payment.received_at,
          merchant_id: payment.merchant_id,
          finance_order_id: payment.finance_order_id,
          payment_id: payment.id,
          clerk_id: entry.clerk_id,
        })),
      );
    const lifted = await moveTimeline(trx, credit);
    const events = appendEventsOf(partnerId, credit.events, new Set(credit.timeline?.guarded));
    const { arrays } = events;
    const appended = arrays.ids
      .map((id, index) => ({ id, index }))
      .filter(({ index }) => !arrays.guarded[index] || lifted);
    if (appended.length > 0)
      // One statement, the events in their order: the sequence numbers them as they come (the coordinator's, on Citus).
      await trx('events').insert(
        appended.map(({ id, index }) => ({
          partner_id: partnerId,
          id,
          sequence: trx.raw("nextval('events_sequence')"),
          type: arrays.types[index],
          occurred_at: arrays.occurredAt[index],
          data: trx.raw('?::json', [arrays.data[index]!]),
          traceparent: arrays.traceparent,
        })),
      );
    if (credit.unlockCounter)
      await trx('device_credentials')
        .where({ partner_id: partnerId, key_hash: credit.unlockCounter.credentialKeyHash })
        .whereNull('ended_at')
        .increment('unlock_code_counter', 1);
    return { events: events.written.filter((event) => !event.guarded || lifted) };
  });
  if (!written) return null;
  return {
    events: appendedBy(
      db,
      written.events.map(({ partner_id, id, type }) => ({ partner_id, id, type })),
    ),
  };
}

function paymentColumns(credit: InStoreCredit) {
  const { row } = credit;
  return {
    partner_id: row.partner_id,
    id: row.id,
    finance_order_id: row.finance_order_id,
    channel: row.channel,
    amount_minor: row.amount_minor,
    currency: row.currency,
    merchant_id: row.merchant_id,
    clerk_id: row.clerk_id,
    received_at: row.received_at,
    reversible_until: row.reversible_until,
  };
}

/**
 * The order's lock timeline as timelineParts moves it: its pending instants cancelled and its fired lock
 * lifted, then the new deadline's instants (its lock already fired when a fired lock was lifted and the
 * new one is past too). Says whether a fired lock was lifted (the guarded unlock is written then).
 */
async function moveTimeline(trx: DbOrTrx, credit: InStoreCredit): Promise<boolean> {
  const plan = timelinePlanOf(credit.timeline?.change ?? null);
  if (!plan.moving) return false;
  const { partner_id: partnerId, finance_order_id: orderId } = credit.row;
  const closed: Array<{ kind: string; state: string }> = await trx('lock_timeline')
    .where({ partner_id: partnerId, finance_order_id: orderId })
    .where((open) => open.where('state', 'pending').orWhere((lock) => lock.where({ kind: 'lock', state: 'fired' })))
    .update({ state: trx.raw("case when state = 'pending' then 'cancelled' else 'lifted' end") })
    .returning(['kind', 'state']);
  const lifted = closed.some((instant) => instant.kind === 'lock' && instant.state === 'lifted');
  if (plan.instants.length > 0) {
    const now = plan.now?.getTime() ?? Number.NEGATIVE_INFINITY;
    await trx('lock_timeline').insert(
      plan.instants.map((instant) => {
        const fired = instant.kind === 'lock' && Date.parse(instant.due_at) <= now && lifted;
        return {
          partner_id: partnerId,
          finance_order_id: orderId,
          kind: instant.kind,
          days_left: instant.days_left,
          lock_at: plan.lockAt,
          due_at: instant.due_at,
          fire_at: instant.fire_at,
          state: fired ? 'fired' : 'pending',
          fired_at: fired ? trx.raw('now()') : null,
        };
      }),
    );
  }
  return lifted;
}
