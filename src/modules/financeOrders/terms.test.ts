import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const minBigInt = (a: bigint, b: bigint) => (a < b ? a : b);

import { DEFAULT_PARTNER_SETTINGS } from '../partners/settings.js';
import {
  financeAmountOf,
  lockAtOf,
  type OrderTerms,
  paymentOptionsOf,
  remainingBalanceOf,
  repayableTotalOf,
  scheduleOf,
  standingOf,
} from './terms.js';

const DAY = 86_400_000;
const ORDERED = new Date('2026-01-01T00:00:00Z');
const order = (overrides: Partial<OrderTerms> = {}): OrderTerms => ({
  currency: 'USD',
  monthly_cost_minor: '1800',
  weekly_cost_minor: '400',
  months: 12,
  total_paid_minor: '0',
  ordered_at: ORDERED,
  ...overrides,
});

describe('standingOf', () => {
  it('follows decisions.md 5 on the demo order 4000004', () => {
    const standing = standingOf(order({ total_paid_minor: '1800' }), new Date(ORDERED.getTime() + 40 * DAY));
    expect(standing).toEqual({
      repayableMinor: 21600n,
      totalPaidMinor: 1800n,
      remainingMinor: 19800n,
      fullyPaid: false,
      paidThrough: new Date(ORDERED.getTime() + 60 * DAY),
      lockAt: new Date(ORDERED.getTime() + 60 * DAY),
      nextPayment: new Date(ORDERED.getTime() + 60 * DAY),
      secureStatus: 'ACTIVE_AND_SECURED',
      validThrough: new Date(ORDERED.getTime() + 60 * DAY),
      releaseAt: null,
      closedReason: null,
    });
  });

  it("locks at paid-through + the partner's grace (decisions.md 15), and not before", () => {
    const terms = order();
    const grace = { ...DEFAULT_PARTNER_SETTINGS, lockGraceHours: 48 };
    const paidThrough = ORDERED.getTime() + 30 * DAY;
    const lockAt = new Date(paidThrough + 2 * DAY);
    expect(lockAtOf(new Date(paidThrough), grace)).toEqual(lockAt);
    expect(standingOf(terms, new Date(paidThrough), grace)).toMatchObject({
      lockAt,
      nextPayment: lockAt,
      secureStatus: 'ACTIVE_AND_SECURED',
    });
    expect(standingOf(terms, new Date(lockAt.getTime() - 1), grace).secureStatus).toBe('ACTIVE_AND_SECURED');
    expect(standingOf(terms, lockAt, grace).secureStatus).toBe('LOCKED');
    expect(standingOf(order({ total_paid_minor: '21600' }), lockAt, grace).lockAt).toBeNull();
  });

  it('locks once paid-through has passed, at that very moment', () => {
    const terms = order();
    expect(standingOf(terms, new Date(ORDERED.getTime() + 30 * DAY - 1)).secureStatus).toBe('ACTIVE_AND_SECURED');
    expect(standingOf(terms, new Date(ORDERED.getTime() + 30 * DAY)).secureStatus).toBe('LOCKED');
  });

  it('releases a fully paid order, with no next payment, even long after', () => {
    const standing = standingOf(order({ total_paid_minor: '21600' }), new Date(ORDERED.getTime() + 1000 * DAY));
    expect([standing.fullyPaid, standing.nextPayment, standing.secureStatus, standing.remainingMinor]).toEqual([
      true,
      null,
      'RELEASED',
      0n,
    ]);
  });

  it('never loses a day to rounding however the total is split, and never goes back as payments grow', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 100000 }),
        (payments, monthly) => {
          const terms = order({ monthly_cost_minor: String(monthly), months: 1000 });
          let total = 0;
          let previous = -Infinity;
          for (const payment of payments) {
            total += payment;
            const paidThrough = standingOf(
              { ...terms, total_paid_minor: String(total) },
              ORDERED,
            ).paidThrough.getTime();
            expect(paidThrough).toBeGreaterThanOrEqual(previous);
            previous = paidThrough;
          }
          // Computed from the total, the days equal those of one payment of the whole total.
          const days = 30 + Math.floor((total * 30) / monthly);
          expect(standingOf({ ...terms, total_paid_minor: String(total) }, ORDERED).paidThrough.getTime()).toBe(
            ORDERED.getTime() + days * DAY,
          );
        },
      ),
    );
  });
});

