// The worker's sealing of the stored unlock keys (decisions.md 35), on every backend: keys in clear of
// two partners sealed under the first key, then resealed under a new first key (rotation), each
// answered as sums over the partners; and, since Citus locks rows only in a statement it runs on one
// shard (decisions.md 48), the partners found by a read without locks and every batch pinned to one.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { scopedStatementsDuring } from '../../../test/support/pinnedStatements.js';
import { sealingKeyIdOf, unlockKeySealer } from './sealing.js';
import { sealStoredUnlockKeys } from './storedKeys.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const listedKey = (id: string) => ({ id, secret: randomBytes(32).toString('base64url') });
const first = listedKey('first');
const second = listedKey('second');

interface Credential {
  partner_id: string;
  device_id: string;
  key_hash: string;
  unlock_key: string | null;
  unlock_key_sealed: string | null;
}

/** Credentials in clear (ended, as a device's earlier ones are): three of the first partner's devices' and one of the other's. */
async function addClearKeys(): Promise<Map<string, string>> {
  const devices: Array<{ partner_id: string; id: string }> = await database
    .db('devices')
    .select('partner_id', 'id')
    .orderBy(['partner_id', 'id']);
  const partners = [...new Set(devices.map((device) => String(device.partner_id)))];
  expect(partners.length).toBeGreaterThanOrEqual(2);
  const picked = [
    ...Array.from({ length: 3 }, () => devices.find((device) => String(device.partner_id) === partners[0])!),
    devices.find((device) => String(device.partner_id) === partners[1])!,
  ];
  const rows = picked.map((device) => ({
    partner_id: device.partner_id,
    device_id: device.id,
    key_hash: randomBytes(32).toString('hex'),
    unlock_key: randomBytes(32).toString('hex'),
    ended_at: new Date(),
  }));
  await database.db('device_credentials').insert(rows);
  return new Map(rows.map((row) => [row.key_hash, row.unlock_key]));
}

const stored = (): Promise<Credential[]> =>
  database
    .db('device_credentials')
    .select('partner_id', 'device_id', 'key_hash', 'unlock_key', 'unlock_key_sealed')
    .orderBy(['partner_id', 'id']);

describe('sealStoredUnlockKeys', () => {
  let keys: Map<string, string>;
  beforeAll(async () => {
    await database.db('device_credentials').delete();
    keys = await addClearKeys();
  });

  /** Every stored key sealed under `keyId`, its clear column empty, and opening to the key it was. */
  async function expectSealedUnder(keyId: string, sealer: ReturnType<typeof unlockKeySealer>) {
    const rows = await stored();
    expect(rows).toHaveLength(keys.size);
    for (const row of rows) {
      expect(row.unlock_key).toBeNull();
      expect(sealingKeyIdOf(row.unlock_key_sealed!)).toBe(keyId);
      const binding = {
        partnerId: String(row.partner_id),
        deviceId: String(row.device_id),
        credentialKeyHash: row.key_hash,
      };
      expect(sealer.open(row.unlock_key_sealed!, binding)).toBe(keys.get(row.key_hash));
    }
  }

  it("seals every partner's keys in clear, a partner at a time, each batch pinned to its partner", async () => {
    const sealer = unlockKeySealer([first]);
    const { result, statements } = await scopedStatementsDuring(database.db, () =>
      sealStoredUnlockKeys(database.db, sealer),
    );
    expect(result).toEqual({ sealed: 4, resealed: 0 });
    await expectSealedUnder('first', sealer);
    // The one statement across partners is the read that finds them; it locks nothing.
    const across = statements.filter((statement) => statement.unpinned.length > 0);
    expect(across.map((statement) => statement.sql)).toEqual([
      expect.stringMatching(/^select distinct "partner_id" from "device_credentials"/),
    ]);
    expect(across[0]!.locksRows).toBe(false);
    // One batch a partner: its rows taken (locked), then written, both pinned.
    expect(statements.filter((statement) => statement.locksRows)).toHaveLength(2);
    expect(statements.filter((statement) => /^update device_credentials/.test(statement.sql))).toHaveLength(2);
  });

  it('reseals under a new first key the keys sealed under a listed one, then finds nothing to do', async () => {
    const sealer = unlockKeySealer([second, first]);
    expect(await sealStoredUnlockKeys(database.db, sealer)).toEqual({ sealed: 0, resealed: 4 });
    await expectSealedUnder('second', sealer);
    const { result, statements } = await scopedStatementsDuring(database.db, () =>
      sealStoredUnlockKeys(database.db, sealer),
    );
    expect(result).toEqual({ sealed: 0, resealed: 0 });
    // No partner has a key to seal: the read that finds them is all it sends.
    expect(statements).toHaveLength(1);
  });
});
