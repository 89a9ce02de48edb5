// The parts of a reversal decided without the database (decisions.md 44): its figures are the order's
// had the payment never been made, its lock timeline change runs from the deadline as it stood, its
// reason's bounds, the scope a caller's key is kept under, and what makes two requests the same.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../fixtures/demoIds.js';
import type { FinanceOrderForPayment } from '../financeOrders/rows.js';
import { standingOf } from '../financeOrders/terms.js';
import { columnsOfSettings, DEFAULT_PARTNER_SETTINGS } from '../partners/settings.js';
import { checkReason, idempotencyScopeOf, reversalFiguresOf, reversalRequestHash } from './reverse.js';
import type { PaymentRow } from './rows.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const DAY = 86_400_000;
const seconds = (date: Date | null) => (date === null ? null : Math.floor(date.getTime() / 1000));

// Demo order 4000004: 18.00 a month for 12 months; `paid` minor units paid so far.
const orderPaid = (paid: number, settings = DEFAULT_PARTNER_SETTINGS): FinanceOrderForPayment => ({
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
  total_paid_minor: String(paid),
  ordered_at: new Date(NOW.getTime() - 40 * DAY),
  release_at: paid >= 21600 ? new Date(NOW.getTime() + DAY) : null,
  closed_at: null,
  closed_reason: null,
  closed_note: null,
  cleared_minor: '0',
  commission_rate_bps: 500,
  ...columnsOfSettings(settings),
  device_tag: DEMO_DEVICE_TAG,
  device_imei: '123456789012347',
  credential_key_hash: null,
  unlock_key: null,
  unlock_key_sealed: null,
  unlock_code_counter: null,
});

const payment = (amount: number): PaymentRow => ({
  partner_id: '1',
  id: '4000020',
  finance_order_id: DEMO_ORDER_ID,
  channel: 'in_store',
  amount_minor: String(amount),
  currency: 'USD',
  merchant_id: DEMO_MERCHANT_ID,
  clerk_id: DEMO_CLERK_ID,
  vendor_id: null,
  vendor_reference: null,
  received_at: new Date(NOW.getTime() - 3_600_000),
  reversible_until: new Date(NOW.getTime() + 71 * 3_600_000),
});

describe('reversalFiguresOf', () => {
  it('answers the order as if the payment had never been made, and moves its deadline back', () => {
    const { snapshot, change, status } = reversalFiguresOf(orderPaid(1800 + 900), payment(900), 'wrong order', NOW);
    const without = standingOf(orderPaid(1800), NOW, DEFAULT_PARTNER_SETTINGS);
    const with9 = standingOf(orderPaid(2700), NOW, DEFAULT_PARTNER_SETTINGS);
    expect(snapshot).toEqual({
      partnerId: '1',
      paymentId: '4000020',
      amountMinor: '900',
      currency: 'USD',
      reason: 'wrong order',
      time: seconds(NOW),
      remainingMinor: '19800',
      lockAt: seconds(without.lockAt),
      fullyPaid: false,
    });
    expect(change.before.lockAt).toEqual(with9.lockAt);
    expect(change.after).toEqual({ lockAt: without.lockAt, fullyPaid: false });
    expect(change.now).toBe(NOW);
    expect(status).toBe('ACTIVE');
  });

  it('a payoff reversed: the deadline comes back from none (its release goes), the order is owed again', () => {
    const { snapshot, change } = reversalFiguresOf(orderPaid(21600), payment(19800), 'bounced', NOW);
    expect(change.before.lockAt).toBeNull();
    expect(change.after.fullyPaid).toBe(false);
    expect(snapshot).toMatchObject({ remainingMinor: '19800', fullyPaid: false, lockAt: seconds(change.after.lockAt) });
  });

  it('LOCKED when the deadline it leaves has passed; the grace counts', () => {
    // Paid through 60 days after a sale 70 days ago: 10 days past.
    const order = { ...orderPaid(1800 + 3600), ordered_at: new Date(NOW.getTime() - 70 * DAY) };
    expect(reversalFiguresOf(order, payment(3600), 'x', NOW).status).toBe('LOCKED');
    const grace = { ...DEFAULT_PARTNER_SETTINGS, lockGraceHours: 11 * 24 };
    const graced = { ...orderPaid(1800 + 3600, grace), ordered_at: new Date(NOW.getTime() - 70 * DAY) };
    expect(reversalFiguresOf(graced, payment(3600), 'x', NOW).status).toBe('ACTIVE');
  });
});

describe('the request', () => {
  it('takes a reason of 1 to 500 characters, else INVALID_ARGUMENT naming input.reason', () => {
    expect(checkReason('x')).toBe('x');
    expect(checkReason('x'.repeat(500))).toHaveLength(500);
    for (const reason of ['', 'x'.repeat(501)])
      expect(() => checkReason(reason)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it("keeps a caller's key in its own scope: the vendor, the partner of a partner key, the operator", () => {
    expect(idempotencyScopeOf({ kind: 'vendor', vendorId: '3', keyId: '9' })).toBe('vendor:3');
    expect(idempotencyScopeOf({ kind: 'partner', partnerId: '1', keyId: '9' })).toBe('partner:1');
    expect(idempotencyScopeOf({ kind: 'operator', operatorId: '2', keyId: '9' })).toBe('operator:2');
  });

  it('is the same request for the same payment and reason only', () => {
    const hash = reversalRequestHash({ partner_id: '1', id: '5' }, 'why');
    expect(hash).toMatch(/^v1:[0-9a-f]{64}$/);
    expect(reversalRequestHash({ partner_id: '1', id: '5' }, 'why')).toBe(hash);
    expect(reversalRequestHash({ partner_id: '1', id: '6' }, 'why')).not.toBe(hash);
    expect(reversalRequestHash({ partner_id: '2', id: '5' }, 'why')).not.toBe(hash);
    expect(reversalRequestHash({ partner_id: '1', id: '5' }, 'why ')).not.toBe(hash);
  });
});