describe('paymentOptionsOf', () => {
  it('offers the full balance, a month and a week, each capped at the balance', () => {
    expect(paymentOptionsOf(order({ total_paid_minor: '1800' }))).toEqual([
      { type: 'FULL', amountMinor: 19800n },
      { type: 'MONTH', amountMinor: 1800n },
      { type: 'WEEK', amountMinor: 400n },
    ]);
    expect(paymentOptionsOf(order({ total_paid_minor: '21300' }))).toEqual([
      { type: 'FULL', amountMinor: 300n },
      { type: 'MONTH', amountMinor: 300n },
      { type: 'WEEK', amountMinor: 300n },
    ]);
    expect(paymentOptionsOf(order({ total_paid_minor: '21600' }))).toEqual([]);
  });
});

describe('scheduleOf', () => {
  it('covers instalments in order and marks the passed, uncovered ones overdue', () => {
    const schedule = scheduleOf(order({ total_paid_minor: '2700', months: 4 }), new Date(ORDERED.getTime() + 61 * DAY));
    expect(
      schedule.map((s) => [s.number, (s.dueAt.getTime() - ORDERED.getTime()) / DAY, s.paidMinor, s.status]),
    ).toEqual([
      [1, 30, 1800n, 'PAID'],
      [2, 60, 900n, 'OVERDUE'],
      [3, 90, 0n, 'UPCOMING'],
      [4, 120, 0n, 'UPCOMING'],
    ]);
  });

  it('allocates exactly the total paid, never more than each instalment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50000 }),
        fc.integer({ min: 1, max: 36 }),
        fc.integer({ min: 0, max: 100 }),
        (monthly, months, percent) => {
          const paid = Math.floor((monthly * months * percent) / 100);
          const schedule = scheduleOf(
            order({ monthly_cost_minor: String(monthly), months, total_paid_minor: String(paid) }),
            ORDERED,
          );
          expect(schedule.reduce((sum, s) => sum + s.paidMinor, 0n)).toBe(BigInt(paid));
          for (const s of schedule) expect(s.paidMinor <= BigInt(monthly)).toBe(true);
        },
      ),
    );
  });
});

