import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { purgeExpiredIdempotencyKeys } from './keyRetention.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const NOW = new Date('2027-03-01T12:00:00Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const partnerId = async (name: string) => String((await database.db('partners').where({ name }).first()).id);

const record = (partner: string, key: string, expiresAt: Date) => ({
  partner_id: partner,
  idempotency_key: key,
  request_hash: 'hash',
  response_status: 200,
  response_body: JSON.stringify({ paymentId: '1' }),
  expires_at: expiresAt,
});
const keysLeft = async () =>
  (await database.db('idempotency_keys').orderBy('idempotency_key').select('idempotency_key')).map(
    (row) => row.idempotency_key as string,
  );

describe('purgeExpiredIdempotencyKeys', () => {
  it("deletes every partner's records expired by now, and keeps the live ones", async () => {
    const demo = await partnerId('Demo Retail');
    const other = await partnerId('Other Retail');
    await database.db('idempotency_keys').delete();
    await database
      .db('idempotency_keys')
      .insert([
        record(demo, 'demo-expired', at(-1)),
        record(demo, 'demo-expiring-now', NOW),
        record(demo, 'demo-live', at(1)),
        record(other, 'other-expired', at(-86_400_000)),
        record(other, 'other-live', at(86_400_000)),
      ]);
    expect(await purgeExpiredIdempotencyKeys(database.db, NOW)).toBe(3);
    expect(await keysLeft()).toEqual(['demo-live', 'other-live']);
    expect(await purgeExpiredIdempotencyKeys(database.db, NOW)).toBe(0);
  });
});
