// SQL round trips of GET /v1/lookup-customer.php (issue "Speed"): a lookup's cost is dominated by its
// statements, so their number is pinned, per locator kind. Before: 7 by IMEI, tag or phone, 8 by
// customer id (the key; the directory by IMEI, then by tag; the device; the customer, or the
// customer by phone, then by id; the orders; the payments; the order's device; by phone or id the
// device's orders again). Now 4 for every kind: the key, every locator rule in one statement, the
// orders with their devices in one, the payments. The bench's bare lookup (bench/baseline-lookup.ts)
// runs the same, and the last suite here pins that it keeps doing so.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { lookupCustomer } from '../../bench/baseline-lookup.js';
import { DEMO_DEVICE_IMEI, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { insertDevice } from '../../src/modules/devices/queries.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { statementsDuring, withoutRequestLimits } from '../support/statements.js';

const fixture = useSeededService();

/** The SQL statements one request sends, and its answer. */
async function statementsOf(
  send: () => Promise<{ status: number; body: any }>,
): Promise<{ sql: string[]; status: number; body: any }> {
  const { result, statements } = await statementsDuring(fixture.database.db, send);
  return { ...result, sql: statements.map((statement) => statement.sql) };
}

function lookup(locator: string, key = 'demo-partner-key') {
  return statementsOf(async () => {
    const response = await fixture.service.request(
      `/v1/lookup-customer.php?key=${key}&customerLocator=${encodeURIComponent(locator)}`,
    );
    return { status: response.status, body: await response.json() };
  });
}

function graphql(query: string, key: string, variables?: Record<string, unknown>) {
  return statementsOf(() => fixture.service.graphql(query, { 'x-api-key': key }, variables));
}

const partnerIdOf = async (name: string): Promise<string> =>
  (await fixture.database.db('partners').where({ name }).first()).id;

describe('lookup-customer round trips', () => {
  it.each([
    ['an IMEI', DEMO_DEVICE_IMEI, 4000005, Number(DEMO_ORDER_ID)],
    ['a device tag', 'DTSTBBD', 4000007, 4000012],
    ['a phone number', '5512345679', 4000006, 4000010],
    ['a customer id', '4000007', 4000007, 4000012],
  ])(
    'by %s: 4 statements (the key, the customer, the orders with their devices, the payments)',
    async (_kind, locator, customerId, orderId) => {
      const { sql, status, body } = await lookup(locator);
      expect(status).toBe(200);
      expect(body.customer.id).toBe(customerId);
      expect(body.financeOrder.id).toBe(orderId);
      expect(body.device.imei).toMatch(/^[0-9]{15}$/);
      expect(sql).toHaveLength(4);
      expect(sql[0]).toContain('"api_keys"');
      expect(sql[3]).toContain('"payments"');
    },
  );

  it.each([
    ['that matches nothing', 'nobody'],
    ['of another partner', 'DTSTBBE'],
    ['shaped like an IMEI, of another partner', '123456789012370'],
  ])('a locator %s: 404 after 2 statements (the key, the customer)', async (_kind, locator) => {
    const { sql, status } = await lookup(locator);
    expect(status).toBe(404);
    expect(sql).toHaveLength(2);
  });
});

// The one locating statement must keep decisions.md 8: IMEI, then tag, then phone, then id, the
// first rule that finds a customer winning; and refuse a phone or id of customers of several
// partners (operators search every partner). These change the data, so they run last.
describe('one statement keeps the locator rules', () => {
  it("a device without orders, found by its IMEI, gives its customer's current order, in the same 4 statements", async () => {
    const partnerId = await partnerIdOf('Demo Retail');
    await insertDevice(fixture.database.db, {
      partner_id: partnerId,
      customer_id: '4000005',
      model_id: '3',
      tag: 'NO-ORDER-TAG',
      imei: '490154203237518',
      sim_number: null,
      phone_number: null,
      description: null,
    });
    const { sql, status, body } = await lookup('490154203237518');
    expect(status).toBe(200);
    expect(body.customer.id).toBe(4000005);
    expect(body.financeOrder.id).toBe(Number(DEMO_ORDER_ID));
    expect(body.device.imei).toBe(DEMO_DEVICE_IMEI);
    expect(sql).toHaveLength(4);
  });

  it('an IMEI rule wins over a tag, a tag over a phone number, a phone number over an id', async () => {
    const partnerId = await partnerIdOf('Demo Retail');
    // Device tags that are another device's IMEI, another customer's phone number, another customer's id.
    const device = (tag: string, imei: string, customerId: string) =>
      insertDevice(fixture.database.db, {
        partner_id: partnerId,
        customer_id: customerId,
        model_id: '3',
        tag,
        imei,
        sim_number: null,
        phone_number: null,
        description: null,
      });
    await device('123456789012354', '490154203237526', '4000005');
    await device('5512345680', '490154203237534', '4000005');
    const [phoneLikeAnId] = await fixture.database
      .db('customers')
      .insert({ partner_id: partnerId, name: 'Phone Like An Id', phone_number: '4000006' })
      .returning('id');
    const found = async (locator: string) =>
      (await graphql('query($l: String!) { customer(locator: $l) { id } }', 'demo-partner-key', { l: locator })).body
        .data.customer?.id;
    expect(await found('123456789012354')).toBe('4000006'); // the IMEI of 4000006's device, not the tag of 4000005's
    expect(await found('5512345680')).toBe('4000005'); // the tag of 4000005's device, not 4000007's phone number
    expect(await found('4000006')).toBe(phoneLikeAnId.id); // the new customer's phone number, not customer 4000006
  });

  it('refuses a phone number or an id of customers of several partners to an operator, after 2 statements', async () => {
    const otherPartnerId = await partnerIdOf('Other Retail');
    await fixture.database.db('customers').insert([
      { partner_id: otherPartnerId, name: 'Same Phone', phone_number: '14084930580' },
      { partner_id: otherPartnerId, id: '4000007', name: 'Same Id', phone_number: '5215550000099' },
    ]);
    for (const [locator, rule] of [
      ['14084930580', 'phone number'],
      ['4000007', 'id'],
    ]) {
      const { sql, body } = await graphql('query($l: String!) { customer(locator: $l) { id } }', 'demo-operator-key', {
        l: locator,
      });
      expect(body.errors?.[0]?.extensions?.code, locator).toBe('INVALID_ARGUMENT');
      expect(body.errors[0].message).toContain(`matches customers of several partners by ${rule}`);
      expect(sql).toHaveLength(2);
    }
    // A partner key sees its own customer only: no refusal.
    expect((await lookup('14084930580')).body.customer.id).toBe(4000005);
    expect((await lookup('4000007')).body.customer.id).toBe(4000007);
  });
});

// bench/baseline-lookup.ts is the floor the bench holds the service's lookups against: it must send
// what the service sends, statement for statement and in the same text, or the ratio measures a
// different piece of work. It runs on pg against the same database (Postgres only: it is `pg`).
describe.skipIf(!onPostgres)('the bench baseline of lookup-customer', () => {
  it.each([
    ['an IMEI', DEMO_DEVICE_IMEI],
    ['a device tag', 'DTSTBBD'],
    ['a phone number', '5512345679'],
    ['a customer id', '4000007'],
  ])('by %s: sends the statements the service sends and answers the same figures', async (_kind, locator) => {
    const service = await lookup(locator);
    const pool = new pg.Pool({ connectionString: fixture.database.url!, max: 1 });
    const sql: string[] = [];
    try {
      const bare = await lookupCustomer(
        {
          query: (statement) => {
            sql.push(statement.text);
            return pool.query(statement);
          },
        },
        { key: 'demo-partner-key', customerLocator: locator },
      );
      expect(bare.status).toBe(200);
      expect(sql).toEqual(withoutRequestLimits(service.sql));
      const body = bare.body as typeof service.body;
      expect(Object.keys(body).sort()).toEqual(Object.keys(service.body).sort());
      expect(body.customer.id).toBe(service.body.customer.id);
      expect(body.financeOrder.id).toBe(service.body.financeOrder.id);
      expect(body.financeOrder.remainingBalance).toBe(service.body.financeOrder.remainingBalance);
      expect(body.device.imei).toBe(service.body.device.imei);
    } finally {
      await pool.end();
    }
  });
});
