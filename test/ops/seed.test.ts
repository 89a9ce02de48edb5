// The demo data set as shared/spec/demo-data.md describes it, with its figures checked from the rows.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_KEYS, databaseHoldsData, demoEpoch, SeedRefused, seedDemoData } from '../../src/fixtures/demo.js';
import { DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const NOW = new Date('2026-03-15T13:45:12Z');
const T = Date.parse('2026-03-15T00:00:00Z');
const DAY = 86_400_000;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ now: NOW });
});
afterAll(async () => database?.destroy());

const db = () => database.db;

describe('demo seed', () => {
  it("takes T as the start of the seed's UTC day", () => {
    expect(demoEpoch(NOW).getTime()).toBe(T);
  });

  it('loads the orders with their terms and times relative to T', async () => {
    const orders = await db()('finance_orders').orderBy('id');
    expect(
      orders.map((o) => [
        o.id,
        o.currency,
        o.ordered_at.getTime(),
        o.purchase_minor,
        o.down_payment_minor,
        o.monthly_cost_minor,
        o.weekly_cost_minor,
        o.months,
      ]),
    ).toEqual([
      [DEMO_ORDER_ID, 'USD', T - 40 * DAY, '30000', '10000', '1800', '400', 12],
      ['4000010', 'USD', T - 400 * DAY, '40000', '10000', '3500', '900', 12],
      ['4000012', 'USD', T - 100 * DAY, '25000', '5000', '2000', '500', 12],
      ['5000002', 'MXN', T - 20 * DAY, '20000', '4000', '1600', '400', 12],
    ]);
  });

  it("keeps each order's running total equal to its payments, and the balances the spec states", async () => {
    const rows = await db()('finance_orders as o')
      .leftJoin('payments as p', function () {
        this.on('p.partner_id', 'o.partner_id').andOn('p.finance_order_id', 'o.id');
      })
      .groupBy('o.partner_id', 'o.id')
      .orderBy('o.id')
      .select(
        'o.id',
        'o.total_paid_minor',
        'o.monthly_cost_minor',
        'o.months',
        db().raw('coalesce(sum(p.amount_minor), 0)::int8 as paid'),
      );
    for (const row of rows) expect(row.total_paid_minor, row.id).toBe(row.paid);
    const remaining = Object.fromEntries(
      rows.map((row) => [row.id, BigInt(row.monthly_cost_minor) * BigInt(row.months) - BigInt(row.paid)]),
    );
    expect(remaining).toEqual({ [DEMO_ORDER_ID]: 19800n, '4000010': 0n, '4000012': 24000n, '5000002': 19200n });
  });

  it('records the ledger: finance per order, cash and 5% commission for the in-store payment, one adjustment', async () => {
    const rows = await db()('transactions').orderBy(['occurred_at', 'id']);
    expect(rows.map((t) => [t.type, t.amount_minor, t.currency, t.finance_order_id, t.occurred_at.getTime()])).toEqual([
      ['finance', '30000', 'USD', '4000010', T - 400 * DAY],
      ['finance', '20000', 'USD', '4000012', T - 100 * DAY],
      ['finance', '20000', 'USD', DEMO_ORDER_ID, T - 40 * DAY],
      ['finance', '16000', 'MXN', '5000002', T - 20 * DAY],
      ['cash', '-1800', 'USD', DEMO_ORDER_ID, T - 10 * DAY],
      ['commission', '90', 'USD', DEMO_ORDER_ID, T - 10 * DAY],
      ['adjustment', '-10', 'USD', DEMO_ORDER_ID, T - 5 * DAY],
    ]);
    const demo = await db()('partners').where({ name: 'Demo Retail' }).first();
    const payment = await db()('payments').where({ id: 4000008 }).first();
    expect((BigInt(payment.amount_minor) * BigInt(demo.commission_rate_bps)) / 10000n).toBe(90n);
    const adjustment = await db()('adjustments').first();
    expect([adjustment.kind, adjustment.notes, adjustment.amount_minor]).toEqual([
      'commission',
      `commission correction for financeOrder ${DEMO_ORDER_ID}`,
      '-10',
    ]);
    // The vendor payment on 4000010 is not the partner's cash: no transaction names it.
    const vendorPayment = await db()('payments').where({ channel: 'vendor' }).first();
    expect(await db()('transactions').where({ payment_id: vendorPayment.id })).toEqual([]);
  });

  it('stores keys hashed only, one per demo key, each tied to its principal', async () => {
    const keys = await db()('api_keys').orderBy('id');
    expect(keys).toHaveLength(DEMO_KEYS.length);
    const everything = JSON.stringify(keys);
    for (const { key, kind } of DEMO_KEYS) {
      expect(everything).not.toContain(key);
      const row = keys.find((k) => k.key_hash === createHash('sha256').update(key).digest('hex'));
      expect(row?.kind, key).toBe(kind);
    }
  });

  it('registers every device in the global directory, and the device catalogue', async () => {
    const directory = await db()('device_directory as d')
      .join('devices as v', function () {
        this.on('v.partner_id', 'd.partner_id').andOn('v.id', 'd.device_id');
      })
      .select('d.imei', 'v.imei as device_imei', 'd.tag', 'v.tag as device_tag');
    expect(directory).toHaveLength(4);
    for (const row of directory) expect([row.imei, row.tag]).toEqual([row.device_imei, row.device_tag]);
    const device = await db()('devices').where({ tag: DEMO_DEVICE_TAG }).first();
    expect([device.sim_number, device.phone_number, device.description, device.last_seen_at.getTime()]).toEqual([
      '12345678901774567891',
      '15052111315',
      'Black, 32 GB',
      T - DAY,
    ]);
  });

  it('moves id sequences past the fixed demo ids', async () => {
    const [merchant] = await db()('merchants')
      .insert({
        partner_id: (await db()('partners').first()).id,
        name: 'NEW',
        street: 's',
        city: 'c',
        state: 'st',
        country: 'US',
        phone_number: '1',
      })
      .returning('id');
    expect(BigInt(merchant.id)).toBeGreaterThan(2000001n);
    await db()('merchants').where({ id: merchant.id }).delete();
  });

  it('refuses a database that holds data, and production mode, writing nothing', async () => {
    expect(await databaseHoldsData(db())).toBe(true);
    await expect(seedDemoData(db(), { production: false })).rejects.toThrow(SeedRefused);
    expect(await db()('partners').count({ n: '*' })).toEqual([{ n: '2' }]);

    const empty = await createTestDatabase({ seed: false });
    try {
      await expect(seedDemoData(empty.db, { production: true })).rejects.toThrow(/never loaded in production/);
      expect(await databaseHoldsData(empty.db)).toBe(false);
    } finally {
      await empty.destroy();
    }
  });
});
