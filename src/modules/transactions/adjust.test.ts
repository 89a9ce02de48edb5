// createAdjustment: the adjustment, its signed transaction and the audit record are one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../fixtures/demoIds.js';
import { money } from '../../kernel/money.js';
import type { AuditActor } from '../audit/rows.js';
import { type AdjustmentRequest, createAdjustment } from './adjust.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const OPERATOR: AuditActor = { kind: 'operator', id: '1', keyId: null, clientAddress: null, requestId: 'adjust-test' };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => database?.destroy());

const count = async (table: string) => Number((await database.db(table).count({ n: '*' }).first())!.n);
const written = async () => ({
  adjustments: await count('adjustments'),
  transactions: await count('transactions'),
  audit: await count('audit_events'),
});

const request = (overrides: Partial<AdjustmentRequest> = {}): AdjustmentRequest => ({
  partnerId: '1',
  merchantId: DEMO_MERCHANT_ID,
  financeOrderId: DEMO_ORDER_ID,
  kind: 'commission',
  amount: money(-25n, 'USD'),
  amountAsGiven: '-0.25',
  notes: 'commission over-credited',
  operatorId: '1',
  ...overrides,
});

describe('createAdjustment', () => {
  it('writes the adjustment, its signed adjustment transaction and the audit record', async () => {
    const adjustment = await createAdjustment(database.db, OPERATOR, request(), NOW);
    expect(adjustment).toMatchObject({
      partner_id: '1',
      kind: 'commission',
      amount_minor: '-25',
      currency: 'USD',
      finance_order_id: DEMO_ORDER_ID,
      operator_id: '1',
    });
    const transactions = await database.db('transactions').where({ partner_id: '1', adjustment_id: adjustment.id });
    expect(transactions.map((row) => [row.type, row.amount_minor, row.currency, row.merchant_id])).toEqual([
      ['adjustment', '-25', 'USD', DEMO_MERCHANT_ID],
    ]);
    const [audit] = await database.db('audit_events').where({ action: 'adjustment.create', subject_id: adjustment.id });
    expect(audit).toMatchObject({
      request_id: 'adjust-test',
      details: {
        kind: 'commission',
        amount: '-0.25',
        currency: 'USD',
        notes: 'commission over-credited',
        merchantId: DEMO_MERCHANT_ID,
        financeOrderId: DEMO_ORDER_ID,
      },
    });
  });

  it.each([
    [
      'an amount in another currency than the order',
      request({ amount: money(100n, 'MXN'), amountAsGiven: '1.00' }),
      'CURRENCY_MISMATCH',
    ],
    ["another partner's store", request({ merchantId: '2000001' }), 'RESOURCE_NOT_FOUND'],
    ["another partner's order", request({ financeOrderId: '5000002' }), 'RESOURCE_NOT_FOUND'],
  ])('refuses %s, writing nothing', async (_case, refused, code) => {
    const before = await written();
    await expect(createAdjustment(database.db, OPERATOR, refused, NOW)).rejects.toMatchObject({ extensions: { code } });
    expect(await written()).toEqual(before);
  });

  it('writes no adjustment and no transaction when its audit record cannot be written', async () => {
    const before = await written();
    const unrecordable = { ...OPERATOR, kind: 'nobody' } as unknown as AuditActor;
    await expect(createAdjustment(database.db, unrecordable, request(), NOW)).rejects.toThrow();
    expect(await written()).toEqual(before);
  });
});
