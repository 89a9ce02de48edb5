// The schema itself refuses what must never be stored, whatever code runs above it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICE_IMEI, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { insertCustomer } from '../../src/modules/customers/queries.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let database: TestDatabase;
let demo: string;
let other: string;

beforeAll(async () => {
  database = await createTestDatabase();
  demo = (await database.db('partners').where({ name: 'Demo Retail' }).first()).id;
  other = (await database.db('partners').where({ name: 'Other Retail' }).first()).id;
});
afterAll(async () => database?.destroy());

async function refused(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    return (error as { code?: string }).code ?? 'no code';
  }
  return 'accepted';
}

describe('schema integrity', () => {
  it("refuses a reference to another partner's row (composite foreign keys)", async () => {
    // Other Retail's order may not name Demo Retail's merchant 851005.
    const code = await refused(() =>
      database.db('finance_orders').insert({
        partner_id: other,
        customer_id: 5000001,
        device_id: database.db('devices').where({ tag: 'DTSTBBE' }).select('id'),
        merchant_id: Number(DEMO_MERCHANT_ID),
        clerk_id: 6001,
        currency: 'MXN',
        purchase_minor: 100,
        down_payment_minor: 0,
        price_pre_tax_minor: 100,
        monthly_cost_minor: 10,
        weekly_cost_minor: 3,
        months: 10,
        ordered_at: new Date(),
      }),
    );
    expect(code).toBe('23503'); // foreign_key_violation
  });

  it('refuses a balance below zero or a total paid above the repayable total', async () => {
    const order = database.db('finance_orders').where({ partner_id: demo, id: Number(DEMO_ORDER_ID) });
    expect(await refused(() => order.clone().update({ total_paid_minor: -1 }))).toBe('23514'); // check_violation
    expect(await refused(() => order.clone().update({ total_paid_minor: 1800 * 12 + 1 }))).toBe('23514');
    expect(
      await order
        .clone()
        .first()
        .then((row) => row.total_paid_minor),
    ).toBe('1800');
  });

  it('refuses a non-positive payment and an in-store payment without its merchant', async () => {
    const base = {
      partner_id: demo,
      finance_order_id: 4000012,
      currency: 'USD',
      received_at: new Date(),
      reversible_until: new Date(),
    };
    expect(
      await refused(() =>
        database
          .db('payments')
          .insert({ ...base, channel: 'in_store', amount_minor: 0, merchant_id: 1000201, clerk_id: 5320 }),
      ),
    ).toBe('23514');
    expect(
      await refused(() =>
        database.db('payments').insert({ ...base, channel: 'in_store', amount_minor: 100, clerk_id: 5320 }),
      ),
    ).toBe('23514');
  });

  it('keeps IMEI and device tag unique across partners, and vendor references unique per vendor', async () => {
    expect(
      await refused(() =>
        database
          .db('device_directory')
          .insert({ imei: DEMO_DEVICE_IMEI, tag: 'NEWTAG', partner_id: other, device_id: 1 }),
      ),
    ).toBe('23505');
    expect(
      await refused(() => database.db('devices').insert({ partner_id: demo, model_id: 3, tag: 'X1', imei: '12345' })),
    ).toBe('23514');
    const vendor = await database.db('payment_vendors').where({ name: 'demo-vendor' }).first();
    const payment = await database.db('payments').where({ channel: 'vendor' }).first();
    expect(await refused(() => database.db('payments').insert({ ...payment, id: undefined }))).toBe('23505');
    expect(vendor).toBeDefined();
  });

  it("keeps the global directories in step with their tenant rows: the seed's, and the service's writers' (decisions.md 48)", async () => {
    const db = database.db;
    const agree = async () => {
      expect(await db('finance_order_directory').select('id', 'partner_id').orderBy('id')).toEqual(
        await db('finance_orders').select('id', 'partner_id').orderBy('id'),
      );
      expect(
        await db('customer_phone_directory').select('phone_number', 'partner_id', 'customer_id').orderBy('customer_id'),
      ).toEqual(
        await db('customers')
          .whereNotNull('phone_number')
          .select('phone_number', 'partner_id', { customer_id: 'id' })
          .orderBy('id'),
      );
      expect(await db('payment_reference_directory').select('code', 'partner_id').orderBy('code')).toEqual(
        await db('payment_references').select('code', 'partner_id').orderBy('code'),
      );
      expect(
        await db('device_credential_directory').select('key_hash', 'partner_id', 'device_id').orderBy('key_hash'),
      ).toEqual(
        await db('device_credentials')
          .whereNull('ended_at')
          .select('key_hash', 'partner_id', 'device_id')
          .orderBy('key_hash'),
      );
    };
    expect(Number((await db('finance_orders').count({ n: '*' }))[0]!.n)).toBeGreaterThan(3);
    await agree();
    // The service's writers: a customer and its phone number, in one transaction.
    const customer = await db.transaction((trx) =>
      insertCustomer(trx, {
        partner_id: other,
        name: 'Directory Test',
        phone_number: '5550009999',
        email: null,
        address: null,
        national_id: null,
        created_at: new Date(),
      }),
    );
    expect(
      await db('customer_phone_directory').where({ phone_number: '5550009999' }).select('partner_id', 'customer_id'),
    ).toEqual([{ partner_id: other, customer_id: customer.id }]);
    await agree();
    // A directory names one partner per order id and per code: a second entry is refused.
    const [order] = await db('finance_orders').select('id', 'partner_id').orderBy('id').limit(1);
    expect(
      await refused(() =>
        db('finance_order_directory').insert({ id: order.id, partner_id: order.partner_id === demo ? other : demo }),
      ),
    ).toBe('23505');
  });

  it('ties an API key to exactly one principal of its kind', async () => {
    const code = await refused(() =>
      database.db('api_keys').insert({ key_hash: 'h1', display_prefix: 'x', kind: 'vendor', partner_id: demo }),
    );
    expect(code).toBe('23514');
  });
});
