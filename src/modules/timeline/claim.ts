// The schedulers' claim (docs/decisions.md 18), the way webhook deliveries are claimed: due pending
// instants taken with FOR UPDATE SKIP LOCKED, so no two schedulers take one row, marked fired (or
// skipped) and their events written in the same transaction: each instant's event is written exactly
// once, and a scheduler that dies mid-claim rolls back and leaves the rows pending for the next. One
// partner at a time (decisions.md 50): a lock-free look across partners finds those with instants due,
// then each partner's claim names the partner on every table, so Citus runs it on the partner's shard
// (it refuses FOR UPDATE across shards) and a claim never waits on another partner's rows.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { appendEvents } from '../events/queries.js';
import type { EventRow, NewEvent } from '../events/rows.js';
import { lockedEvent, lockUpcomingEvent, releasedEvent, type TimelineOrder } from './eventData.js';
import type { InstantKind } from './instants.js';

/** An instant as the claim took it, with its order and device as they stand. */
interface ClaimedInstant {
  partner_id: string;
  id: string;
  kind: InstantKind;
  days_left: number | null;
  lock_at: Date;
  due_at: Date;
  /**
   * skipped: a reminder overtaken by a later instant of its deadline, also due, or a release its order
   * no longer takes (no event); cancelled: its order was closed (decisions.md 44: the close cancels
   * them, this holds even if one were left).
   */
  state: 'fired' | 'skipped' | 'cancelled';
  order: TimelineOrder;
}

/**
 * SQL: reminder `t` (an alias of lock_timeline) is overtaken, so skipped (no event): another instant of
 * its deadline (the same order and lock_at), later in the partner's time, pending or fired, is due by
 * `due` (a condition on that instant, alias `later`). The one rule for the claim (due by its fire_at at
 * the claim's moment) and for a clock moved forward (due by its due_at at the partner's new time).
 */
export const overtakenSql = (t: string, due: SqlFragment): SqlFragment => sql`exists (
          select from lock_timeline later
          where later.partner_id = ${sqlText(t)}.partner_id and later.finance_order_id = ${sqlText(t)}.finance_order_id
            and later.lock_at = ${sqlText(t)}.lock_at and later.due_at > ${sqlText(t)}.due_at
            and later.state in ('pending', 'fired') and ${due})`;

/**
 * The claim: the `limit` earliest pending instants due at `now` (real time), along the due
 * index, rows another scheduler holds skipped. A reminder is skipped when a later instant of the same
 * deadline is due as well (catching up: no "3 days left" after the lock, nor twice in a row): later
 * by due_at, the partner's time, within the same lock_at; due by its own fire_at. Never ordered by
 * fire_at: a fired row keeps the fire_at it fired at, which a sandbox clock moved since leaves behind,
 * so comparing the two rows' fire_at would compare how late each was claimed (decisions.md 37).
 * A release (decisions.md 44) is decided on its order's row as it stands, shared-locked: skipped when
 * the order is no longer paid off (its payoff reversed) or is closed; an order another transaction
 * holds (a payment or a reversal under way) leaves its release pending for the next claim, so a
 * reversal that locked the order first never meets a release fired under it, and neither waits on
 * the other.
 */
export const claimSql = (partnerId: string, now: Date, limit: number): SqlFragment => sql`with due as (
    select partner_id, id, finance_order_id, kind from lock_timeline
    where partner_id = ${partnerId} and state = 'pending' and fire_at <= ${now}::timestamptz
    order by fire_at, id
    limit ${limit}
    for update skip locked),
  releasing as (
    select o.partner_id, o.id, o.closed_at is null and o.total_paid_minor >= o.monthly_cost_minor * o.months as releasable
    from finance_orders o
    where o.partner_id = ${partnerId} and (o.partner_id, o.id) in (select partner_id, finance_order_id from due where kind = 'release')
    for share of o skip locked),
  claimed as (
    update lock_timeline t
    set state = case when exists (
          select from finance_orders closed
          where closed.partner_id = ${partnerId} and closed.partner_id = t.partner_id and closed.id = t.finance_order_id and closed.closed_at is not null)
        then 'cancelled'
        when t.kind = 'reminder' and ${overtakenSql('t', sql`later.partner_id = ${partnerId} and later.fire_at <= ${now}`)}
        then 'skipped'
        when t.kind = 'release' and not exists (
          select from releasing r where r.partner_id = t.partner_id and r.id = t.finance_order_id and r.releasable)
        then 'skipped' else 'fired' end,
        fired_at = now()
    from due
    where t.partner_id = ${partnerId} and t.partner_id = due.partner_id and t.id = due.id
      and (t.kind <> 'release' or exists (
        select from releasing r where r.partner_id = t.partner_id and r.id = t.finance_order_id))
    returning t.partner_id, t.id, t.finance_order_id, t.kind, t.days_left, t.lock_at, t.due_at, t.fire_at, t.state)
  select c.*, o.currency, o.monthly_cost_minor, o.weekly_cost_minor, o.months, o.total_paid_minor, o.ordered_at,
         d.tag as device_tag, d.imei as device_imei
  from claimed c
  join finance_orders o on o.partner_id = ${partnerId} and o.partner_id = c.partner_id and o.id = c.finance_order_id
  join devices d on d.partner_id = ${partnerId} and d.partner_id = o.partner_id and d.id = o.device_id
  order by c.fire_at, c.id`;