describe('sums and allocations keep every minor unit', () => {
  // Up to 10^15 minor units a month for 1 to 120 months: totals beyond a double's exact integers.
  const terms = fc
    .record({
      monthly: fc.bigInt({ min: 1n, max: 10n ** 15n }),
      months: fc.integer({ min: 1, max: 120 }),
      // The share paid, in millionths of the repayable total: 0 and all of it come up often.
      paidShare: fc.oneof(fc.constant(0n), fc.constant(1_000_000n), fc.bigInt({ min: 0n, max: 1_000_000n })),
    })
    .map(({ monthly, months, paidShare }) => ({
      monthly,
      months,
      paid: (monthly * BigInt(months) * paidShare) / 1_000_000n,
    }));

  it('scheduleOf: instalments sum to the repayable total, paid plus unpaid to it too, filled in order', () => {
    fc.assert(
      fc.property(terms, ({ monthly, months, paid }) => {
        const orderTerms = order({
          monthly_cost_minor: String(monthly),
          weekly_cost_minor: '1',
          months,
          total_paid_minor: String(paid),
        });
        const schedule = scheduleOf(orderTerms, ORDERED);
        const standing = standingOf(orderTerms, ORDERED);
        const sum = (values: bigint[]) => values.reduce((total, value) => total + value, 0n);
        expect(schedule).toHaveLength(months);
        expect(sum(schedule.map((s) => s.amountMinor))).toBe(standing.repayableMinor);
        expect(sum(schedule.map((s) => s.paidMinor))).toBe(paid);
        expect(sum(schedule.map((s) => s.amountMinor - s.paidMinor))).toBe(standing.remainingMinor);
        // In order: whole instalments, then at most one partly paid, then nothing.
        const whole = Number(paid / monthly);
        schedule.forEach((s, index) => {
          expect(s.paidMinor).toBe(index < whole ? monthly : index === whole ? paid % monthly : 0n);
          expect(s.dueAt.getTime() - ORDERED.getTime()).toBe((index + 1) * 30 * DAY);
        });
      }),
    );
  });

  it('paymentOptionsOf: full is the exact balance; paying any option takes exactly that off, and paying one repeatedly clears the balance without a minor unit left or overpaid', () => {
    // A week costs a fifth of a month to a whole month, so paying weekly ends within 5 * months payments.
    const withWeekly = fc
      .record({
        monthly: fc.bigInt({ min: 1n, max: 10n ** 13n }),
        months: fc.integer({ min: 1, max: 36 }),
        paidShare: fc.oneof(fc.constant(0n), fc.constant(1_000_000n), fc.bigInt({ min: 0n, max: 1_000_000n })),
      })
      .chain(({ monthly, months, paidShare }) =>
        fc
          .bigInt({ min: monthly / 5n > 0n ? monthly / 5n : 1n, max: monthly })
          .map((weekly) => ({ monthly, weekly, months, paid: (monthly * BigInt(months) * paidShare) / 1_000_000n })),
      );
    fc.assert(
      fc.property(withWeekly, fc.constantFrom('FULL', 'MONTH', 'WEEK'), ({ monthly, weekly, months, paid }, type) => {
        const at = (total: bigint) =>
          order({
            monthly_cost_minor: String(monthly),
            weekly_cost_minor: String(weekly),
            months,
            total_paid_minor: String(total),
          });
        const repayable = monthly * BigInt(months);
        const options = paymentOptionsOf(at(paid));
        expect(options.length === 0).toBe(paid === repayable);
        if (options.length === 0) return;
        const full = options.find((option) => option.type === 'FULL')!.amountMinor;
        expect(full + paid).toBe(repayable);
        expect(full).toBe(standingOf(at(paid), ORDERED).remainingMinor);
        for (const option of options) expect(option.amountMinor > 0n && option.amountMinor <= full).toBe(true);
        expect(options.find((option) => option.type === 'MONTH')!.amountMinor).toBe(minBigInt(monthly, full));
        expect(options.find((option) => option.type === 'WEEK')!.amountMinor).toBe(minBigInt(weekly, full));
        // Pay the chosen option again and again: each payment is exactly what it offered.
        let total = paid;
        let payments = 0;
        for (let current = paymentOptionsOf(at(total)); current.length > 0; current = paymentOptionsOf(at(total))) {
          const amount = current.find((option) => option.type === type)!.amountMinor;
          const before = current.find((option) => option.type === 'FULL')!.amountMinor;
          total += amount;
          payments += 1;
          const after = paymentOptionsOf(at(total));
          expect(after.length === 0 ? 0n : after.find((option) => option.type === 'FULL')!.amountMinor).toBe(
            before - amount,
          );
        }
        expect(total).toBe(repayable);
        const per = type === 'FULL' ? full : type === 'MONTH' ? monthly : weekly;
        expect(BigInt(payments)).toBe((full + per - 1n) / per);
      }),
    );
  });
});

describe('the figures, one function each (decisions.md 5)', () => {
  it('financeAmount = purchase - down; repayable = monthly * months; remaining = repayable - paid', () => {
    const cart = { currency: 'MXN', purchase_minor: '20000', down_payment_minor: '4000' };
    expect(financeAmountOf(cart)).toEqual({ minor: 16000n, currency: 'MXN' });
    expect(repayableTotalOf(order())).toEqual({ minor: 21600n, currency: 'USD' });
    expect(remainingBalanceOf(order({ total_paid_minor: '1800' }))).toEqual({ minor: 19800n, currency: 'USD' });
  });

  it('the standing, the options and the balance agree', () => {
    const monthlies = fc.bigInt({ min: 1n, max: 10n ** 12n });
    const shares = fc.bigInt({ min: 0n, max: 10n ** 6n });
    fc.assert(
      fc.property(monthlies, fc.integer({ min: 1, max: 120 }), shares, (monthly, months, share) => {
        const paid = (monthly * BigInt(months) * share) / 10n ** 6n;
        const terms = order({ monthly_cost_minor: String(monthly), months, total_paid_minor: String(paid) });
        const remaining = remainingBalanceOf(terms).minor;
        expect(standingOf(terms, ORDERED).remainingMinor).toBe(remaining);
        expect(paymentOptionsOf(terms).find((option) => option.type === 'FULL')?.amountMinor ?? 0n).toBe(remaining);
      }),
    );
  });
});
