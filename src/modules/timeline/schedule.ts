// Making and closing an order's instants (docs/decisions.md 18), in the transaction of the change
// that moves its deadline: a payment (folded into its one write statement: the parts below), the
// order's creation, a partner's settings, a sandbox clock. A payment's unlock and release are written
// here too, beside the payment's own events and after them in the log.
import type { Knex } from 'knex';
import type { DbOrTrx } from '../../db/knex.js';
import { appendEventsOf, appendEventsOfSql } from '../events/queries.js';
import type { EventRow, NewEvent } from '../events/rows.js';
import type { PartnerSettings } from '../partners/settings.js';
import { releasedEvent, type TimelineOrder, unlockedEvent } from './eventData.js';
import { clockOffsetMs, instantsOf, orderInstantsBindings, orderInstantsSql } from './instants.js';

/** A change of an order's lockAt, as the contract between the parts names it. */
export interface TimelineChange {
  partnerId: string;
  financeOrderId: string;
  before: { lockAt: Date | null };
  after: { lockAt: Date | null; fullyPaid: boolean };
  /** The partner's time. */
  now: Date;
  settings: PartnerSettings;
}

/** Whether the change moves the order's deadline (else its instants stand as they are). */
export const movesDeadline = (change: TimelineChange): boolean =>
  change.after.fullyPaid || change.before.lockAt?.getTime() !== change.after.lockAt?.getTime();

/** Whether the statement's `closed` part lifted the order's fired lock: the device was locked. */
export const LIFTED = `exists (select from closed where closed.kind = 'lock' and closed.state = 'lifted')`;

/**
 * Two parts (CTEs) of a statement whose part `subject` returns the order's (partner_id, id) once
 * written. `closed`: the order's pending instants cancelled, its fired lock lifted (a fired lock is
 * the device locked for the deadline before the change). `scheduled`: the instants of the new
 * deadline; its lock is made already fired when the old lock was lifted and the new lockAt is past
 * too (the device stays locked, and is not locked twice). The first binding gates both: false, and
 * they change nothing. A scheduler claiming the same lock row at once: the update waits for its
 * claim to commit and then lifts it, or the claim skips the row and then finds it cancelled.
 */
export const timelinePartsSql = (subject: string) => `closed as (
    update lock_timeline t set state = case when t.state = 'pending' then 'cancelled' else 'lifted' end
    from ${subject} s
    where ?::bool and t.partner_id = s.partner_id and t.finance_order_id = s.id
      and (t.state = 'pending' or (t.kind = 'lock' and t.state = 'fired'))
    returning t.kind, t.state),
  scheduled as (
    insert into lock_timeline (partner_id, finance_order_id, kind, days_left, lock_at, due_at, fire_at, state, fired_at)
    select s.partner_id, s.id, i.kind, i.days_left, ?::timestamptz, i.due_at, i.fire_at, c.state,
           case when c.state = 'fired' then now() end
    from ${subject} s
    cross join jsonb_to_recordset(?::jsonb) as i (kind text, days_left int, due_at timestamptz, fire_at timestamptz)
    cross join lateral (select case when i.kind = 'lock' and i.due_at <= ?::timestamptz and ${LIFTED}
                                    then 'fired' else 'pending' end as state) c)`;

/** timelinePartsSql's bindings for `change` (null: the gate shut, nothing changes). */
export function timelinePartsBindings(change: TimelineChange | null): Knex.RawBinding[] {
  const moving = change !== null && movesDeadline(change);
  const lockAt = moving && !change.after.fullyPaid ? change.after.lockAt : null;
  const instants = lockAt && change ? instantsOf(lockAt, change.settings, change.now) : [];
  const offset = change ? clockOffsetMs(change.now) : 0;
  const rows = instants.map((instant) => ({
    kind: instant.kind,
    days_left: instant.daysLeft,
    due_at: instant.dueAt.toISOString(),
    fire_at: new Date(instant.dueAt.getTime() - offset).toISOString(),
  }));
  return [moving, lockAt, JSON.stringify(rows), change?.now ?? null];
}

/**
 * The change's own events, `order` standing as after it: device.released once paid off; else
 * device.unlocked when the new lockAt is ahead, guarded (written only if the change lifted a fired lock).
 */
export function timelineEventsOf(
  change: TimelineChange,
  order: TimelineOrder,
): { events: NewEvent[]; guarded: Set<NewEvent> } {
  if (!movesDeadline(change)) return { events: [], guarded: new Set() };
  if (change.after.fullyPaid) return { events: [releasedEvent(order, change.now)], guarded: new Set() };
  const lockAt = change.after.lockAt;
  if (!lockAt || lockAt.getTime() <= change.now.getTime()) return { events: [], guarded: new Set() };
  const unlocked = unlockedEvent(order, lockAt, change.now);
  return { events: [unlocked], guarded: new Set([unlocked]) };
}

const EVENT_COLUMNS = 'partner_id, id, sequence, type, occurred_at, data';

/**
 * One statement: `events` appended (a guarded one only if the change lifted a fired lock), and the
 * order's instants closed and made for `change`. The vendor payment's events, its unlock or release
 * after them; or a change's own events alone.
 */
