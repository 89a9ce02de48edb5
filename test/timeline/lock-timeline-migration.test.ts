// The lock timeline's migration on a database that already holds orders (the demo data set): its
// backfill gives each unpaid order the instants the service gives it, a lock already past recorded
// fired without an event, and a paid-off order none; going down removes the table and the device events.
// The timeline-exact migration cuts instants held to the millisecond to their second, and allows a
// stored EXPIRED reference (turned back to OPEN going down).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/db/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

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

describe('the timeline, exact (decisions.md 37)', () => {
  const EXACT = MIGRATIONS['20261128210400_timeline_exact']!;

  it('cuts the instants held to the millisecond to their second, fire_at by as much; down turns a stored EXPIRED back to OPEN', async () => {
    const db = database.db;
    const [pending] = await db('lock_timeline').where({ state: 'pending', kind: 'lock' }).orderBy('id').limit(1);
    const ms = (row: { lock_at: Date; due_at: Date; fire_at: Date }) =>
      [row.lock_at, row.due_at, row.fire_at].map((at) => at.getTime());
    await db('lock_timeline')
      .where({ partner_id: pending.partner_id, id: pending.id })
      .update({
        lock_at: db.raw(`lock_at + interval '400 milliseconds'`),
        due_at: db.raw(`due_at + interval '400 milliseconds'`),
        fire_at: db.raw(`fire_at + interval '400 milliseconds'`),
      });
    await EXACT.down!(db);
    await EXACT.up(db);
    const [cut] = await db('lock_timeline').where({ partner_id: pending.partner_id, id: pending.id });
    expect(ms(cut)).toEqual(ms(pending));

    const [order] = await db('finance_orders').where({ partner_id: pending.partner_id }).limit(1);
    const reference = {
      partner_id: order.partner_id,
      code: '0000000AB',
      finance_order_id: order.id,
      amount_minor: 100,
      currency: order.currency,
      days_paid: 1,
      status: 'EXPIRED',
      expires_at: new Date(),
      created_at: new Date(),
    };
    await db('payment_references').insert(reference);
    await EXACT.down!(db);
    expect((await db('payment_references').where({ code: reference.code }).first()).status).toBe('OPEN');
    await expect(
      db('payment_references').where({ code: reference.code }).update({ status: 'EXPIRED' }),
    ).rejects.toThrow(/payment_references_status_known/);
    await EXACT.up(db);
    await db('payment_references').where({ code: reference.code }).update({ status: 'EXPIRED' });
  });
});
