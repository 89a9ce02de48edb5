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
  const fired = sqlText(pastLockFired ? `i.kind = 'lock' and i.due_at <= s.partner_now` : 'false');
  const { settings } = of;
  return sql`insert into lock_timeline (partner_id, finance_order_id, kind, days_left, lock_at, due_at, fire_at, state, fired_at)
    select o.partner_id, o.id, i.kind, i.days_left, l.lock_at, i.due_at, i.due_at - s.offset_ms * interval '1 millisecond',
           case when ${fired} then 'fired' else 'pending' end, case when ${fired} then now() end
    from (select ${settings.lockGraceHours}::int as grace_hours, ${[...settings.lockReminderDays]}::int[] as reminder_days, ${of.partnerNow}::timestamptz as partner_now, ${of.offsetMs}::int8 as offset_ms) s
    join finance_orders o on o.partner_id = ${of.partnerId}
    cross join lateral (select ${paidThroughSql(dayRuleColumnsOf('o'))}
        + s.grace_hours * interval '1 hour' as lock_at) l
    cross join lateral (
      select 'lock' as kind, null::int as days_left, l.lock_at as due_at
      union all
      select 'reminder', d, l.lock_at - d * interval '1 day' from unnest(s.reminder_days) d) i
    where o.total_paid_minor < o.monthly_cost_minor * o.months
      and o.closed_at is null
      and (i.kind = 'lock' or i.due_at > s.partner_now)
      and (${orderFilter})
    order by o.id, i.due_at`;
}
