// Making and closing an order's instants (docs/decisions.md 18), in the transaction of the change
// that moves its deadline: a payment (folded into its one write statement: the parts below), the
// order's creation, a partner's settings, a sandbox clock. A payment's unlock and release are written
// here too, beside the payment's own events and after them in the log.
import type { DbOrTrx } from '../../db/knex.js';
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { EVENTS_CHANNEL } from '../events/publish.js';
import { appendEvents, appendEventsOf, appendEventsPart, appendedBy } from '../events/queries.js';
import type { EventRow, NewEvent } from '../events/rows.js';
import { orderStatusSql } from '../financeOrders/queries.js';
import { standingOf } from '../financeOrders/terms.js';
import type { PartnerSettings } from '../partners/settings.js';
import { overtakenSql } from './claim.js';
import { releasedEvent, type TimelineOrder, unlockedEvent } from './eventData.js';
import { clockOffsetMs, instantsOf, orderInstantsSql } from './instants.js';

/** A change of an order's lockAt, as the contract between the parts names it. */
export interface TimelineChange {
  partnerId: string;
  financeOrderId: string;
  before: { lockAt: Date | null };
  /**
   * `releaseAt`: when paid off, the moment the payoff's reversal window closes (decisions.md 44); a
   * moment after `now` makes the order completing, its release an instant of the timeline. Absent or
   * not after `now`: released at once.
   */
  after: { lockAt: Date | null; fullyPaid: boolean; releaseAt?: Date | null };
  /** The partner's time. */
  now: Date;
  settings: PartnerSettings;
}

/** Whether the change moves the order's deadline (else its instants stand as they are). */
const movesDeadline = (change: TimelineChange): boolean =>
  change.after.fullyPaid || change.before.lockAt?.getTime() !== change.after.lockAt?.getTime();

/** The moment a paid-off order's release waits for: its releaseAt while after `now`; null: released at once. */
const pendingReleaseOf = (change: TimelineChange): Date | null => {
  const releaseAt = change.after.fullyPaid ? (change.after.releaseAt ?? null) : null;
  return releaseAt && releaseAt.getTime() > change.now.getTime() ? releaseAt : null;
};

/** Whether the statement's `closed` part lifted the order's fired lock: the device was locked. */
export const LIFTED = sqlText(`exists (select from closed where closed.kind = 'lock' and closed.state = 'lifted')`);

/** An instant as timelineParts writes it: its time in the partner's time (due_at) and in real time (fire_at). */
export interface InstantRow {
  kind: string;
  days_left: number | null;
  due_at: string;
  fire_at: string;
}

/**
 * What timelineParts writes: nothing unless `moving`; then the instants of `lockAt` (when paid off:
 * none, or the release alone while completing, `lockAt` its releaseAt), at the partner's `now`.
 */
export interface TimelinePlan {
  moving: boolean;
  lockAt: Date | null;
  instants: InstantRow[];
  now: Date | null;
}

/**
 * Two parts (CTEs) of a statement whose part `subject` returns the order of `partnerId` (partner_id, id) once
 * written. `closed`: the order's pending instants cancelled, its fired lock lifted (a fired lock is
 * the device locked for the deadline before the change). `scheduled`: the instants of the new
 * deadline; its lock is made already fired when the old lock was lifted and the new lockAt is past
 * too (the device stays locked, and is not locked twice). Not `moving`: they change nothing. A
 * scheduler claiming the same lock row at once: the update waits for its claim to commit and then
 * lifts it, or the claim skips the row and then finds it cancelled.
 */
