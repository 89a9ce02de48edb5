// An API key's lookups by hash taken in turns (src/db/turnBatches.ts): the lookups of one key that
// arrive while its statement runs are answered together by the next one. With the request limits
// counted in the database (src/pipeline/rateLimits/postgresCounts.ts) that statement counts them all, each
// answered its own place in the count. Run on the embedded database and on Postgres; the races
// across instances are test/ops/shared-limits.test.ts's, on Postgres.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import { activeKeyByHash, findActiveApiKeyInTurns } from '../../src/modules/auth/queries.js';
import { PostgresCounts, type PostgresLimit, RATE_LIMIT_TABLE } from '../../src/pipeline/rateLimits/postgresCounts.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { statementsDuring } from '../support/statements.js';

const FAILURES: PostgresLimit = { name: 'authfail', limit: 3, windowMs: 300_000, blockMs: 0 };
const ADDRESS = '203.0.113.9';

describe('key lookups by hash taken in turns', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.destroy();
  });
  const lookUpAtOnce = (apiKeys: string[]) =>
    statementsDuring(database.db, () =>
      Promise.all(apiKeys.map((apiKey) => findActiveApiKeyInTurns(database.db, hashApiKey(apiKey), new Date()))),
    );

  it('answers 10 lookups of one key sent at once with two statements (the first alone), each its own copy of the row', async () => {
    const { result, statements } = await lookUpAtOnce(Array(10).fill('demo-partner-key'));
    expect(statements).toHaveLength(2);
    expect(result.map((key) => key?.kind)).toEqual(Array(10).fill('partner'));
    expect(new Set(result.map((key) => key?.id)).size).toBe(1);
    expect(result[1]).not.toBe(result[2]);
  });

  it('takes each key in its own turns, and answers every lookup of an unknown key with none', async () => {
    const { result, statements } = await lookUpAtOnce([
      ...Array(3).fill('demo-partner-key'),
      ...Array(3).fill('demo-retail-key'),
      ...Array(3).fill('no-such-key'),
    ]);
    expect(statements).toHaveLength(6);
    expect(result.map((key) => key?.kind)).toEqual([
      ...Array(3).fill('partner'),
      ...Array(3).fill('retail'),
      ...Array(3).fill(undefined),
    ]);
  });

  it('keeps nothing between turns: a key revoked after one lookup is not found by the next', async () => {
    const hash = hashApiKey('other-retail-key');
    expect((await findActiveApiKeyInTurns(database.db, hash, new Date()))?.kind).toBe('retail');
    await database.db('api_keys').where({ key_hash: hash }).update({ revoked_at: new Date() });
    expect(await findActiveApiKeyInTurns(database.db, hash, new Date())).toBeUndefined();
  });
});

