import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paymentOptionsOf, scheduleOf, standingOf, type OrderTerms } from './terms.js';

const DAY = 86_400_000;
const ORDERED = new Date('2026-01-01T00:00:00Z');
const order = (overrides: Partial<OrderTerms> = {}): OrderTerms => ({
  monthly_cost_minor: '1800', weekly_cost_minor: '400',
  months: 12, total_paid_minor: '0', ordered_at: ORDERED, ...overrides,
});

describe('standingOf', () => {
  it('follows decisions.md 5 on the demo order 4000004', () => {
    const standing = standingOf(order({ total_paid_minor: '1800' }), new Date(ORDERED.getTime() + 40 * DAY));
    expect(standing).toEqual({
      repayableMinor: 21600n, totalPaidMinor: 1800n, remainingMinor: 19800n, fullyPaid: false,
      paidThrough: new Date(ORDERED.getTime() + 60 * DAY), nextPayment: new Date(ORDERED.getTime() + 60 * DAY),
      secureStatus: 'ACTIVE_AND_SECURED',
    });
  });

  it('locks once paid-through has passed, at that very moment', () => {
    const terms = order();
    expect(standingOf(terms, new Date(ORDERED.getTime() + 30 * DAY - 1)).secureStatus).toBe('ACTIVE_AND_SECURED');
    expect(standingOf(terms, new Date(ORDERED.getTime() + 30 * DAY)).secureStatus).toBe('LOCKED');
  });

  it('releases a fully paid order, with no next payment, even long after', () => {
    const standing = standingOf(order({ total_paid_minor: '21600' }), new Date(ORDERED.getTime() + 1000 * DAY));
    expect([standing.fullyPaid, standing.nextPayment, standing.secureStatus, standing.remainingMinor]).toEqual([true, null, 'RELEASED', 0n]);
  });

  it('never loses a day to rounding however the total is split, and never goes back as payments grow', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 40 }), fc.integer({ min: 1, max: 100000 }), (payments, monthly) => {
        const terms = order({ monthly_cost_minor: String(monthly), months: 1000 });
        let total = 0;
        let previous = -Infinity;
        for (const payment of payments) {
          total += payment;
          const paidThrough = standingOf({ ...terms, total_paid_minor: String(total) }, ORDERED).paidThrough.getTime();
          expect(paidThrough).toBeGreaterThanOrEqual(previous);
          previous = paidThrough;
        }
        // Computed from the total, the days equal those of one payment of the whole total.
        const days = 30 + Math.floor((total * 30) / monthly);
        expect(standingOf({ ...terms, total_paid_minor: String(total) }, ORDERED).paidThrough.getTime()).toBe(ORDERED.getTime() + days * DAY);
      }),
    );
  });
});

describe('paymentOptionsOf', () => {
  it('offers the full balance, a month and a week, each capped at the balance', () => {
    expect(paymentOptionsOf(order({ total_paid_minor: '1800' }))).toEqual([
      { type: 'FULL', amountMinor: 19800n }, { type: 'MONTH', amountMinor: 1800n }, { type: 'WEEK', amountMinor: 400n },
    ]);
    expect(paymentOptionsOf(order({ total_paid_minor: '21300' }))).toEqual([
      { type: 'FULL', amountMinor: 300n }, { type: 'MONTH', amountMinor: 300n }, { type: 'WEEK', amountMinor: 300n },
    ]);
    expect(paymentOptionsOf(order({ total_paid_minor: '21600' }))).toEqual([]);
  });
});

describe('scheduleOf', () => {
  it('covers instalments in order and marks the passed, uncovered ones overdue', () => {
    const schedule = scheduleOf(order({ total_paid_minor: '2700', months: 4 }), new Date(ORDERED.getTime() + 61 * DAY));
    expect(schedule.map((s) => [s.number, (s.dueAt.getTime() - ORDERED.getTime()) / DAY, s.paidMinor, s.status])).toEqual([
      [1, 30, 1800n, 'PAID'],
      [2, 60, 900n, 'OVERDUE'],
      [3, 90, 0n, 'UPCOMING'],
      [4, 120, 0n, 'UPCOMING'],
    ]);
  });

  it('allocates exactly the total paid, never more than each instalment', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50000 }), fc.integer({ min: 1, max: 36 }), fc.integer({ min: 0, max: 100 }), (monthly, months, percent) => {
        const paid = Math.floor((monthly * months * percent) / 100);
        const schedule = scheduleOf(order({ monthly_cost_minor: String(monthly), months, total_paid_minor: String(paid) }), ORDERED);
        expect(schedule.reduce((sum, s) => sum + s.paidMinor, 0n)).toBe(BigInt(paid));
        for (const s of schedule) expect(s.paidMinor <= BigInt(monthly)).toBe(true);
      }),
    );
  });
});
