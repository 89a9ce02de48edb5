// The repayment rules of decisions.md 16 on the demo order and on arbitrary orders: what an amount
// buys, the cheapest amount for a number of days, the options and which amounts a partner without
// flexible amounts takes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_SETTINGS, type PartnerSettings } from '../partners/settings.js';
import { acceptedAmountsOf, cheapestAmountFor, daysBoughtBy, isAmountAnOption, repaymentOf } from './repayment.js';
import type { OrderTerms } from './terms.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const ORDERED = new Date('2026-05-01T00:00:00Z');
const NOW = new Date('2026-06-10T15:30:00Z');
// Demo order 4000004: 18.00 a month for 12 months, 18.00 paid: paid through the sale + 60 days.
const demo = (overrides: Partial<OrderTerms> = {}): OrderTerms => ({
  currency: 'USD',
  monthly_cost_minor: '1800',
  weekly_cost_minor: '400',
  months: 12,
  total_paid_minor: '1800',
  ordered_at: ORDERED,
  ...overrides,
});
const settings = (overrides: Partial<PartnerSettings> = {}): PartnerSettings => ({
  ...DEFAULT_PARTNER_SETTINGS,
  ...overrides,
});

/** An order with any monthly cost (even under 30 minor units: a minor unit buys several days) and any total paid within it. */
const anyOrder = fc
  .record({ monthly: fc.bigInt({ min: 1n, max: 10_000_000n }), months: fc.integer({ min: 1, max: 120 }) })
  .chain(({ monthly, months }) =>
    fc
      .bigInt({ min: 0n, max: monthly * BigInt(months) - 1n })
      .map((paid) => demo({ monthly_cost_minor: monthly.toString(), months, total_paid_minor: paid.toString() })),
  );
const remainingOf = (order: OrderTerms) =>
  BigInt(order.monthly_cost_minor) * BigInt(order.months) - BigInt(order.total_paid_minor);

describe('the demo order 4000004', () => {
  it('4.00 buys 6 days, not the 7 its week option suggests; 4.20 buys 7 and 4.19 only 6', () => {
    expect(daysBoughtBy(demo(), 400n)).toBe(6);
    expect(cheapestAmountFor(demo(), 7)).toBe(420n);
    expect(daysBoughtBy(demo(), 420n)).toBe(7);
    expect(daysBoughtBy(demo(), 419n)).toBe(6);
    expect(daysBoughtBy(demo(), 1800n)).toBe(30);
  });

  it('offers 7 days for 4.20 and 30 for 18.00, a day for 0.60, the balance 198.00, each with its lockAt', () => {
    const repayment = repaymentOf(demo(), NOW, settings());
    expect(repayment).toEqual({
      currency: 'USD',
      minimumPaymentMinor: 60n,
      fullPayoffMinor: 19800n,
      flexibleAmountEnabled: true,
      options: [
        { daysPaid: 7, amountMinor: 420n, lockAt: new Date(ORDERED.getTime() + 67 * DAY) },
        { daysPaid: 30, amountMinor: 1800n, lockAt: new Date(ORDERED.getTime() + 90 * DAY) },
      ],
    });
  });

  it("adds the partner's grace to each option's lockAt", () => {
    const [week] = repaymentOf(demo(), NOW, settings({ lockGraceHours: 48 })).options;
    expect(week!.lockAt).toEqual(new Date(ORDERED.getTime() + 67 * DAY + 48 * HOUR));
  });

  it('caps an option at the balance; its days are what the balance buys; equal amounts are one option', () => {
    // 216.00 repayable, 210.00 paid: 6.00 left, which buys 10 days.
    const nearlyPaid = demo({ total_paid_minor: '21000' });
    const repayment = repaymentOf(nearlyPaid, NOW, settings({ repaymentDays: [30, 7, 60] }));
    expect(repayment.options.map((option) => [option.daysPaid, option.amountMinor])).toEqual([
      [7, 420n],
      [10, 600n],
    ]);
    expect(repayment.fullPayoffMinor).toBe(600n);
    expect(repayment.minimumPaymentMinor).toBe(60n);
  });

  it('without flexible amounts, the minimum is the first option, and only options and the payoff are taken', () => {
    const strict = settings({ flexibleAmountEnabled: false });
    expect(repaymentOf(demo(), NOW, strict).minimumPaymentMinor).toBe(420n);
    expect(acceptedAmountsOf(demo(), strict.repaymentDays)).toEqual([420n, 1800n, 19800n]);
    for (const amount of [420n, 1800n, 19800n]) expect(isAmountAnOption(demo(), amount, strict)).toBe(true);
    for (const amount of [400n, 421n, 1n, 19799n]) expect(isAmountAnOption(demo(), amount, strict)).toBe(false);
    expect(isAmountAnOption(demo(), 400n, settings())).toBe(true);
    // No day counts at all: the payoff is the one amount taken, and the minimum.
    const payoffOnly = settings({ flexibleAmountEnabled: false, repaymentDays: [] });
    expect(repaymentOf(demo(), NOW, payoffOnly).minimumPaymentMinor).toBe(19800n);
    expect(acceptedAmountsOf(demo(), [])).toEqual([19800n]);
  });

  it('offers nothing once fully paid', () => {
    const paidOff = demo({ total_paid_minor: '21600' });
    expect(repaymentOf(paidOff, NOW, settings())).toEqual({
      currency: 'USD',
      minimumPaymentMinor: 0n,
      fullPayoffMinor: 0n,
      flexibleAmountEnabled: true,
      options: [],
    });
    expect(acceptedAmountsOf(paidOff, [7, 30])).toEqual([]);
  });
});

