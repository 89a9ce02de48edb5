// The driver's values on this backend (the embedded database, or Postgres with TEST_DATABASE_URL):
// every timestamptz the service reads becomes the Date it names, in any offset, with microseconds
// cut to milliseconds, the years 0 to 99 included (PGlite's own parser made them 1900 to 1999), and
// the infinities stay numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/db.js';

describe('timestamptz values', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase({ migrate: false, seed: false });
  });
  afterAll(() => test.destroy());

  it('are read as the instant they name, whatever the session shows them in', async () => {
    // Date.UTC reads the years 0 to 99 as 1900 to 1999, so the year 99 is set on its own.
    const year99 = new Date(Date.UTC(2000, 5, 30, 12));
    year99.setUTCFullYear(99);
    const cases: Array<[string, number]> = [
      ['2026-11-25 03:44:00+00', Date.UTC(2026, 10, 25, 3, 44, 0)],
      ['2026-11-25 03:44:00.123456+00', Date.UTC(2026, 10, 25, 3, 44, 0, 123)],
      ['2026-11-25 09:14:00.5+05:30', Date.UTC(2026, 10, 25, 3, 44, 0, 500)],
      ['1970-01-01 00:00:00+00', 0],
      ['0099-06-30 12:00:00+00', year99.getTime()],
    ];
    for (const [text, epochMs] of cases) {
      const { rows } = await test.db.raw('select ?::timestamptz as at', [text]);
      expect(rows[0].at, text).toBeInstanceOf(Date);
      expect((rows[0].at as Date).getTime(), text).toBe(epochMs);
    }
  });

  it('keep the infinities as numbers, as the drivers give them', async () => {
    const { rows } = await test.db.raw(`select 'infinity'::timestamptz as late, '-infinity'::timestamptz as early`);
    expect(rows[0]).toEqual({ late: Number.POSITIVE_INFINITY, early: Number.NEGATIVE_INFINITY });
  });
});
