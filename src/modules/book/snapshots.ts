// The book's history (decisions.md 45): a snapshot a day per partner, written by the worker role, and
// the history read back from them. A snapshot is the NONE sums (figures.ts portfolioSums) as of a
// day's 00:00:00 UTC by the partner's clock, per currency, so the history's ratios are computed by the
// same function as portfolioMetrics' and a snapshot equals the figures asked at its moment.
// Exactly once across instances: each day is made in a transaction of its own under a
// transaction-scoped advisory lock on the partner (held by another instance: this one leaves the
// partner to it), which reads the partner's latest day again under the lock, and the primary key
// refuses a second row besides.
import type { DbOrTrx } from '../../db/knex.js';
import { invalidArgument } from '../../kernel/errors.js';
import { portfolioSums } from './figures.js';
import type { PortfolioHistoryPointParent, PortfolioSnapshotRow, PortfolioSums } from './rows.js';

const DAY_MS = 86_400_000;
/** The most points a history answers (decisions.md 45). */
export const MAX_HISTORY_POINTS = 1000;

/** Days as whole days since 1970-01-01 (UTC) and back to `YYYY-MM-DD`. */
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayText = (number: number) => new Date(number * DAY_MS).toISOString().slice(0, 10);

export interface SnapshotRun {
  /** Real time now. */
  now: Date;
  /** Production: every clock is real, whatever sandbox offset is stored (decisions.md 15). */
  production: boolean;
  /** PORTFOLIO_BACKFILL_DAYS: the most days back a partner's missing days are made. */
  backfillDays: number;
  /** At most this many days are written by one call (the job loop's batch). */
  maxDays: number;
}

/** What one call wrote for one partner: its days from `from` to `to`, `days` of them. */
export interface PartnerSnapshotsWritten {
  partnerId: string;
  days: number;
  from: string;
  to: string;
}

interface PartnerDue {
  partner_id: string;
  lock_grace_hours: number;
  offset_ms: string | null;
  /** Its latest snapshot's day, YYYY-MM-DD (null: none yet). */
  latest: string | null;
  /** Its first sale (null: nothing sold). */
  first_sale: Date | null;
}

/** Every partner, by id: the partners are a reference table (on every node of Citus), so this is one read. */
async function partnerIds(db: DbOrTrx): Promise<string[]> {
  const rows: Array<{ id: string | number }> = await db('partners').select('id').orderBy('id');
  return rows.map((row) => String(row.id));
}

/**
 * What the partner's days are decided from: its latest snapshot, its first sale (null: nothing sold), its
 * sandbox offset and its grace as stored now (read here, not from an instance's copy of the policies: the
 * worker role keeps none). One statement, two index probes, every table pinned to the partner by value
 * (Citus takes no subquery correlated to a reference table's row): one shard on Citus (decisions.md 48).
 */
async function partnerDue(db: DbOrTrx, partnerId: string): Promise<PartnerDue> {
  const { rows } = (await db.raw(
    `select p.lock_grace_hours, c.offset_ms::text as offset_ms,
       (select max(s.day)::text from portfolio_snapshots s where s.partner_id = ?) as latest,
       (select min(o.ordered_at) from finance_orders o where o.partner_id = ?) as first_sale
     from partners p left join sandbox_clocks c on c.partner_id = ?
     where p.id = ?`,
    [partnerId, partnerId, partnerId, partnerId],
  )) as { rows: Array<Omit<PartnerDue, 'partner_id'>> };
  // The row of a partner just listed: partners are never deleted.
  return { partner_id: partnerId, ...rows[0]! };
}

/**
 * The days due for a partner: from the day after its latest snapshot (none yet: the day after its first
 * sale), at most `backfillDays` back, to its today (the last day whose 00:00 UTC has passed by its
 * clock); null when none is.
 */
function daysDue(partner: PartnerDue, run: SnapshotRun): { first: number; last: number } | null {
  const offset = run.production || partner.offset_ms === null ? 0 : Number(partner.offset_ms);
  const today = Math.floor((run.now.getTime() + offset) / DAY_MS);
  const next =
    partner.latest !== null ? dayNumber(partner.latest) + 1 : Math.floor(partner.first_sale!.getTime() / DAY_MS) + 1;
  const first = Math.max(next, today - run.backfillDays + 1);
  return first <= today ? { first, last: today } : null;
}

/**
 * What one transaction did: wrote `day`; found nothing sold by `day`; found every day to `last` made
 * (by another instance since the listing); or found the partner's lock held by another instance.
 */
type DayOutcome =
  | { outcome: 'written'; day: number }
  | { outcome: 'nothing sold'; day: number }
  | { outcome: 'done' }
  | { outcome: 'busy' };

