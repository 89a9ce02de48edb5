// The ledger and the event log, partitioned by month (docs/decisions.md 25): months made ahead once
// by many callers, stray rows moved out of the default partition without queuing deliveries twice,
// the ledger's unique rules across partitions, a window read from its months only, and ledger:check
// finding a delivery whose event is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMonths, ensureMonthsAhead, monthPartitions } from '../../src/db/partitions.js';
import { checkLedger } from '../../src/ledger/check.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { transactionsInWindowQuery } from '../../src/modules/transactions/queries.js';
import { fanOutCommittedEvents } from '../../src/modules/webhooks/fanOut.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.destroy());

const at = (iso: string) => new Date(iso);
const rows = async (sql: string, bindings: unknown[] = []) =>
  ((await database.db.raw(sql, bindings as never[])) as { rows: Array<Record<string, unknown>> }).rows;
const partitionOf = async (table: string, where: string, bindings: unknown[]) =>
  (await rows(`select tableoid::regclass::text as name from ${table} where ${where}`, bindings)).map((r) => r.name);
const demoPartner = async () => String((await database.db('partners').where({ name: 'Demo Retail' }).first()).id);

describe('monthly partitions', () => {
  it('are made once however many callers make them at the same time, the default partition beside them', async () => {
    const made = await Promise.all([
      ensureMonths(database.db, at('2030-01-15T00:00:00Z'), at('2030-03-01T00:00:00Z')),
      ensureMonths(database.db, at('2030-01-01T00:00:00Z'), at('2030-03-31T00:00:00Z')),
    ]);
    expect(made.flat().sort()).toEqual(
      ['events', 'transactions'].flatMap((t) => ['2030m01', '2030m02', '2030m03'].map((m) => `${t}_y${m}`)).sort(),
    );
    expect(await ensureMonths(database.db, at('2030-01-01T00:00:00Z'), at('2030-03-01T00:00:00Z'))).toEqual([]);
    const months = (await monthPartitions(database.db, 'events')).map((p) => p.name);
    expect(months).toEqual(expect.arrayContaining(['events_y2030m01', 'events_y2030m02', 'events_y2030m03']));
    expect(await rows("select to_regclass('events_default') as t, to_regclass('transactions_default') as u")).toEqual([
      { t: 'events_default', u: 'transactions_default' },
    ]);
  });

  it('keep the current month and three ahead', async () => {
    await ensureMonthsAhead(database.db, at('2031-11-20T00:00:00Z'));
    const names = (await monthPartitions(database.db, 'transactions')).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['2031m11', '2031m12', '2032m01', '2032m02'].map((m) => `transactions_y${m}`)),
    );
    expect(names).not.toContain('transactions_y2032m03');
  });

  it("take a month's rows out of the default partition when made late, queuing no delivery again", async () => {
    const partner = await demoPartner();
    await database.db('webhook_endpoints').insert({
      partner_id: partner,
      url: 'https://receiver.example/hook',
      event_types: ['payment.recorded'],
      format: 'standard',
      secret: 'whsec_dGVzdA==',
    });
    const [event] = await appendEvents(database.db, partner, [
      { type: 'payment.recorded', occurredAt: at('2033-05-10T00:00:00Z'), data: { stray: true } },
    ]);
    const deliveries = () => database.db('webhook_deliveries').where({ event_id: event!.id }).count({ n: '*' });
    await fanOutCommittedEvents(database.db, 1000); // the workers' relay
    expect(await deliveries()).toEqual([{ n: '1' }]);
    // A ledger row moved to a time no month covers goes to the default partition too.
    const [moved] = await rows(
      "update transactions set occurred_at = '2033-05-11T00:00:00Z' where id = (select min(id) from transactions) returning id",
    );
    expect(await partitionOf('events', 'id = ?', [event!.id])).toEqual(['events_default']);
    expect(await partitionOf('transactions', 'id = ?', [moved!.id])).toEqual(['transactions_default']);

    expect(await ensureMonths(database.db, at('2033-05-01T00:00:00Z'), at('2033-05-01T00:00:00Z'))).toEqual([
      'transactions_y2033m05',
      'events_y2033m05',
    ]);
    expect(await partitionOf('events', 'id = ?', [event!.id])).toEqual(['events_y2033m05']);
    expect(await partitionOf('transactions', 'id = ?', [moved!.id])).toEqual(['transactions_y2033m05']);
    // Moved with its mark: the relay does not fan it out again.
    expect((await fanOutCommittedEvents(database.db, 1000)).deliveries).toBe(0);
    expect(await deliveries()).toEqual([{ n: '1' }]);
    expect(await database.db('events').where({ id: event!.id }).pluck('data')).toEqual([{ stray: true }]);
  });

  it("keep the ledger's unique rules across partitions", async () => {
    const [cash] = await rows("select * from transactions where type = 'cash' limit 1");
    const [finance] = await rows("select * from transactions where type = 'finance' limit 1");
    for (const row of [cash!, finance!]) {
      const { id: _id, created_at: _created, ...copy } = row;
      const refused = await database
        .db('transactions')
        .insert(copy)
        .then(
          () => null,
          (error: { code?: string }) => error.code,
        );
      expect(refused, String(row.type)).toBe('23505'); // unique_violation
    }
    // At another time (which no writer uses: a cash transaction carries its payment's time) the
    // index, which holds occurred_at, cannot see the first: ledger:check does, across partitions.
    const { id: _id, created_at: _created, ...copy } = cash!;
    await database.db('transactions').insert({ ...copy, occurred_at: at('2030-02-02T00:00:00Z') });
    const { problems } = await checkLedger(database.db);
    expect(problems).toContainEqual(
      `one cash transaction of minus the amount per in-store payment: in-store payment ${cash!.payment_id} has 2 matching cash transactions instead of 1`,
    );
  });

  it('read a window from its months only', async () => {
    await ensureMonths(database.db, at('2034-01-01T00:00:00Z'), at('2034-04-01T00:00:00Z'), ['transactions']);
    const query = transactionsInWindowQuery(database.db, {
      partnerId: await demoPartner(),
      start: at('2034-02-01T00:00:00Z'),
      end: at('2034-03-01T00:00:00Z'),
      filters: [],
    }).toSQL();
    const plan = (await rows(`explain (costs off) ${query.sql}`, [...query.bindings]))
      .map((r) => String(r['QUERY PLAN']))
      .join('\n');
    expect(plan).toContain('transactions_y2034m02');
    expect(plan).not.toMatch(/transactions_(y2034m01|y2034m03|default)/);
  });

  it('leave ledger:check to find a webhook delivery whose event is gone', async () => {
    const partner = await demoPartner();
    const endpoint = await database.db('webhook_endpoints').where({ partner_id: partner }).first();
    await database.db('webhook_deliveries').insert({
      partner_id: partner,
      endpoint_id: endpoint.id,
      event_id: 'evt_00000000000000000000000000',
    });
    const { problems } = await checkLedger(database.db);
    expect(problems).toContainEqual(expect.stringMatching(/^every webhook delivery has its event: .*evt_0{26}/));
  });
});
