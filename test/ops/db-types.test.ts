// One JSON for both databases starts here: PGlite and pg return the same JavaScript types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase({ migrate: false, seed: false });
});
afterAll(async () => database?.destroy());

describe(`value normalisation`, () => {
  it('gives int8 and numeric as exact strings, date as text, timestamptz as Date', async () => {
    const { rows } = await database.db.raw(
      "select 9007199254740993::int8 as big, 1.50::numeric as decimal, '2026-01-02'::date as day, '2026-01-02T03:04:05Z'::timestamptz as at, 7::int4 as small, count(*) as n from (values (1)) v",
    );
    const row = rows[0];
    expect(row.big).toBe('9007199254740993'); // past 2^53: a JS number would have lost the last digit
    expect(row.decimal).toBe('1.50');
    expect(row.day).toBe('2026-01-02');
    expect(row.at).toBeInstanceOf(Date);
    expect(row.at.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(row.small).toBe(7);
    expect(row.n).toBe('1');
  });
});
