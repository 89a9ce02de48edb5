// financeCart: the order, the partner's finance transaction and the audit record are one transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { DEMO_CART_TAG, DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../fixtures/demoIds.js';
import type { AuditActor } from '../audit/rows.js';
import { insertDevice } from '../devices/queries.js';
import { financeCart } from './finance.js';
import { insertCart } from './queries.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const OPERATOR: AuditActor = { kind: 'operator', id: '1', keyId: null, clientAddress: null, requestId: 'finance-test' };
// The trail's check constraint refuses this actor, so its audit record cannot be written.
const UNRECORDABLE = { ...OPERATOR, kind: 'nobody' } as unknown as AuditActor;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => database?.destroy());

const count = async (table: string) => Number((await database.db(table).count({ n: '*' }).first())!.n);
const written = async () => ({
  orders: await count('finance_orders'),
  transactions: await count('transactions'),
  audit: await count('audit_events'),
});

/** A device of the demo cart's model with no holder yet. */
async function unheldDevice(tag: string, imei: string): Promise<string> {
  const device = await insertDevice(database.db, {
    partner_id: '1',
    customer_id: null,
    model_id: '3',
    tag,
    imei,
    sim_number: null,
    phone_number: null,
    description: null,
  });
  return device.id;
}

describe('financeCart', () => {
  it('writes the order, its finance transaction (+financeAmount), the audit record; gives the device', async () => {
    const deviceId = await unheldDevice('DTFIN001', '490154203237518');
    const order = await financeCart(database.db, OPERATOR, { partnerId: '1', cartTag: DEMO_CART_TAG, deviceId }, NOW);
    expect(order).toMatchObject({
      partner_id: '1',
      customer_id: '4000005',
      device_id: deviceId,
      currency: 'USD',
      purchase_minor: '30000',
      total_paid_minor: '0',
    });
    const transactions = await database.db('transactions').where({ partner_id: '1', finance_order_id: order.id });
    expect(transactions.map((row) => [row.type, row.amount_minor, row.currency])).toEqual([
      ['finance', '20000', 'USD'],
    ]);
    const audit = await database.db('audit_events').where({ action: 'cart.finance', subject_id: order.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      partner_id: '1',
      request_id: 'finance-test',
      details: { cartTag: DEMO_CART_TAG, deviceId },
    });
    expect((await database.db('devices').where({ partner_id: '1', id: deviceId }).first()).customer_id).toBe('4000005');
  });

  it('refuses a cart financed already, writing nothing', async () => {
    const before = await written();
    const deviceId = await unheldDevice('DTFIN002', '490154203237526');
    await expect(
      financeCart(database.db, OPERATOR, { partnerId: '1', cartTag: DEMO_CART_TAG, deviceId }, NOW),
    ).rejects.toMatchObject({
      extensions: { code: 'INVALID_ARGUMENT' },
    });
    expect(await written()).toEqual(before);
    expect((await database.db('devices').where({ partner_id: '1', id: deviceId }).first()).customer_id).toBeNull();
  });

  it('writes no order and no transaction when its audit record cannot be written', async () => {
    await insertCart(database.db, {
      partner_id: '1',
      cart_tag: 'CART-FIN-ATOMIC',
      customer_id: '4000005',
      merchant_id: DEMO_MERCHANT_ID,
      clerk_id: DEMO_CLERK_ID,
      device_model_id: '3',
      device_description: null,
      currency: 'USD',
      purchase_minor: '10000',
      down_payment_minor: '1000',
      price_pre_tax_minor: '10000',
      monthly_cost_minor: '1000',
      weekly_cost_minor: '250',
      months: 10,
    });
    const deviceId = await unheldDevice('DTFIN003', '490154203237534');
    const before = await written();
    await expect(
      financeCart(database.db, UNRECORDABLE, { partnerId: '1', cartTag: 'CART-FIN-ATOMIC', deviceId }, NOW),
    ).rejects.toThrow();
    expect(await written()).toEqual(before);
    expect((await database.db('devices').where({ partner_id: '1', id: deviceId }).first()).customer_id).toBeNull();
  });
});