describe('the day rule, on any order', () => {
  it("an option's amount buys at least its days, and one minor unit less buys fewer", () => {
    fc.assert(
      fc.property(anyOrder, fc.integer({ min: 1, max: 720 }), (order, days) => {
        const amount = cheapestAmountFor(order, days);
        expect(amount).toBeGreaterThan(0n);
        expect(daysBoughtBy(order, amount)).toBeGreaterThanOrEqual(days);
        expect(daysBoughtBy(order, amount - 1n)).toBeLessThan(days);
      }),
    );
  });

  it('daysBoughtBy never falls as the amount grows', () => {
    fc.assert(
      fc.property(
        anyOrder,
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (order, a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(daysBoughtBy(order, low)).toBeLessThanOrEqual(daysBoughtBy(order, high));
        },
      ),
    );
  });

  it('splitting a payment never loses a day: its parts, paid one after another, buy exactly what the whole buys', () => {
    fc.assert(
      fc.property(anyOrder, fc.array(fc.bigInt({ min: 0n, max: 10n ** 7n }), { maxLength: 20 }), (order, parts) => {
        let paid = BigInt(order.total_paid_minor);
        let days = 0;
        for (const part of parts) {
          days += daysBoughtBy({ ...order, total_paid_minor: paid.toString() }, part);
          paid += part;
        }
        const whole = parts.reduce((sum, part) => sum + part, 0n);
        expect(days).toBe(daysBoughtBy(order, whole));
      }),
    );
  });

  it('options are distinct, ascending, within the balance, each buying what it says; the payoff is always taken', () => {
    fc.assert(
      fc.property(
        anyOrder,
        fc.uniqueArray(fc.integer({ min: 1, max: 720 }), { maxLength: 10 }),
        fc.boolean(),
        (order, repaymentDays, flexibleAmountEnabled) => {
          const partner = settings({ repaymentDays, flexibleAmountEnabled });
          const repayment = repaymentOf(order, NOW, partner);
          const remaining = remainingOf(order);
          const amounts = repayment.options.map((option) => option.amountMinor);
          expect([...amounts].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))).toEqual(amounts);
          expect(new Set(amounts).size).toBe(amounts.length);
          for (const option of repayment.options) {
            expect(option.amountMinor).toBeGreaterThan(0n);
            expect(option.amountMinor).toBeLessThanOrEqual(remaining);
            expect(option.daysPaid).toBe(daysBoughtBy(order, option.amountMinor));
            expect(isAmountAnOption(order, option.amountMinor, partner)).toBe(true);
          }
          expect(repayment.fullPayoffMinor).toBe(remaining);
          expect(isAmountAnOption(order, remaining, partner)).toBe(true);
          expect(repayment.minimumPaymentMinor).toBeGreaterThan(0n);
          expect(repayment.minimumPaymentMinor).toBeLessThanOrEqual(remaining);
          if (flexibleAmountEnabled) {
            // The least amount that buys a day (or the balance, when even that buys none).
            const minimum = repayment.minimumPaymentMinor;
            expect(minimum === remaining || daysBoughtBy(order, minimum) >= 1).toBe(true);
            expect(daysBoughtBy(order, minimum - 1n)).toBe(0);
          }
        },
      ),
    );
  });
});
