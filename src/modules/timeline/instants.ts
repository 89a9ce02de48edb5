// The instants of a deadline (docs/decisions.md 18): the lock at lockAt, and a reminder at lockAt - d
// days for each of the partner's lockReminderDays still ahead. Each instant is kept in the partner's
// time (due_at) and in real time (fire_at, what the schedulers claim by): the two differ by the
// partner's clock offset, the sandbox clock's lead over real time (0 on real clocks).
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { dayRuleColumnsOf, paidThroughSql } from '../financeOrders/paidThroughSql.js';
import type { PartnerSettings } from '../partners/settings.js';

const DAY_MS = 86_400_000;

/** A release: a payoff's, at its order's releaseAt, once its reversal window closes (decisions.md 44). */
export type InstantKind = 'reminder' | 'lock' | 'release';

interface Instant {
  kind: InstantKind;
  /** A reminder's days before the lock; null for the lock. */
  daysLeft: number | null;
  /** In the partner's time. */
  dueAt: Date;
}

/** The lock, and the reminders whose instant is after `now` (the partner's), earliest first. */
export function instantsOf(lockAt: Date, settings: Pick<PartnerSettings, 'lockReminderDays'>, now: Date): Instant[] {
  const reminders = settings.lockReminderDays
    .map((days) => ({ kind: 'reminder' as const, daysLeft: days, dueAt: new Date(lockAt.getTime() - days * DAY_MS) }))
    .filter((instant) => instant.dueAt.getTime() > now.getTime());
  return [...reminders, { kind: 'lock' as const, daysLeft: null, dueAt: lockAt }].sort(
    (a, b) => a.dueAt.getTime() - b.dueAt.getTime(),
  );
}

/**
 * The partner's clock offset: how far `partnerNow` (its time, taken by the caller a moment ago) runs
 * ahead of real time now. Taken after partnerNow, it comes out short by the time between, so an
 * instant's fire_at is at most that late, never early.
 */
export const clockOffsetMs = (partnerNow: Date): number => partnerNow.getTime() - Date.now();

/** Whose orders orderInstantsSql gives instants: a partner's, under its settings at its time, its clock `offsetMs` ahead of real time. */
export interface InstantsOf {
  partnerId: string;
  settings: PartnerSettings;
  partnerNow: Date;
  offsetMs: number;
}

/**
 * The instants of every unpaid open order of one partner (a closed one has none: decisions.md 44; or of the orders `orderFilter` keeps, on the
 * alias `o`) as one INSERT ... SELECT: the order's paid-through (financeOrders/paidThroughSql.ts, as
 * orderStatusSql reads it), plus the grace, then the instants of instantsOf.
 * A lock already past is due at once, or with `pastLockFired` recorded fired without an event (a data
 * set loaded with its history: its devices were locked before the log could tell).
 */
export function orderInstantsSql(of: InstantsOf, orderFilter = sqlText('true'), pastLockFired = false): SqlFragment {
  // No subquery without FROM (a subquery of the settings, a lateral of the lock's instant): Citus runs a
  // statement on the partner's shard only when each such subquery is immutable (decisions.md 48). The
  // instants are one row per entry of [null, ...reminder days]: null is the lock.
  const partnerNow = sql`${of.partnerNow}::timestamptz`;
  const lockAt = sql`(${paidThroughSql(dayRuleColumnsOf('o'))} + ${of.settings.lockGraceHours}::int * interval '1 hour')`;
  const dueAt = sql`(${lockAt} - coalesce(i.days_left, 0) * interval '1 day')`;
  const fired = pastLockFired ? sql`i.days_left is null and ${dueAt} <= ${partnerNow}` : sqlText('false');
  return sql`insert into lock_timeline (partner_id, finance_order_id, kind, days_left, lock_at, due_at, fire_at, state, fired_at)
    select o.partner_id, o.id, case when i.days_left is null then 'lock' else 'reminder' end, i.days_left, ${lockAt}, ${dueAt},
           ${dueAt} - ${of.offsetMs}::int8 * interval '1 millisecond',
           case when ${fired} then 'fired' else 'pending' end, case when ${fired} then now() end
    from finance_orders o
    cross join lateral unnest(array[null]::int[] || ${[...of.settings.lockReminderDays]}::int[]) as i(days_left)
    where o.partner_id = ${of.partnerId}
      and o.total_paid_minor < o.monthly_cost_minor * o.months
      and o.closed_at is null
      and (i.days_left is null or ${dueAt} > ${partnerNow})
      and (${orderFilter})
    order by o.id, ${dueAt}`;
}
