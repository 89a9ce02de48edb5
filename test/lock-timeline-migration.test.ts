// The lock timeline's migration on a database that already holds orders (the demo data set): its
// backfill gives each unpaid order the instants the service gives it, a lock already past recorded
// fired without an event, and a paid-off order none; going down removes the table and the device events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from './support/db.js';

const NAME = '20261127100300_lock_timeline';
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const timeline = async () =>
  (
    await database
      .db('lock_timeline')
      .orderBy(['partner_id', 'finance_order_id', 'due_at'])
      .select('partner_id', 'finance_order_id', 'kind', 'days_left', 'lock_at', 'due_at', 'state')
  ).map((row) => ({ ...row, lock_at: row.lock_at.getTime(), due_at: row.due_at.getTime() }));

describe('the lock timeline migration', () => {
  it('backfills the orders it finds as the demo loader made them, and writes no event', async () => {
    const loaded = await timeline();
    expect(loaded.length).toBeGreaterThan(0);
    const migration = MIGRATIONS[NAME]!;
    await migration.down!(database.db);
    expect(await database.db.schema.hasTable('lock_timeline')).toBe(false);
    const events = await database.db('events').count({ n: '*' }).first();
    await migration.up(database.db);
    expect(await timeline()).toEqual(loaded);
    expect(await database.db('events').count({ n: '*' }).first()).toEqual(events);
    // Demo order 4000012 was overdue: its lock fired (no event); 4000010 is paid off: nothing.
    const states = (order: string) =>
      database.db('lock_timeline').where({ finance_order_id: order }).select('kind', 'state');
    expect(await states('4000012')).toEqual([{ kind: 'lock', state: 'fired' }]);
    expect(await states('4000010')).toEqual([]);
  });
});
