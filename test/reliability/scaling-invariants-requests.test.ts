// What lets the service be sharded by partner (docs/operating.md#scaling), proven from the statements
// the service sends ((a) and (b), from the schema, are test/reliability/scaling-invariants.test.ts):
//   (c) every SQL statement a partner request sends pins partner_id for every tenant table it reads
//       or writes (so it can be routed to one shard): checked on the statements actually captured
//       while the demo service answers every partner REST endpoint;
//   (d) a vendor notification, which names no partner, reaches its device through the global
//       device_directory in one lookup, and every later statement pins the partner found there.
// The Citus suite runs this file against the cluster too: there each statement, EXPLAINed by Citus
// with its values, must plan as one task (one shard of one worker), or, the notification's record
// being a reference table's (decisions.md 49), one task copied to every node.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { CHECKIN_PATH, demoCheckIn } from '../support/checkins.js';
import { explainTasks, onCitus } from '../support/citus.js';
import { useSeededService } from '../support/fixtures.js';
import { partnerScope } from '../support/partnerScope.js';
import { readScopeTables, type ScopeTables } from '../support/shardCatalogue.js';
import { type SentStatement, statementsDuring } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const db = (): Db => fixture.database.db;

// ---------------------------------------------------------------------------------------------------
// Capturing what the service sends.

interface Exchange {
  status: number;
  statements: string[];
  sent: SentStatement[];
}

async function captured(work: () => Promise<Response>): Promise<Exchange> {
  const { result, statements } = await statementsDuring(db(), async () => {
    const response = await work();
    await response.text();
    return response.status;
  });
  return { status: result, statements: statements.map((statement) => statement.sql), sent: statements };
}

