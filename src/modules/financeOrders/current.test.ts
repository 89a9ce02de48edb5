import { describe, expect, it } from 'vitest';
import { currentOrderOf } from './current.js';
import type { OrderTerms } from './terms.js';

const NOW = new Date('2026-06-10T00:00:00Z');
// 10.00 a month for 3 months: 30.00 paid is paid off.
const order = (id: string, paid: string) =>
  ({
    id,
    currency: 'USD',
    monthly_cost_minor: '1000',
    weekly_cost_minor: '250',
    months: 3,
    total_paid_minor: paid,
    ordered_at: new Date('2026-01-01T00:00:00Z'),
  }) satisfies OrderTerms & { id: string };

describe('currentOrderOf (decisions.md 8)', () => {
  it("found through a device: that device's newest order, even paid off, whatever the customer's others", () => {
    expect(
      currentOrderOf(
        { ofDevice: [order('9', '3000'), order('3', '0')], ofCustomer: [order('10', '0'), order('9', '3000')] },
        NOW,
      )?.id,
    ).toBe('9');
  });

  it("otherwise the customer's newest open order, passing over newer ones paid off", () => {
    expect(
      currentOrderOf({ ofDevice: [], ofCustomer: [order('12', '3000'), order('11', '500'), order('10', '0')] }, NOW)
        ?.id,
    ).toBe('11');
    expect(currentOrderOf({ ofCustomer: [order('12', '3000'), order('11', '500')] }, NOW)?.id).toBe('11');
  });

  it('or their newest when every order is paid off, and none when there is none', () => {
    expect(currentOrderOf({ ofCustomer: [order('12', '3000'), order('11', '3000')] }, NOW)?.id).toBe('12');
    expect(currentOrderOf({ ofDevice: [], ofCustomer: [] }, NOW)).toBeUndefined();
  });
});

describe('currentOrderOf and closed orders (decisions.md 44)', () => {
  const closed = (id: string, reason: 'WRITE_OFF' | 'DEVICE_RETURNED') => ({
    ...order(id, '500'),
    closed_at: new Date('2026-05-01T00:00:00Z'),
    closed_reason: reason,
    cleared_minor: '2500',
  });

  it('passes over a closed order as over a paid-off one', () => {
    expect(
      currentOrderOf({ ofCustomer: [closed('13', 'WRITE_OFF'), order('12', '3000'), order('11', '500')] }, NOW)?.id,
    ).toBe('11');
    expect(currentOrderOf({ ofCustomer: [closed('13', 'DEVICE_RETURNED'), order('12', '3000')] }, NOW)?.id).toBe('13');
  });

  it("still answers a device's closed order when the lookup went through the device", () => {
    expect(currentOrderOf({ ofDevice: [closed('13', 'WRITE_OFF')], ofCustomer: [order('11', '500')] }, NOW)?.id).toBe(
      '13',
    );
  });
});