export async function appendEventsWithTimeline(
  trx: DbOrTrx,
  change: TimelineChange,
  events: readonly NewEvent[],
  guarded: ReadonlySet<NewEvent>,
): Promise<EventRow[]> {
  const appended = appendEventsOf(change.partnerId, events, new Set(guarded));
  const { rows } = (await trx.raw(
    `with subject as (select partner_id, id from finance_orders where partner_id = ? and id = ?),
     ${timelinePartsSql('subject')},
     logged as (${appendEventsOfSql('subject', LIFTED)} returning ${EVENT_COLUMNS})
     select ${EVENT_COLUMNS} from logged order by sequence`,
    [change.partnerId, change.financeOrderId, ...timelinePartsBindings(change), ...appended.bindings],
  )) as { rows: EventRow[] };
  return rows;
}

/** The order as its device events tell of it, read for a change that did not bring it (one statement). */
async function timelineOrderOf(trx: DbOrTrx, partnerId: string, id: string): Promise<TimelineOrder> {
  const order = await trx('finance_orders as o')
    .join('devices as d', (on) => on.on('d.partner_id', 'o.partner_id').andOn('d.id', 'o.device_id'))
    .select(
      'o.id',
      'o.currency',
      'o.monthly_cost_minor',
      'o.weekly_cost_minor',
      'o.months',
      'o.total_paid_minor',
      'o.ordered_at',
      'd.tag as device_tag',
      'd.imei as device_imei',
    )
    .where({ 'o.partner_id': partnerId, 'o.id': id })
    .first();
  if (!order) throw new Error(`finance order ${id} of partner ${partnerId} not found for its timeline`);
  return order as TimelineOrder;
}

/**
 * In the transaction that changes an order's lockAt (a payment) or creates it: replace the order's
 * pending instants with those of the new lockAt (none when fully paid), and write DEVICE_UNLOCKED /
 * DEVICE_RELEASED events when due. Nothing when the deadline does not move; else one statement, and a
 * read of the order first when an event may be due. Returns nothing: listeners hear of its events
 * with the caller's (the payments fold this into their own statements and publish what they wrote).
 */
export async function rescheduleOrder(trx: DbOrTrx, change: TimelineChange): Promise<void> {
  if (!movesDeadline(change)) return;
  // An unlock needs a deadline before (a new order has none) and one ahead after it.
  const mayUnlock = change.before.lockAt !== null && (change.after.lockAt?.getTime() ?? 0) > change.now.getTime();
  const mayWrite = change.after.fullyPaid || mayUnlock;
  const { events, guarded } = mayWrite
    ? timelineEventsOf(change, await timelineOrderOf(trx, change.partnerId, change.financeOrderId))
    : { events: [], guarded: new Set<NewEvent>() };
  await appendEventsWithTimeline(trx, change, events, guarded);
}

/**
 * A sandbox clock moved by `deltaMs` (in the transaction that moves it): the partner's pending instants
 * come `deltaMs` sooner in real time, so a clock moved forward makes them due, and the scheduler
 * catches up in order. One statement.
 */
export async function shiftPartnerTimeline(trx: DbOrTrx, partnerId: string, deltaMs: number): Promise<void> {
  await trx.raw(
    `update lock_timeline set fire_at = fire_at - ?::int8 * interval '1 millisecond'
     where partner_id = ? and state = 'pending'`,
    [Math.round(deltaMs), partnerId],
  );
}

/**
 * A partner's settings changed (grace, reminders), at `now` in its time: its pending instants are
 * cancelled and every unpaid order whose device is not locked gets those of its lockAt under the new
 * settings (a lock already past is due at once). A locked device stays locked until a payment moves
 * its deadline. One statement.
 */
export async function reschedulePartner(
  trx: DbOrTrx,
  partnerId: string,
  settings: PartnerSettings,
  now: Date,
): Promise<void> {
  const notLocked = `not exists (select from lock_timeline f where f.partner_id = o.partner_id
    and f.finance_order_id = o.id and f.kind = 'lock' and f.state = 'fired')`;
  await trx.raw(
    `with cancelled as (
       update lock_timeline set state = 'cancelled' where partner_id = ? and state = 'pending' returning id)
     ${orderInstantsSql(notLocked)}`,
    [partnerId, ...orderInstantsBindings(partnerId, settings, now, clockOffsetMs(now))],
  );
}

/**
 * Every unpaid order of a partner gets its instants, a lock already past recorded fired without an
 * event: a data set loaded in bulk with its history (the demo's, the bench's), on real clocks (`now`
 * is the data set's: its instants' real time is their partner time); only `orderIds` when given.
 * One statement.
 */
export async function scheduleLoadedOrders(
  trx: DbOrTrx,
  partnerId: string,
  settings: PartnerSettings,
  now: Date,
  orderIds: readonly string[] | null = null,
): Promise<number> {
  const filter = orderIds === null ? 'true' : 'o.id = any(?::int8[])';
  const bindings = orderInstantsBindings(partnerId, settings, now, 0);
  const result = (await trx.raw(
    orderInstantsSql(filter, true),
    orderIds === null ? bindings : [...bindings, [...orderIds]],
  )) as { rowCount?: number };
  return result.rowCount ?? 0;
}