export function timelineParts(subject: string, partnerId: string, plan: TimelinePlan): SqlFragment {
  const s = sqlText(subject);
  // The instants pinned to the partner beside the join: Citus then updates the partner's shard alone
  // (a join to another part of the statement does not tell it which; decisions.md 48).
  return sql`closed as (
    update lock_timeline t set state = case when t.state = 'pending' then 'cancelled' else 'lifted' end
    from ${s} s
    where ${plan.moving}::bool and t.partner_id = ${partnerId} and t.partner_id = s.partner_id and t.finance_order_id = s.id
      and (t.state = 'pending' or (t.kind = 'lock' and t.state = 'fired'))
    returning t.kind, t.state),
  scheduled as (
    insert into lock_timeline (partner_id, finance_order_id, kind, days_left, lock_at, due_at, fire_at, state, fired_at)
    select s.partner_id, s.id, i.kind, i.days_left, ${plan.lockAt}::timestamptz, i.due_at, i.fire_at, c.state,
           case when c.state = 'fired' then now() end
    from ${s} s
    cross join jsonb_to_recordset(${JSON.stringify(plan.instants)}::jsonb) as i (kind text, days_left int, due_at timestamptz, fire_at timestamptz)
    cross join lateral (select case when i.kind = 'lock' and i.due_at <= ${plan.now}::timestamptz and ${LIFTED}
                                    then 'fired' else 'pending' end as state) c)`;
}

/** timelineParts' plan for `change` (null: not moving, nothing changes). */
export function timelinePlanOf(change: TimelineChange | null): TimelinePlan {
  const moving = change !== null && movesDeadline(change);
  const releaseAt = moving ? pendingReleaseOf(change) : null;
  const lockAt = moving && !change.after.fullyPaid ? change.after.lockAt : releaseAt;
  // A completing payoff's one instant: its release (the lock_at column holds the deadline it belongs to).
  const instants = releaseAt
    ? [{ kind: 'release' as const, daysLeft: null, dueAt: releaseAt }]
    : lockAt && change
      ? instantsOf(lockAt, change.settings, change.now)
      : [];
  const offset = change ? clockOffsetMs(change.now) : 0;
  return {
    moving,
    lockAt,
    instants: instants.map((instant) => ({
      kind: instant.kind,
      days_left: instant.daysLeft,
      due_at: instant.dueAt.toISOString(),
      fire_at: new Date(instant.dueAt.getTime() - offset).toISOString(),
    })),
    now: change?.now ?? null,
  };
}

/**
 * The change's own events, `order` standing as after it: device.released once paid off, unless its
 * release waits for the payoff's window (the release instant writes it, claim.ts; meanwhile the
 * device is unlocked until releaseAt); else device.unlocked when the new lockAt is ahead. An unlock
 * is guarded: written only if the change lifted a fired lock.
 */
export function timelineEventsOf(
  change: TimelineChange,
  order: TimelineOrder,
): { events: NewEvent[]; guarded: Set<NewEvent> } {
  if (!movesDeadline(change)) return { events: [], guarded: new Set() };
  if (change.after.fullyPaid) {
    const releaseAt = pendingReleaseOf(change);
    if (!releaseAt) return { events: [releasedEvent(order, change.now)], guarded: new Set() };
    // Completing: a locked device is unlocked until its releaseAt, as the device door answers.
    const unlocked = unlockedEvent(order, releaseAt, change.now);
    return { events: [unlocked], guarded: new Set([unlocked]) };
  }
  const lockAt = change.after.lockAt;
  if (!lockAt || lockAt.getTime() <= change.now.getTime()) return { events: [], guarded: new Set() };
  const unlocked = unlockedEvent(order, lockAt, change.now);
  return { events: [unlocked], guarded: new Set([unlocked]) };
}

const EVENT_COLUMNS = sqlText('partner_id, id, sequence, type, occurred_at, data');

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
  const statement = sql`with subject as (select partner_id, id from finance_orders where partner_id = ${change.partnerId} and id = ${change.financeOrderId}),
     ${timelineParts('subject', change.partnerId, timelinePlanOf(change))},
     logged as (${appendEventsPart('subject', appended.arrays, LIFTED)} returning ${EVENT_COLUMNS})
     select ${EVENT_COLUMNS} from logged order by sequence`;
  const { rows } = (await trx.raw(statement.sql, statement.bindings)) as { rows: EventRow[] };
  return appendedBy(trx, rows);
}

