import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db.js';
import { ensureMonths } from '../../db/partitions.js';
import { fanOutCommittedEvents } from '../webhooks/fanOut.js';
import { appendEvents } from './queries.js';
import { purgeExpiredEvents } from './retention.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

// Retention of 30 days from NOW: the horizon is 2027-02-13T12:00Z, inside February.
const NOW = new Date('2027-03-15T12:00:00Z');
const at = (iso: string) => new Date(iso);
const partnerId = async (name: string) => String((await database.db('partners').where({ name }).first()).id);
const exists = async (table: string) =>
  Boolean((await database.db.raw('select to_regclass(?) as oid', [table])).rows[0].oid);

/** An endpoint of the partner that hears every payment.recorded: each such event queues one delivery. */
async function endpointOf(partner: string): Promise<void> {
  await database.db('webhook_endpoints').insert({
    partner_id: partner,
    url: 'https://receiver.example/hook',
    event_types: ['payment.recorded'],
    format: 'standard',
    secret: 'whsec_dGVzdA==',
  });
}

beforeEach(async () => {
  await database.db('webhook_deliveries').delete();
  await database.db('events').delete();
  await ensureMonths(database.db, at('2027-01-01T00:00:00Z'), at('2027-03-01T00:00:00Z'), ['events']);
});

describe('purgeExpiredEvents', () => {
  it('drops the months wholly past the horizon and the strays before it, with their deliveries, whatever their partner', async () => {
    const demo = await partnerId('Demo Retail');
    const other = await partnerId('Other Retail');
    await endpointOf(demo);
    const written = await appendEvents(database.db, demo, [
      { type: 'payment.recorded', occurredAt: at('2027-01-20T00:00:00Z'), data: { month: 'january' } },
      // Older than the horizon, but February is not wholly past it: the month is kept.
      { type: 'payment.recorded', occurredAt: at('2027-02-05T00:00:00Z'), data: { month: 'february, expired' } },
      { type: 'payment.recorded', occurredAt: at('2027-02-20T00:00:00Z'), data: { month: 'february' } },
      // A time no month covers: the default partition, deleted row by row.
      { type: 'payment.recorded', occurredAt: at('2019-06-01T00:00:00Z'), data: { month: 'stray' } },
    ]);
    await appendEvents(database.db, other, [
      { type: 'transaction.created', occurredAt: at('2027-01-02T00:00:00Z'), data: {} },
    ]);
    await fanOutCommittedEvents(database.db, 100); // the workers' relay
    expect(await database.db('webhook_deliveries').count({ n: '*' })).toEqual([{ n: '4' }]);

    expect(await purgeExpiredEvents(database.db, NOW, 30)).toBe(3);
    expect(await exists('events_y2027m01')).toBe(false);
    expect(await exists('events_y2027m02')).toBe(true);
    const left = await database.db('events').orderBy('occurred_at').pluck('id');
    expect(left).toEqual([written[1]!.id, written[2]!.id]);
    const delivered = await database.db('webhook_deliveries').orderBy('event_id').pluck('event_id');
    expect(delivered).toEqual([written[1]!.id, written[2]!.id].sort());
    expect(await purgeExpiredEvents(database.db, NOW, 30)).toBe(0);
  });
});
