// Tenant keys in bulk: a loader batch of tens of thousands of keys is one flat SQL expression (a
// row-value IN list of ~10,000 pairs exceeded Postgres's stack depth and answered 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { DEMO_MERCHANT_ID } from '../fixtures/demoIds.js';
import { merchantsByKeys } from './merchants/queries.js';
import { paymentsByKeys } from './payments/queries.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.destroy());

describe('whereTenantKeys', () => {
  it('finds rows by (partner, id) however many keys there are, and only within their partner', async () => {
    const demo = (await database.db('partners').where({ name: 'Demo Retail' }).first()).id as string;
    const other = (await database.db('partners').where({ name: 'Other Retail' }).first()).id as string;
    const keys = Array.from({ length: 30_000 }, (_, i) => ({ partnerId: demo, id: String(1_000_000_000 + i) }));
    keys.push({ partnerId: demo, id: '4000008' }, { partnerId: other, id: '4000008' });
    const rows = await paymentsByKeys(database.db, keys);
    expect(rows.map((row) => [row.partner_id, row.id])).toEqual([[demo, '4000008']]);
    const merchants = await merchantsByKeys(database.db, [
      { partnerId: other, id: DEMO_MERCHANT_ID },
      { partnerId: other, id: '2000001' },
    ]);
    expect(merchants.map((row) => row.id)).toEqual(['2000001']);
  });
});