/** A partner's orders (alias `o`) as their device events tell of them, with their devices: a query to narrow. */
const timelineOrders = (trx: DbOrTrx, partnerId: string) =>
  trx('finance_orders as o')
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
    .where('o.partner_id', partnerId);

/** The order as its device events tell of it, read for a change that did not bring it (one statement). */
async function timelineOrderOf(trx: DbOrTrx, partnerId: string, id: string): Promise<TimelineOrder> {
  const order = await timelineOrders(trx, partnerId).where('o.id', id).first();
  if (!order) throw new Error(`finance order ${id} of partner ${partnerId} not found for its timeline`);
  return order as TimelineOrder;
}

/**
 * In the transaction that changes an order's lockAt (a payment) or creates it: replace the order's
 * pending instants with those of the new lockAt (none when fully paid), and write DEVICE_UNLOCKED /
 * DEVICE_RELEASED events when due. Nothing when the deadline does not move; else one statement, and a


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

/** The event log channel's message that wakes the lock instants task: a partner's instants were brought forward. */
export const LOCK_INSTANTS_DUE_PREFIX = 'lock-instants-due:';

/**
 * A sandbox clock moved by `deltaMs` to the partner's time `partnerNow` (in the transaction that moves
 * it): the partner's pending instants come `deltaMs` sooner in real time, so a clock moved forward
 * makes them due, and the scheduler catches up in order. A reminder the move passes over (a later
 * instant of its deadline at or before `partnerNow`) is skipped here, by the claim's rule, so a claim
 * whose moment was taken just before this commits cannot fire it ahead of the lock (decisions.md 37).
 * Two statements forward (the reminders passed over, then the rest), one back, and forward a message
 * that wakes the scheduler at commit.
 */
export async function shiftPartnerTimeline(
  trx: DbOrTrx,
  partnerId: string,
  deltaMs: number,
  partnerNow: Date,
): Promise<void> {
  // In UTC wall time: timestamptz minus an interval is only stable (it reads the time zone), and Citus
  // refuses a stable function of a column in an update; the same instant for an interval of milliseconds.
  const shift = sql`fire_at = ((fire_at at time zone 'UTC') - ${Math.round(deltaMs)}::int8 * interval '1 millisecond') at time zone 'UTC'`;
  if (deltaMs > 0) {
    // The reminders overtaken at the partner's new time, by the claim's rule (never on a move back),
    // skipped first: their own statement, as Citus takes no now() inside a CASE.
    const passed = overtakenSql('r', sql`later.partner_id = ${partnerId} and later.due_at <= ${partnerNow}`);
    const skipped = sql`update lock_timeline r set state = 'skipped', fired_at = now(), ${shift}
       where r.partner_id = ${partnerId} and r.state = 'pending' and r.kind = 'reminder' and ${passed}`;
    await trx.raw(skipped.sql, skipped.bindings);
  }
  const moved = sql`update lock_timeline set ${shift} where partner_id = ${partnerId} and state = 'pending'`;
  await trx.raw(moved.sql, moved.bindings);
  // Brought forward, some may be due now: the scheduler claims them once this commits, not at its next look.
  if (deltaMs > 0) await trx.raw('select pg_notify(?, ?)', [EVENTS_CHANNEL, `${LOCK_INSTANTS_DUE_PREFIX}${partnerId}`]);
}

/** SQL on an order `o`: its lock has fired (the device is locked). */
const LOCKED = `exists (select from lock_timeline f where f.partner_id = o.partner_id
    and f.finance_order_id = o.id and f.kind = 'lock' and f.state = 'fired')`;

/**
 * The partner's locked orders whose lockAt, under `settings` at `now` (its time), is ahead again (a
 * grace raised, a sandbox clock reset): each one's fired lock lifted and its device.unlocked written,
 * as a payment that moves the deadline ahead does, so the timeline says what every reader of the
 * status says (decisions.md 37). The orders are those orderStatusSql finds ACTIVE, the graph's own
 * rule; a lock a payment lifted meanwhile is not lifted twice (the update answers what it lifted).
 * Three statements when an order is to unlock, one otherwise. Answers the orders and their events.
 */
