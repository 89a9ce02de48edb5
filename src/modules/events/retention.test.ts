import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { appendEvents } from './queries.js';
import { purgeExpiredEvents, scheduleEventRetention } from './retention.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const NOW = new Date('2027-03-01T12:00:00Z');
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const partnerId = async (name: string) => String((await database.db('partners').where({ name }).first()).id);

describe('purgeExpiredEvents', () => {
  it('deletes the events older than the retention and keeps the rest, whatever their partner', async () => {
    const demo = await partnerId('Demo Retail');
    const other = await partnerId('Other Retail');
    await database.db('events').delete();
    const written = await appendEvents(database.db, demo, [
      { type: 'payment.recorded', occurredAt: daysBefore(31), data: { age: 31 } },
      { type: 'payment.recorded', occurredAt: daysBefore(29), data: { age: 29 } },
    ]);
    await appendEvents(database.db, other, [{ type: 'transaction.created', occurredAt: daysBefore(40), data: {} }]);
    expect(await purgeExpiredEvents(database.db, NOW, 30)).toBe(2);
    const left = await database.db('events').select('id', 'data');
    expect(left).toEqual([{ id: written[1]!.id, data: { age: 29 } }]);
    expect(await purgeExpiredEvents(database.db, NOW, 30)).toBe(0);
  });

  it('is run at once by the schedule, which stops on demand', async () => {
    const demo = await partnerId('Demo Retail');
    await appendEvents(database.db, demo, [{ type: 'payment.recorded', occurredAt: daysBefore(3), data: {} }]);
    const errors: unknown[] = [];
    const schedule = scheduleEventRetention(database.db, {
      days: 2,
      now: () => NOW,
      onError: (error) => errors.push(error),
    });
    await schedule.stop();
    expect(errors).toEqual([]);
    const left = await database.db('events').where('occurred_at', '<', daysBefore(2)).count({ n: '*' }).first();
    expect(Number(left?.n)).toBe(0);
  });
});
