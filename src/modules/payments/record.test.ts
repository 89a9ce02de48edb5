// A payment's events, built with its id (an in-store payment's is drawn by its read, before its
// write): the id stands wherever the contract names the payment, and its transactions are written as
// list-transactions writes them.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../fixtures/demoIds.js';
import { addMoney, money } from '../../kernel/money.js';
import type { FinanceOrderForPayment } from '../financeOrders/rows.js';
import { columnsOfSettings, DEFAULT_PARTNER_SETTINGS } from '../partners/settings.js';
import { checkPayment, eventsOfPayment, type PaymentSource, paymentRowOf, receiptOf } from './record.js';

const NOW = new Date('2026-06-10T15:30:00Z');
// Demo order 4000004: 18.00 a month for 12 months, 18.00 paid; 5% commission.
const order: FinanceOrderForPayment = {
  partner_id: '1',
  id: DEMO_ORDER_ID,
  customer_id: '4000005',
  device_id: '7',
  merchant_id: DEMO_MERCHANT_ID,
  clerk_id: DEMO_CLERK_ID,
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
  release_at: null,
  closed_at: null,
  closed_reason: null,
  closed_note: null,
  cleared_minor: '0',
  commission_rate_bps: 500,
  ...columnsOfSettings(DEFAULT_PARTNER_SETTINGS),
  device_tag: DEMO_DEVICE_TAG,
  device_imei: '123456789012347',
  // No device credential: no unlock code.
  credential_key_hash: null,
  unlock_key: null,
  unlock_key_sealed: null,
  unlock_code_counter: null,
};

const inStore = (names: { merchant?: string; clerk?: string } = {}): PaymentSource => ({
  channel: 'in_store',
  merchantId: DEMO_MERCHANT_ID,
  clerkId: DEMO_CLERK_ID,
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

describe('eventsOfPayment', () => {
  it.each([
    ['with its cash and commission', '18.00', ['payment.recorded', 'transaction.created', 'transaction.created']],
    ['too small for a commission', '0.01', ['payment.recorded', 'transaction.created']],
    [
      'paying the order off',
      '198.00',
      ['payment.recorded', 'transaction.created', 'transaction.created', 'finance_order.paid_off'],
    ],
  ])("names the payment by its id wherever the contract does, in each type's dialect: %s", (_case, amount, types) => {
    const events = eventsWith('4000123', amount, inStore());
    expect(events.map((event) => event.type)).toEqual(types);
    const naming = events.filter((event) => event.type !== 'finance_order.paid_off');
    // payment.recorded's id as the graph writes it, a transaction's as the contract does (decisions.md 41).
    expect(naming.map((event) => (event.data as { payment: { id: unknown } }).payment.id)).toEqual(
      naming.map((event) => (event.type === 'payment.recorded' ? '4000123' : 4000123)),
    );
  });

  it('writes its cash and commission as list-transactions items, key by key', () => {
    const [, cash, commission] = eventsWith('4000123', '18.00', inStore());
    const time = Math.floor(NOW.getTime() / 1000);
    const merchant = { id: Number(DEMO_MERCHANT_ID), name: 'Demo Store' };
    const payment = { id: 4000123, timestamp: time, amount: 18 };
    expect(JSON.stringify(cash!.data)).toBe(
      JSON.stringify({
        type: 'cash',
        time,
        amount: -18,
        currency: 'USD',
        merchant,
        payment,
        financeOrder: { id: Number(DEMO_ORDER_ID) },
        salesClerk: { id: Number(DEMO_CLERK_ID), name: 'Ana "Cashier" Núñez' },
      }),
    );
    expect(JSON.stringify(commission!.data)).toBe(
      JSON.stringify({
        type: 'commission',
        time,
        amount: 0.9,
        currency: 'USD',
        merchant,
        payment,
        financeOrder: { id: Number(DEMO_ORDER_ID) },
      }),
    );
  });
});