/**
 * The partners with instants due at `now`: read without a lock along the due index (the due rows are
 * few: each is claimed as it comes due), so Citus may read every shard for it.
 */
export async function partnersWithDueInstants(db: DbOrTrx, now: Date): Promise<string[]> {
  const rows: Array<{ partner_id: string }> = await db('lock_timeline')
    .distinct('partner_id')
    .where('state', 'pending')
    .where('fire_at', '<=', now)
    .orderBy('partner_id');
  return rows.map((row) => String(row.partner_id));
}

/** Claims up to `limit` of the partner's instants due at `now`, in the caller's transaction (one statement). */
export async function claimDueInstants(
  trx: DbOrTrx,
  partnerId: string,
  now: Date,
  limit: number,
): Promise<ClaimedInstant[]> {
  const claim = claimSql(partnerId, now, limit);
  const { rows } = (await trx.raw(claim.sql, claim.bindings)) as { rows: Array<Record<string, unknown>> };
  return rows.map((row) => ({
    partner_id: String(row.partner_id),
    id: String(row.id),
    kind: row.kind as InstantKind,
    days_left: row.days_left as number | null,
    lock_at: row.lock_at as Date,
    due_at: row.due_at as Date,
    state: row.state as ClaimedInstant['state'],
    order: {
      id: String(row.finance_order_id),
      currency: row.currency as string,
      monthly_cost_minor: String(row.monthly_cost_minor),
      weekly_cost_minor: String(row.weekly_cost_minor),
      months: row.months as number,
      total_paid_minor: String(row.total_paid_minor),
      ordered_at: row.ordered_at as Date,
      device_tag: row.device_tag as string,
      device_imei: (row.device_imei as string | null) ?? null,
    },
  }));
}

/** The event of a fired instant: a release's at its releaseAt, the payoff's window closed. */
function eventOf(instant: ClaimedInstant): NewEvent {
  if (instant.kind === 'release') return releasedEvent(instant.order, instant.due_at);
  return instant.kind === 'lock'
    ? lockedEvent(instant.order, instant.lock_at)
    : lockUpcomingEvent(instant.order, instant.lock_at, instant.days_left ?? 0, instant.due_at);
}

/**
 * Claims a partner's due instants and writes their events, in one transaction: one statement for the
 * claim, one for the events (in the claim's order, earliest first). Answers how many instants it took
 * and the events written (for the listeners, once committed).
 */
export async function fireDueInstants(
  trx: DbOrTrx,
  partnerId: string,
  now: Date,
  limit: number,
): Promise<{ claimed: number; events: EventRow[] }> {
  const claimed = await claimDueInstants(trx, partnerId, now, limit);
  const events = claimed.filter((instant) => instant.state === 'fired').map(eventOf);
  return { claimed: claimed.length, events: events.length > 0 ? await appendEvents(trx, partnerId, events) : [] };
}

/**
 * One batch of every partner with instants due at `now`: each partner's claim in a transaction of its
 * own. Answers the instants taken in all; a partner whose claim came back full (`limit`) makes the
 * total at least `limit`, so a caller that runs again while batches come back full runs again.
 */
export async function fireDueInstantsOfEachPartner(db: Db, now: Date, limit: number): Promise<number> {
  let claimed = 0;
  for (const partnerId of await partnersWithDueInstants(db, now))
    claimed += (await db.transaction((trx) => fireDueInstants(trx, partnerId, now, limit))).claimed;
  return claimed;
}