describe('counted key lookups taken in turns', () => {
  let database: TestDatabase;
  let counts: PostgresCounts;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.destroy();
  });
  beforeEach(async () => {
    await database.db(RATE_LIMIT_TABLE).delete();
    counts = new PostgresCounts(database.db);
  });

  /** `n` lookups of `apiKey` sent at once, with the statements they took. */
  const lookUpAtOnce = (n: number, requests: PostgresLimit, apiKey = 'demo-retail-key', address = ADDRESS) =>
    statementsDuring(database.db, () =>
      Promise.all(
        Array.from({ length: n }, () =>
          counts.lookUpAdmitting<{ id: string }>(
            database.db,
            activeKeyByHash(database.db, hashApiKey(apiKey), new Date()),
            FAILURES,
            address,
            requests,
          ),
        ),
      ),
    );
  const pointsOf = async (keyId: string, limit: PostgresLimit) =>
    (await database
      .db(RATE_LIMIT_TABLE)
      .where({ key: `${limit.name}:${keyId}` })
      .first()) as { points: number; expire: string } | undefined;

  it('counts 20 lookups sent at once in two statements (the first alone), each its own place in arrival order', async () => {
    const requests: PostgresLimit = { name: 'key', limit: 1000, windowMs: 60_000, blockMs: 60_000 };
    const { result, statements } = await lookUpAtOnce(20, requests);
    expect(statements).toHaveLength(2);
    const keyId = result[0]!.row!.id;
    expect(result.every((found) => found.row?.id === keyId)).toBe(true);
    expect(result.map((found) => found.admission)).toEqual(
      Array.from({ length: 20 }, (_, i) => ({
        blocked: false,
        count: { consumed: i + 1, msBeforeNext: expect.any(Number), allowed: true },
      })),
    );
    expect((await pointsOf(keyId, requests))?.points).toBe(20);
  });

  it('admits exactly the limit when a batch crosses it, and blocks the key for a whole block from then', async () => {
    const requests: PostgresLimit = { name: 'key', limit: 5, windowMs: 10_000, blockMs: 600_000 };
    const before = Date.now();
    const { result } = await lookUpAtOnce(12, requests);
    const allowed = result.map((found) => found.admission?.blocked === false && found.admission.count.allowed);
    expect(allowed).toEqual([...Array(5).fill(true), ...Array(7).fill(false)]);
    const row = await pointsOf(result[0]!.row!.id, requests);
    expect(row?.points).toBe(12);
    // The block's end, not the window's: a whole block from the crossing count.
    expect(Number(row?.expire)).toBeGreaterThanOrEqual(before + requests.blockMs);
  });

  it('starts an ended window afresh: the counts begin again at 1, and the batch that crosses the limit blocks the key', async () => {
    const requests: PostgresLimit = { name: 'key', limit: 3, windowMs: 10_000, blockMs: 600_000 };
    const first = await lookUpAtOnce(1, requests);
    const keyId = first.result[0]!.row!.id;
    await database
      .db(RATE_LIMIT_TABLE)
      .where({ key: `key:${keyId}` })
      .update({ points: 99, expire: Date.now() - 1 });
    const { result } = await lookUpAtOnce(6, requests);
    const consumed = result.map((found) =>
      found.admission?.blocked === false ? found.admission.count.consumed : null,
    );
    // The first alone, in a fresh window; then five together: 2 to 6, 2 and 3 within the limit.
    expect(consumed).toEqual([1, 2, 3, 4, 5, 6]);
    expect(Number((await pointsOf(keyId, requests))?.expire)).toBeGreaterThan(Date.now() + requests.windowMs);
  });

  it('takes other keys and other addresses in their own turns', async () => {
    const requests: PostgresLimit = { name: 'key', limit: 1000, windowMs: 60_000, blockMs: 60_000 };
    const { statements } = await statementsDuring(database.db, () =>
      Promise.all([
        lookUpAtOnce(3, requests, 'demo-retail-key'),
        lookUpAtOnce(3, requests, 'demo-partner-key'),
        lookUpAtOnce(3, requests, 'demo-retail-key', '198.51.100.7'),
      ]),
    );
    // Each of the three: its first alone, its other two together.
    expect(statements).toHaveLength(6);
  });

  it('counts nothing for a batch of a key no row has', async () => {
    const requests: PostgresLimit = { name: 'key', limit: 1000, windowMs: 60_000, blockMs: 60_000 };
    const { result, statements } = await lookUpAtOnce(4, requests, 'no-such-key');
    expect(statements).toHaveLength(2);
    expect(result).toEqual(Array(4).fill({ row: undefined, admission: null }));
    expect(Number((await database.db(RATE_LIMIT_TABLE).count({ n: '*' }).first())?.n)).toBe(0);
  });

  it('counts nothing for a batch from a blocked address: each is told how long the block lasts', async () => {
    const requests: PostgresLimit = { name: 'key', limit: 1000, windowMs: 60_000, blockMs: 60_000 };
    await database
      .db(RATE_LIMIT_TABLE)
      .insert({ key: `authfail:${ADDRESS}`, points: FAILURES.limit, expire: Date.now() + 60_000 });
    const { result } = await lookUpAtOnce(3, requests);
    expect(result.map((found) => found.admission?.blocked)).toEqual([true, true, true]);
    expect(await pointsOf(result[0]!.row!.id, requests)).toBeUndefined();
  });
});
