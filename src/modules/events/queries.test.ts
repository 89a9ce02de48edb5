import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { EVENT_ID } from './ids.js';
import { appendEvents } from './queries.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const partnerId = async (name: string) => String((await database.db('partners').where({ name }).first()).id);

describe('appendEvents', () => {
  it("numbers a change's events in the order given, each partner's numbers increasing", async () => {
    const demo = await partnerId('Demo Retail');
    const other = await partnerId('Other Retail');
    // The demo seed wrote each partner's first events: numbers go on from there.
    const last = async (partner: string) =>
      Number((await database.db('events').where({ partner_id: partner }).max({ n: 'sequence' }).first())?.n ?? 0);
    const [d, o] = [await last(demo), await last(other)];
    const at = new Date('2026-11-24T10:00:00Z');
    const first = await database.db.transaction((trx) =>
      appendEvents(trx, demo, [
        { type: 'payment.recorded', occurredAt: at, data: { n: 1 } },
        { type: 'transaction.created', occurredAt: at, data: { n: 2 } },
      ]),
    );
    const elsewhere = await appendEvents(database.db, other, [
      { type: 'finance_order.created', occurredAt: at, data: {} },
    ]);
    const second = await appendEvents(database.db, demo, [
      { type: 'finance_order.paid_off', occurredAt: at, data: { n: 3 } },
    ]);
    const numbers = (rows: { sequence: string }[]) => rows.map((row) => Number(row.sequence));
    // One sequence for every partner: a change's events follow each other; the other partner's took a number between.
    const [one, two] = numbers(first) as [number, number];
    expect(one).toBeGreaterThan(Math.max(d, o));
    expect(two).toBe(one + 1);
    expect(numbers(elsewhere)).toEqual([two + 1]);
    expect(numbers(second)).toEqual([two + 2]);
    expect(first.map((row) => row.data)).toEqual([{ n: 1 }, { n: 2 }]);
    for (const row of [...first, ...second, ...elsewhere]) expect(row.id).toMatch(EVENT_ID);
    expect(new Set([...first, ...second].map((row) => row.id)).size).toBe(3);
  });

  it('writes nothing when the change is rolled back; the next event still numbers after every earlier one', async () => {
    const demo = await partnerId('Demo Retail');
    const at = new Date();
    const count = async () =>
      Number((await database.db('events').where({ partner_id: demo }).count({ n: '*' }).first())?.n);
    const before = await count();
    const highest = async () =>
      Number((await database.db('events').where({ partner_id: demo }).max({ n: 'sequence' }).first())?.n ?? 0);
    const highestBefore = await highest();
    await expect(
      database.db.transaction(async (trx) => {
        await appendEvents(trx, demo, [{ type: 'payment.recorded', occurredAt: at, data: {} }]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toBe(before);
    const [next] = await appendEvents(database.db, demo, [{ type: 'payment.recorded', occurredAt: at, data: {} }]);
    expect(Number(next!.sequence)).toBeGreaterThan(highestBefore);
    expect(await count()).toBe(before + 1);
  });
});