/** The advisory lock's key of a partner's snapshots: a key space of its own (a prefix no other lock uses). */
const lockName = (partnerId: string) => `portfolio_snapshots:${partnerId}`;

/**
 * The partner's next day from `from` to `last`, in one transaction under the partner's lock: the day
 * after its latest snapshot as it stands under the lock (another instance's days, committed since the
 * listing, are seen here and not made again), `from` at the earliest.
 */
function writeNextDay(db: DbOrTrx, partner: PartnerDue, from: number, last: number): Promise<DayOutcome> {
  return db.transaction(async (trx): Promise<DayOutcome> => {
    const { rows: locked } = (await trx.raw('select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as taken', [
      lockName(partner.partner_id),
    ])) as { rows: Array<{ taken: boolean }> };
    if (!locked[0]?.taken) return { outcome: 'busy' };
    const latest = (await trx('portfolio_snapshots')
      .where({ partner_id: partner.partner_id })
      .max({ day: 'day' })
      .first()) as { day: string | null } | undefined;
    const day = latest?.day ? Math.max(from, dayNumber(latest.day) + 1) : from;
    if (day > last) return { outcome: 'done' };
    const sums = await portfolioSums(
      trx,
      { partnerId: partner.partner_id, asOf: new Date(day * DAY_MS), graceHours: Number(partner.lock_grace_hours) },
      'NONE',
    );
    if (sums.length === 0) return { outcome: 'nothing sold', day };
    await trx('portfolio_snapshots')
      .insert(sums.map((row) => snapshotRowOf(partner.partner_id, dayText(day), row)))
      .onConflict(['partner_id', 'day', 'currency'])
      .ignore();
    return { outcome: 'written', day };
  });
}

const snapshotRowOf = (partnerId: string, day: string, sums: PortfolioSums) => ({
  partner_id: partnerId,
  day,
  currency: sums.currency,
  as_of: sums.asOf,
  open_orders: sums.openOrders,
  outstanding_minor: sums.outstandingMinor.toString(),
  par30_minor: sums.par30Minor.toString(),
  par60_minor: sums.par60Minor.toString(),
  par90_minor: sums.par90Minor.toString(),
  locked_orders: sums.lockedOrders,
  collected_minor: sums.collectedMinor.toString(),
  due_minor: sums.dueMinor.toString(),
  first_payment_defaulted: sums.firstPaymentDefaulted,
  first_payment_eligible: sums.firstPaymentEligible,
  written_off_minor: sums.writtenOffMinor.toString(),
  period_start_outstanding_minor: sums.periodStartOutstandingMinor.toString(),
});

/**
 * Writes the days due of every partner, oldest first, one day per transaction, at most `run.maxDays` in
 * all; answers what was written per partner. A partner whose lock another instance holds is left to it
 * (that instance goes on to the partner's next day). A day by which nothing was sold writes nothing.
 */
export async function writeDueSnapshots(db: DbOrTrx, run: SnapshotRun): Promise<PartnerSnapshotsWritten[]> {
  const written: PartnerSnapshotsWritten[] = [];
  let total = 0;
  for (const partnerId of await partnerIds(db)) {
    // Read as its turn comes, a partner at a time: its days as they stand when they are written.
    const partner = await partnerDue(db, partnerId);
    const due = partner.first_sale === null ? null : daysDue(partner, run);
    let mine: PartnerSnapshotsWritten | undefined;
    for (let from = due?.first ?? 1; due && from <= due.last && total < run.maxDays; ) {
      const made = await writeNextDay(db, partner, from, due.last);
      if (made.outcome === 'busy' || made.outcome === 'done') break;
      from = made.day + 1;
      if (made.outcome === 'nothing sold') continue;
      total++;
      if (mine) {
        mine.days++;
        mine.to = dayText(made.day);
      } else {
        mine = { partnerId: partner.partner_id, days: 1, from: dayText(made.day), to: dayText(made.day) };
        written.push(mine);
      }
    }
    if (total >= run.maxDays) break;
  }
  return written;
}

export type HistoryInterval = 'DAY' | 'WEEK' | 'MONTH';

/** The days a history reads: every day of a range (DAY), or the listed days (WEEK's Mondays, MONTH's firsts). */
export type HistoryDays = { from: string; to: string } | { days: string[] };

const DAY_FORMAT = /^\d{4}-\d{2}-\d{2}$/;

function requireDay(argument: string, text: string): number {
  const number = dayNumber(text);
  if (!DAY_FORMAT.test(text) || Number.isNaN(number) || dayText(number) !== text || text < '0001-01-01')
    throw invalidArgument(argument, `must be a day as YYYY-MM-DD, got ${JSON.stringify(text.slice(0, 32))}`);
  return number;
}