/** A vendor notification's one write: Citus splits it and commits it in two phases, as decided (decisions.md 49). */
const NOTIFICATION_WRITE = /^with "credited" as \(/;

/** On Citus, the statements of the exchange whose plan is not one task, with their task counts; none elsewhere. */
async function notOneTask(exchange: Exchange): Promise<Array<{ sql: string; counts: number[] }>> {
  if (!onCitus) return [];
  const planned = await explainTasks(fixture.database.url!, exchange.sent);
  expect(planned.length, 'statements planned by Citus').toBeGreaterThan(0);
  return planned.filter(({ counts }) => counts.some((count) => count !== 1));
}

let scopeTables: ScopeTables | undefined;
async function scopeCatalogue(): Promise<ScopeTables> {
  scopeTables ??= await readScopeTables(db());
  return scopeTables;
}

/** Every statement's problems, and the tenant and other tables the exchange touched. */
async function audit(exchange: Exchange) {
  const catalogue = await scopeCatalogue();
  const problems: string[] = [];
  const tenant = new Set<string>();
  const global = new Set<string>();
  const sequences = new Set<string>();
  for (const sql of exchange.statements) {
    const scope = partnerScope(sql, catalogue);
    // A sequence read in a statement on tenant tables: a distributed Postgres must evaluate it on the coordinator.
    if (scope.tenantTables.length)
      for (const [, sequence] of sql.matchAll(/\bnextval\(\s*'([^']+)'/gi)) sequences.add(sequence!);
    for (const problem of scope.problems) problems.push(`${problem}: ${sql}`);
    for (const table of scope.tenantTables) tenant.add(table);
    for (const table of scope.tables) if (!catalogue.tenant.has(table)) global.add(table);
    // A statement naming no table must be one the checker knows to be tableless, not one it misread.
    if (
      scope.tables.length === 0 &&
      !/^(begin|commit|rollback|select pg_advisory_xact_lock\(|select pg_notify\()/i.test(sql.trim())
    ) {
      problems.push(`names no table the checker recognises: ${sql}`);
    }
  }
  return { problems, tenant: [...tenant].sort(), global: [...global].sort(), sequences: [...sequences] };
}

// ---------------------------------------------------------------------------------------------------
// The partner endpoints, with every locator kind and every payment path. Ids from the demo data set.
const WINDOW = 'starttime=1749513600&endtime=1781136000';
const PARTNER_REQUESTS: Array<{ name: string; path: string; headers?: Record<string, string>; status?: number }> = [
  { name: 'list-clerks', path: '/v1/list-clerks.php?key=demo-partner-key' },
  { name: 'list-merchants', path: '/v1/list-merchants.php?key=demo-retail-key' },
  {
    name: 'lookup-customer by IMEI',
    path: `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
  },
  {
    name: 'lookup-customer by device tag',
    path: `/v1/lookup-customer.php?key=demo-retail-key&customerLocator=${DEMO_DEVICE_TAG}&fields=device.description`,
  },
  { name: 'lookup-customer by phone', path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=5512345679' },
  {
    name: 'lookup-customer by customer id',
    path: '/v1/lookup-customer.php?key=demo-retail-key&customerLocator=4000007',
  },
  {
    name: 'lookup-customer, not found (every rule tried)',
    path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=999999999999999',
    status: 404,
  },
  {
    name: "lookup-customer, another partner's IMEI",
    path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=123456789012370',
    status: 404,
  },
  {
    name: 'lookup-cart, every field',
    path: `/v1/lookup-cart.php?key=demo-partner-key&cartTag=${DEMO_CART_TAG}&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description`,
  },
  { name: 'list-transactions', path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}` },
  {
    name: 'list-transactions, device filter',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=device.imei:${DEMO_DEVICE_IMEI}`,
  },
  {
    name: 'list-transactions, order and merchant filters',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=financeOrder.id:${DEMO_ORDER_ID}&filter=merchant.name:DEMO`,
  },
  {
    name: 'list-transactions, clerk and payment filters',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=salesClerk.name:DemoClerk1&filter=payment.amount:18`,
  },
  {
    name: 'list-transactions, adjustment and amount filters',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=adjustment.type:payment&filter=amount:-18`,
  },
  ...(['scaling-1', 'scaling-1', undefined] as const).map((key, i) => ({
    name: `record-customer-payment ${key ? (i === 0 ? 'with a new Idempotency-Key' : 'replayed') : 'without an Idempotency-Key'}`,
    path: `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=1.00&currency=USD`,
    headers: key ? { 'idempotency-key': key } : undefined,
  })),
  {
    name: "record-customer-payment, another partner's order",
    path: `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=5000002&amount=1.00&currency=USD`,
    status: 404,
  },
];

/**
 * Global tables a partner request may read: the key lookup and the device directory (global by
 * design), the catalogue, and on Postgres the request limits' counts (by key and by address, no
 * partner: they ride on the key's statement, src/pipeline/rateLimits/postgresCounts.ts).
 */
const GLOBAL_READS_OF_PARTNER_REQUESTS = [
  'api_keys',
  'rate_limits',
  'device_directory',
  'device_families',
  'device_models',
  'partners',
];

describe('(c) every statement of a partner request pins partner_id for each tenant table', () => {
  const touched = new Set<string>();
  const sequencesRead = new Set<string>();

  // Sequential on purpose: the payment requests depend on each other (new key, then its replay).
  for (const request of PARTNER_REQUESTS) {
    it(request.name, async () => {
      const exchange = await captured(() => fixture.service.request(request.path, { headers: request.headers ?? {} }));
      expect(exchange.status).toBe(request.status ?? 200);
      const { problems, tenant, global, sequences } = await audit(exchange);
      for (const table of tenant) touched.add(table);
      for (const sequence of sequences) sequencesRead.add(sequence);
      expect(problems).toEqual([]);
      expect(await notOneTask(exchange)).toEqual([]);
      expect(tenant.length, 'the request read a tenant table').toBeGreaterThan(0);
      // The auth key lookup (api_keys by hash) and device_directory lookups are global by design:
      // a key or an IMEI names its partner, the directory is one unique-index lookup.
      expect(global.filter((table) => !GLOBAL_READS_OF_PARTNER_REQUESTS.includes(table))).toEqual([]);
    });
  }

  it('between them, they read no sequence in a statement on tenant tables but the two named (decisions.md 48)', () => {
    // The event log's global order and the in-store payment's id, both read on the payment's path: named
    // here so that no other appears unseen; each is settled when the payment moves to Citus.
    expect([...sequencesRead].sort()).toEqual(['events_sequence', 'payments_id_seq']);
  });

  it('between them, the requests touched every tenant table a partner request can reach', () => {
    // A payment writes its events (the event log), pinned to the partner like every other write.
    expect([...touched].sort()).toEqual([
      'adjustments',
      'carts',
      'clerks',
      'customers',
      // A payment reads its device's live credential and moves its unlock counter (decisions.md 21).
      'device_credentials',
      'devices',
      'events',
      'finance_orders',
      'idempotency_keys',
      'lock_timeline',
      'merchants',
      'payments',
      'transactions',
    ]);
  });
});

describe('(d) a vendor notification finds its device without visiting every shard', () => {
  let token = '';
  const notify = async (locator: Record<string, unknown>, reference: string) => {
    if (!token) {
      const response = await fixture.service.request('/payments/v1/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
      });
      token = ((await response.json()) as { data: { access_token: string } }).data.access_token;
    }
    const body = { paymentVendor: 'demo-vendor', amount: '1.00', currency: 'USD', reference, ...locator };
    return captured(() =>
      fixture.service.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }),
    );
  };

  for (const [name, locator] of [
    ['device tag', { deviceTag: 'DTSTBBD' }],
    ['IMEI', { imei: DEMO_DEVICE_IMEI }],
  ] as const) {
    it(`by ${name}: one device_directory lookup, then every statement pins the partner found`, async () => {
      const exchange = await notify(locator, `scaling-${name}`);
      expect(exchange.status).toBe(200);
      expect((await audit(exchange)).problems).toEqual([]);
      expect((await notOneTask(exchange)).filter(({ sql }) => !NOTIFICATION_WRITE.test(sql))).toEqual([]);
      const directory = exchange.statements.filter((sql) => /"device_directory"/.test(sql));
      expect(directory).toHaveLength(1);
      expect(directory[0]).toMatch(/where "(imei|tag)" = \$1/);
    });
  }

  // A phone number or a finance order id has its own global directory (migration 000900).
  it.each([
    ['phone number', { phoneNumber: '14084930580' }, 'customer_phone_directory', /where "phone_number" = \$1/],
    ['finance order id', { financeOrderId: DEMO_ORDER_ID }, 'finance_order_directory', /where "id" = \$1/],
  ] as const)(
    'by %s: one directory lookup, then every statement pins the partner found',
    async (name, locator, directoryTable, lookup) => {
      const exchange = await notify(locator, `scaling-${name}`);
      expect(exchange.status).toBe(200);
      expect((await audit(exchange)).problems).toEqual([]);
      expect((await notOneTask(exchange)).filter(({ sql }) => !NOTIFICATION_WRITE.test(sql))).toEqual([]);
      const directory = exchange.statements.filter((sql) => sql.includes(`"${directoryTable}"`));
      expect(directory).toHaveLength(1);
      expect(directory[0]).toMatch(lookup);
    },
  );

  // A payment reference's code is unique across partners through its own directory (decisions.md 48).
  it('by payment reference: one directory lookup, then the reference locked pinned to the partner found', async () => {
    const { body } = await fixture.service.graphql(
      'mutation ($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { code amount } }',
      { 'x-api-key': 'demo-partner-key' },
      { input: { financeOrderId: DEMO_ORDER_ID, amount: '1.00' } },
    );
    expect(body.errors).toBeUndefined();
    const exchange = await notify(
      { paymentReference: body.data.createPaymentReference.code, deviceTag: DEMO_DEVICE_TAG },
      'scaling-reference',
    );
    expect(exchange.status).toBe(200);
    expect((await audit(exchange)).problems).toEqual([]);
    expect((await notOneTask(exchange)).filter(({ sql }) => !NOTIFICATION_WRITE.test(sql))).toEqual([]);
    const directory = exchange.statements.filter((sql) => sql.includes('"payment_reference_directory"'));
    expect(directory).toHaveLength(1);
    expect(directory[0]).toMatch(/where "code" = \$1/);
    expect(
      exchange.statements.filter((sql) => /for update/i.test(sql) && sql.includes('"payment_references"')),
    ).toEqual([expect.stringMatching(/where "partner_id" = \$1 and "code" = \$2/)]);
  });
});

describe('(e) a device check-in finds its credential in one directory lookup, then pins its partner', () => {
  const OPERATOR = { 'x-api-key': 'demo-operator-key' };
  const operator = async (query: string, variables: Record<string, unknown>) => {
    const { body } = await fixture.service.graphql(query, OPERATOR, variables);
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const checkIn = (credential: string, acknowledged: string[]) =>
    captured(() => fixture.service.request(CHECKIN_PATH, demoCheckIn(credential, acknowledged)));

  it('a logged check-in, then one that acknowledges a command: every statement pinned, each one task on Citus', async () => {
    const { device } = await operator('query($t: String!) { device(tag: $t) { id } }', { t: DEMO_DEVICE_TAG });
    const { issueDeviceCredential } = await operator(
      'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }',
      { id: device.id },
    );
    const { sendDeviceCommand } = await operator(
      'mutation($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { id } }',
      { input: { deviceId: device.id, type: 'SHOW_MESSAGE', message: 'Your payment is due on Friday' } },
    );
    // The first carries the command (and is the hour's logged one), the second acknowledges it.
    for (const acknowledged of [[], [sendDeviceCommand.id]]) {
      const exchange = await checkIn(issueDeviceCredential.credential, acknowledged);
      expect(exchange.status).toBe(200);
      const { problems, tenant, global } = await audit(exchange);
      expect(problems).toEqual([]);
      expect(tenant).toContain('devices');
      expect(global).toEqual(['device_credential_directory']);
      expect(exchange.statements.filter((sql) => sql.includes('"device_credential_directory"'))).toHaveLength(1);
      expect(await notOneTask(exchange)).toEqual([]);
    }
  });
});
