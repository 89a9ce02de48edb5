import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { scopedStatementsDuring } from '../../../test/support/pinnedStatements.js';
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

  // Citus locks rows only in a statement it runs on one shard (decisions.md 48): the partners are found
  // by a read without locks, then each partner's records go in batches of 10,000 pinned to it.
  it("finds the partners by a read without locks, then deletes each one's records in batches pinned to it", async () => {
    const demo = await partnerId('Demo Retail');
    const other = await partnerId('Other Retail');
    await database.db('idempotency_keys').delete();
    await database.db.raw(
      `insert into idempotency_keys (partner_id, idempotency_key, request_hash, response_status, response_body, expires_at)
       select ?, 'demo-expired-' || n, 'hash', 200, '{}'::jsonb, ?::timestamptz - n * interval '1 second'
       from generate_series(1, 10001) as n`,
      [demo, NOW],
    );
    await database
      .db('idempotency_keys')
      .insert([record(demo, 'demo-live', at(1)), record(other, 'other-expired', at(-1))]);
    const { result, statements } = await scopedStatementsDuring(database.db, () =>
      purgeExpiredIdempotencyKeys(database.db, NOW),
    );
    expect(result).toBe(10_002);
    expect(await keysLeft()).toEqual(['demo-live']);
    const across = statements.filter((statement) => statement.unpinned.length > 0);
    expect(across.map((statement) => statement.sql)).toEqual([
      expect.stringMatching(/^select distinct partner_id from idempotency_keys where expires_at <= /),
    ]);
    expect(across[0]!.locksRows).toBe(false);
    // The demo partner's two batches (a full one, then the last record), the other partner's one.
    const batches = statements.filter((statement) => statement.locksRows);
    expect(batches).toHaveLength(3);
    expect(batches.every((statement) => statement.unpinned.length === 0)).toBe(true);
  });
});