async function liftOverturnedLocks(
  trx: DbOrTrx,
  partnerId: string,
  settings: PartnerSettings,
  now: Date,
): Promise<{ orderIds: string[]; events: EventRow[] }> {
  const active = orderStatusSql('o', 'ACTIVE', { partnerId, now, graceHours: settings.lockGraceHours });
  const orders = (await timelineOrders(trx, partnerId)
    .whereRaw(LOCKED)
    .whereRaw(active.sql, active.bindings)
    .orderBy('o.id')) as TimelineOrder[];
  if (orders.length === 0) return { orderIds: [], events: [] };
  const lifted = new Set(
    (
      await trx('lock_timeline')
        .where({ partner_id: partnerId, kind: 'lock', state: 'fired' })
        .whereIn(
          'finance_order_id',
          orders.map((order) => order.id),
        )
        .update({ state: 'lifted' })
        .returning('finance_order_id')
    ).map((row: { finance_order_id: string }) => String(row.finance_order_id)),
  );
  const unlocked = orders.filter((order) => lifted.has(String(order.id)));
  const events = unlocked.map((order) => unlockedEvent(order, standingOf(order, now, settings).lockAt!, now));
  return { orderIds: unlocked.map((order) => String(order.id)), events: await appendEvents(trx, partnerId, events) };
}

/**
 * A partner's settings changed (grace, reminders), at `now` in its time: the locked orders the new
 * settings put ahead again are unlocked (liftOverturnedLocks); its pending reminders and locks are
 * cancelled and every unpaid order whose device is not locked gets those of its lockAt under the new
 * settings (a lock already past is due at once). A locked order whose lockAt stays past stays locked.
 * A completing payoff's release stays as it is: its releaseAt is the payoff's window, which no
 * setting moves (decisions.md 44). Answers the unlocks written.
 */
export async function reschedulePartner(
  trx: DbOrTrx,
  partnerId: string,
  settings: PartnerSettings,
  now: Date,
): Promise<EventRow[]> {
  const { events } = await liftOverturnedLocks(trx, partnerId, settings, now);
  const instants = orderInstantsSql(
    { partnerId, settings, partnerNow: now, offsetMs: clockOffsetMs(now) },
    sqlText(`not ${LOCKED}`),
  );
  const statement = sql`with cancelled as (
       update lock_timeline set state = 'cancelled'
       where partner_id = ${partnerId} and state = 'pending' and kind <> 'release' returning id)
     ${instants}`;
  await trx.raw(statement.sql, statement.bindings);
  return events;
}

/**
 * A partner put back on real time (`now`, its new time) by a sandbox clock reset: the locked orders
 * whose lockAt is ahead of it again are unlocked, and get the instants of their deadline, on real
 * time. Its pending instants are moved by the clock's change (shiftPartnerTimeline). Answers the
 * unlocks written.
 */
export async function reopenOverturnedOrders(
  trx: DbOrTrx,
  partnerId: string,
  settings: PartnerSettings,
  now: Date,
): Promise<EventRow[]> {
  const { orderIds, events } = await liftOverturnedLocks(trx, partnerId, settings, now);
  if (orderIds.length > 0) {
    const instants = orderInstantsSql(
      { partnerId, settings, partnerNow: now, offsetMs: 0 },
      sql`o.id = any(${orderIds}::int8[])`,
    );
    await trx.raw(instants.sql, instants.bindings);
  }
  return events;
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
  const filter = orderIds === null ? sqlText('true') : sql`o.id = any(${[...orderIds]}::int8[])`;
  const instants = orderInstantsSql({ partnerId, settings, partnerNow: now, offsetMs: 0 }, filter, true);
  const result = (await trx.raw(instants.sql, instants.bindings)) as { rowCount?: number };
  return result.rowCount ?? 0;
}
