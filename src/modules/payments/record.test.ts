// A payment's events built before the database gives its id, then completed where PAYMENT_ID_PATHS
// say (as the in-store write does in SQL: replace(text, marker, id)), are the events built with the
// id, byte for byte: the paths name every place the id stands.
import { describe, expect, it } from 'vitest';
import { addMoney, money } from '../../money.js';
import { eventTextsAwaitingPaymentId } from '../events/changes.js';
import type { FinanceOrderForPayment } from '../financeOrders/rows.js';
import { checkPayment, eventsOfPayment, type PaymentSource, paymentRowOf, receiptOf } from './record.js';

const NOW = new Date('2026-06-10T15:30:00Z');
// Demo order 4000004: 18.00 a month for 12 months, 18.00 paid; 5% commission.
const order: FinanceOrderForPayment = {
  partner_id: '1',
  id: '4000004',
  customer_id: '4000005',
  device_id: '7',
  merchant_id: '851005',
  clerk_id: '5335',
  cart_id: null,
  currency: 'USD',
  purchase_minor: '30000',
  down_payment_minor: '10000',
  price_pre_tax_minor: '30000',
  monthly_cost_minor: '1800',
  weekly_cost_minor: '400',
  months: 12,
  total_paid_minor: '1800',
  ordered_at: new Date('2026-05-01T00:00:00Z'),
  commission_rate_bps: 500,
  device_tag: 'DTSTBBB',
};

const inStore = (names: { merchant?: string; clerk?: string } = {}): PaymentSource => ({
  channel: 'in_store',
  merchantId: '851005',
  clerkId: '5335',
  merchantName: names.merchant ?? 'Demo Store',
  clerkName: names.clerk ?? 'Ana "Cashier" Núñez',
});

/** A payment's events with the payment id `id` (as record.ts builds them once it has the row). */
function eventsWith(id: string, amount: string, source: PaymentSource) {
  const { amount: paid, transactions } = checkPayment(order, {
    order: { partnerId: '1', id: order.id },
    amount,
    currency: 'USD',
    source,
  });
  const payment = { ...paymentRowOf(order, paid, source, NOW), id };
  const total = addMoney(money(order.total_paid_minor, 'USD'), paid).minor.toString();
  const receipt = receiptOf(order, payment, total);
  return eventsOfPayment({ ...order, total_paid_minor: total }, payment, receipt, source, transactions);
}

describe('eventTextsAwaitingPaymentId', () => {
  it.each([
    ['with its cash and commission', '18.00', ['payment.recorded', 'transaction.created', 'transaction.created']],
    ['too small for a commission', '0.01', ['payment.recorded', 'transaction.created']],
    [
      'paying the order off',
      '198.00',
      ['payment.recorded', 'transaction.created', 'transaction.created', 'finance_order.paid_off'],
    ],
  ])('completed with the id, equals the events built with it: %s', (_case, amount, types) => {
    const built = eventsWith('4000123', amount, inStore());
    expect(built.map((event) => event.type)).toEqual(types);
    const pending = eventsWith('0', amount, inStore());
    const marker = 'payment-id-marker';
    const texts = eventTextsAwaitingPaymentId(pending, '0', marker)!;
    expect(texts).not.toBeNull();
    const completed = texts.map((text) => text.split(JSON.stringify(marker)).join('4000123'));
    expect(completed).toEqual(built.map((event) => JSON.stringify(event.data)));
    // Every event that names the payment has the marker, and only where the id goes.
    expect(texts.filter((text) => text.includes(marker))).toHaveLength(types.length - (amount === '198.00' ? 1 : 0));
  });

  it('is null when a name holds the marker too (the completion would be ambiguous)', () => {
    const marker = 'payment-id-marker';
    const pending = eventsWith('0', '18.00', inStore({ clerk: marker }));
    expect(eventTextsAwaitingPaymentId(pending, '0', marker)).toBeNull();
    expect(eventTextsAwaitingPaymentId(eventsWith('0', '18.00', inStore()), '0', marker)).not.toBeNull();
  });

  it('refuses to mark a path that does not hold the pending id (the builder moved the id)', () => {
    expect(() => eventTextsAwaitingPaymentId(eventsWith('5', '18.00', inStore()), '0', 'm')).toThrow(/pending id/);
  });
});