const isMonday = (day: number) => new Date(day * DAY_MS).getUTCDay() === 1;
const isFirst = (day: number) => new Date(day * DAY_MS).getUTCDate() === 1;

/**
 * The days of a history from `from` to `to` (inclusive) at `interval`: INVALID_ARGUMENT for a day that is
 * not YYYY-MM-DD, `to` before `from`, or more than MAX_HISTORY_POINTS days of the interval between them.
 */
export function historyDays(from: string, to: string, interval: HistoryInterval): HistoryDays {
  const first = requireDay('from', from);
  const last = requireDay('to', to);
  if (last < first) throw invalidArgument('to', 'must not be before from');
  if (interval === 'DAY') {
    if (last - first + 1 > MAX_HISTORY_POINTS)
      throw invalidArgument('to', `must be at most ${MAX_HISTORY_POINTS} days from from (inclusive)`);
    return { from, to };
  }
  const picked = interval === 'WEEK' ? isMonday : isFirst;
  const days: string[] = [];
  // Mondays are 7 days apart, firsts at most 31: the walk is at most 31,000 steps before it refuses.
  for (let day = first; day <= last; day++) {
    if (!picked(day)) continue;
    if (days.length === MAX_HISTORY_POINTS)
      throw invalidArgument(
        'to',
        `must leave at most ${MAX_HISTORY_POINTS} ${interval === 'WEEK' ? 'Mondays' : 'firsts of a month'} from from`,
      );
    days.push(dayText(day));
  }
  return { days };
}

const SNAPSHOT_COLUMNS = [
  'partner_id',
  'day',
  'currency',
  'as_of',
  'open_orders',
  'outstanding_minor',
  'par30_minor',
  'par60_minor',
  'par90_minor',
  'locked_orders',
  'collected_minor',
  'due_minor',
  'first_payment_defaulted',
  'first_payment_eligible',
  'written_off_minor',
  'period_start_outstanding_minor',
] as const;

/** The partner's snapshots of those days, oldest first, a row per currency: one read along the primary key. */
export function snapshotsBetween(db: DbOrTrx, partnerId: string, days: HistoryDays): Promise<PortfolioSnapshotRow[]> {
  const query = db<PortfolioSnapshotRow>('portfolio_snapshots')
    .select(...SNAPSHOT_COLUMNS)
    .where({ partner_id: partnerId })
    .orderBy([
      { column: 'day', order: 'asc' },
      { column: 'currency', order: 'asc' },
    ]);
  if ('days' in days) {
    if (days.days.length === 0) return Promise.resolve([]);
    return query.whereRaw('day = any(?::date[])', [days.days]);
  }
  return query.whereBetween('day', [days.from, days.to]);
}

/**
 * A page of the partner's snapshots from day `from` to day `to` (YYYY-MM-DD, inclusive), by day then
 * currency, after `after` (null: from the first): the history's file, read along the primary key.
 */
export function snapshotsPage(
  db: DbOrTrx,
  partnerId: string,
  from: string,
  to: string,
  after: { day: string; currency: string } | null,
  limit: number,
): Promise<PortfolioSnapshotRow[]> {
  const query = db<PortfolioSnapshotRow>('portfolio_snapshots')
    .select(...SNAPSHOT_COLUMNS)
    .where({ partner_id: partnerId })
    .whereBetween('day', [from, to])
    .orderBy([
      { column: 'day', order: 'asc' },
      { column: 'currency', order: 'asc' },
    ])
    .limit(limit);
  if (after) query.whereRaw('(day, currency) > (?::date, ?)', [after.day, after.currency]);
  return query;
}

/** A snapshot as a point of the history: its day and its sums, the NONE group's. */
export function historyPointOf(row: PortfolioSnapshotRow): PortfolioHistoryPointParent {
  return {
    day: row.day,
    metrics: {
      group: 'all',
      currency: row.currency,
      asOf: row.as_of,
      openOrders: row.open_orders,
      outstandingMinor: BigInt(row.outstanding_minor),
      par30Minor: BigInt(row.par30_minor),
      par60Minor: BigInt(row.par60_minor),
      par90Minor: BigInt(row.par90_minor),
      lockedOrders: row.locked_orders,
      collectedMinor: BigInt(row.collected_minor),
      dueMinor: BigInt(row.due_minor),
      firstPaymentDefaulted: row.first_payment_defaulted,
      firstPaymentEligible: row.first_payment_eligible,
      writtenOffMinor: BigInt(row.written_off_minor),
      periodStartOutstandingMinor: BigInt(row.period_start_outstanding_minor),
    },
  };
}
