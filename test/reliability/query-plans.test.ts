// Query plans of the service's hot queries on the large data set's shape: the
// bench generator (the same function as npm run bench:data) fills a fresh Postgres database at a
// reduced size, ANALYZE gives the planner its statistics, and EXPLAIN of every hot query, built by
// the service's own query functions, must not read a whole large table (no Seq Scan on it).
// Postgres only: PGlite's planner and statistics are not the production ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { BENCH_END, generateBenchData } from '../../src/fixtures/benchData.js';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import { activeKeyByHash, findActiveApiKeyById } from '../../src/modules/auth/queries.js';
import { portfolioSums } from '../../src/modules/book/figures.js';
import { snapshotsBetween, writeDueSnapshots } from '../../src/modules/book/snapshots.js';
import { cartByTag, cartsByKeys } from '../../src/modules/carts/queries.js';
import { clerksByKeys } from '../../src/modules/clerks/queries.js';
import { locateCustomer } from '../../src/modules/customers/locate.js';
import {
  customersByKeys,
  customersPrecede,
  findCustomersByPhone,
  listCustomers,
} from '../../src/modules/customers/queries.js';
import {
  devicesByKeys,
  devicesOfCustomers,
  devicesPrecede,
  findDevice,
  listDevices,
} from '../../src/modules/devices/queries.js';
import type { DeviceListing } from '../../src/modules/devices/rows.js';
import { type EventPosition, eventById, eventsPrecede, listEvents } from '../../src/modules/events/queries.js';
import { purgeExpiredEvents } from '../../src/modules/events/retention.js';
import type { EventTypeName } from '../../src/modules/events/rows.js';
import {
  financeOrderById,
  financeOrdersAroundCustomers,
  financeOrdersByKeys,
  financeOrdersOfCarts,
  financeOrdersOfCustomers,
  financeOrdersOfDevices,
  financeOrdersPrecede,
  findFinanceOrderOwner,
  listFinanceOrders,
  lockFinanceOrder,
} from '../../src/modules/financeOrders/queries.js';
import type { ListingWindow, OrderFilters } from '../../src/modules/financeOrders/rows.js';
import { merchantsByKeys } from '../../src/modules/merchants/queries.js';
import { DEFAULT_PARTNER_SETTINGS } from '../../src/modules/partners/settings.js';
import { purgeExpiredIdempotencyKeys } from '../../src/modules/payments/keyRetention.js';
import {
  inStoreCreditStatement,
  inStorePaymentFacts,
  paymentsByKeys,
  paymentsOfOrders,
} from '../../src/modules/payments/queries.js';
import { claimSql } from '../../src/modules/timeline/claim.js';
import { nextLockAtOf } from '../../src/modules/timeline/queries.js';
import { parseFilterTerms } from '../../src/modules/transactions/filters.js';
import { transactionsInWindowQuery, transactionsPrecede } from '../../src/modules/transactions/queries.js';
import type { LinkColumns } from '../../src/modules/transactions/rows.js';
import { claimDueDeliveries, queueDepth } from '../../src/modules/webhooks/queue.js';
import { PostgresCounts } from '../../src/pipeline/rateLimits/postgresCounts.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';

const CUSTOMERS = 5000;
const LARGE_TABLES = new Set([
  'customers',
  'devices',
  'finance_orders',
  'payments',
  'transactions',
  'device_directory',
  'carts',
  'idempotency_keys',
  'vendor_notifications',
  'api_keys',
  'events',
  'webhook_deliveries',
]);
const DAY_MS = 86_400_000;

interface Captured {
  sql: string;
  bindings: readonly unknown[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** A node of EXPLAIN (ANALYZE, BUFFERS): what it returned, dropped and touched. */
interface AnalyzedNode extends PlanNode {
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: AnalyzedNode[];
}

/** The scans of `table` in an analyzed plan: their kind, the rows each read (kept or dropped), the pages it touched. */
function scansOf(node: AnalyzedNode, table: string, found: Array<{ type: string; rows: number; blocks: number }> = []) {
  if (node['Relation Name'] === table && node['Node Type'] !== 'ModifyTable') {
    const read =
      node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
    found.push({
      type: node['Node Type'],
      rows: read * node['Actual Loops'],
      blocks: node['Shared Hit Blocks'] + node['Shared Read Blocks'],
    });
  }
  for (const child of node.Plans ?? []) scansOf(child, table, found);
  return found;
}

const OTHER_PARTNER = 3;

/**
 * Idempotency-Key records as a busy service holds them at `expiredAt`: expired ones of several
 * partners (the paying partner's too, and the payment's own key's), and the paying partner's live ones.
 */
async function addExpiredKeys(db: Db, expiredAt: Date): Promise<void> {
  await db('partners').insert({ id: OTHER_PARTNER, name: 'Query Plans Retail', commission_rate_bps: 0 });
  const keys = (partner: number, count: number, name: string, expiry: string) =>
    db.raw(
      `insert into idempotency_keys (partner_id, idempotency_key, request_hash, response_status, response_body, created_at, expires_at)
       select ?, ? || n, 'hash', 200, '{}'::jsonb, e.at - interval '1 day', e.at
       from generate_series(1, ?) as n, lateral (select ${expiry} as at) as e`,
      [partner, name, count],
    );
  const before = `'${expiredAt.toISOString()}'::timestamptz - n * interval '1 second'`;
  const after = `'${expiredAt.toISOString()}'::timestamptz + n * interval '1 second'`;
  await keys(1, 2000, 'query-plans-expired-1-', before);
  await keys(2, 6000, 'query-plans-expired-2-', before);
  await keys(OTHER_PARTNER, 6000, 'query-plans-expired-3-', before);
  await keys(1, 3000, 'query-plans-live-1-', after);
  // The payment's own key: a record of it expired a minute before.
  await db('idempotency_keys').insert({
    partner_id: 1,
    idempotency_key: 'query-plans-key',
    request_hash: 'old',
    response_status: 200,
    response_body: '{}',
    created_at: new Date(expiredAt.getTime() - DAY_MS - 60_000),
    expires_at: new Date(expiredAt.getTime() - 60_000),
  });
}

/** A partner's endpoint with a delivery of each of its events: delivered, but the newest 50 pending (retries due later). */
async function addWebhookDeliveries(db: Db): Promise<void> {
  const [endpoint] = await db('webhook_endpoints')
    .insert({
      partner_id: 1,
      url: 'https://example.com/hooks',
      event_types: ['payment.recorded', 'transaction.created'],
      format: 'standard',
      secret: 'whsec_cXVlcnktcGxhbnM=',
    })
    .returning('id');
  await db.raw(
    `insert into webhook_deliveries (partner_id, endpoint_id, event_id, status, attempt_count, next_attempt_at, created_at, delivered_at)
     select e.partner_id, ?, e.id, case when e.rank <= 50 then 'pending' else 'delivered' end, 1,
       case when e.rank <= 50 then now() + interval '1 hour' end, e.occurred_at,
       case when e.rank > 50 then e.occurred_at end
     from (select partner_id, id, occurred_at, row_number() over (order by sequence desc) as rank from events where partner_id = 1) as e`,
    [endpoint.id],
  );
}

/** The indexes a plan reads. */
function indexesOf(node: PlanNode & { 'Index Name'?: string }, found: string[] = []): string[] {
  if (node['Index Name']) found.push(node['Index Name']);
  for (const child of node.Plans ?? []) indexesOf(child, found);
  return found;
}

function seqScans(node: PlanNode, found: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && LARGE_TABLES.has(node['Relation Name']))
    found.push(node['Relation Name']);
  for (const child of node.Plans ?? []) seqScans(child, found);
  return found;
}

/** The SQL statements `work` sends, captured from the knex instance's query events. */
async function captureQueries(db: Db, work: (db: Db) => Promise<unknown>): Promise<Captured[]> {
  const captured: Captured[] = [];
  // The event carries Postgres's $n placeholders; knex.raw takes ?.
  const listener = (query: { sql: string; bindings?: readonly unknown[] }) => {
    const bindings: unknown[] = [];
    const sql = query.sql.replace(/\$(\d+)/g, (_, n: string) => {
      bindings.push(query.bindings?.[Number(n) - 1]);
      return '?';
    });
    captured.push({ sql, bindings });
  };
  db.on('query', listener);
  try {
    await work(db);
  } finally {
    db.removeListener('query', listener);
  }
  return captured;
}

/** A query builder's SQL without running it. */
function sqlOf(builder: unknown): Captured[] {
  const compiled = (
    builder as {
      toSQL: () => { sql: string; bindings: readonly unknown[] } | Array<{ sql: string; bindings: readonly unknown[] }>;
    }
  ).toSQL();
  return (Array.isArray(compiled) ? compiled : [compiled]).map(({ sql, bindings }) => ({ sql, bindings }));
}

describe.skipIf(!onPostgres)('query plans of the hot queries on the large data set (Postgres)', () => {
  let database: TestDatabase;
  let db: Db;
  const hot: Array<{ name: string; queries: () => Promise<Captured[]> }> = [];

  // Realistic parameters, read from the generated data.
  const p = { partner: '1', otherPartner: '2' } as Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase({ seed: false });
    db = database.db;
    await generateBenchData(db, { customers: CUSTOMERS, production: false });
    await db.raw('analyze');
    const device = await db('devices').where({ partner_id: 1, id: 2345 }).first();
    const customer = await db('customers').where({ partner_id: 1, id: device.customer_id }).first();
    const order = await db('finance_orders').where({ partner_id: 1, device_id: device.id }).first();
    const cart = await db('carts').where({ partner_id: 1 }).orderBy('id').offset(100).first();
    const vendorPayment = await db('payments').where({ channel: 'vendor' }).orderBy('id').offset(500).first();
    const idempotency = await db('idempotency_keys').orderBy('idempotency_key').offset(100).first();
    const firstExpiry = (await db('idempotency_keys').min({ at: 'expires_at' }))[0]!.at as Date;
    const lastExpiry = (await db('idempotency_keys').max({ at: 'expires_at' }))[0]!.at as Date;
    const keysExpired = new Date(lastExpiry.getTime() + 3_600_000);
    await addExpiredKeys(db, keysExpired);
    await addWebhookDeliveries(db);
    const event = await db('events').where({ partner_id: 1 }).orderBy('sequence').offset(200).first();
    Object.assign(p, {
      deviceId: String(device.id),
      imei: device.imei,
      tag: device.tag,
      customerId: String(customer.id),
      phone: customer.phone_number,
      orderId: String(order.id),
      cartId: String(cart.id),
      cartTag: cart.cart_tag,
      merchantId: String(order.merchant_id),
      clerkId: String(order.clerk_id),
      paymentId: String(vendorPayment.id),
      vendorReference: vendorPayment.vendor_reference,
      idempotencyKey: idempotency.idempotency_key,
      idempotencyPartner: String(idempotency.partner_id),
      firstExpiry: firstExpiry.toISOString(),
      keysExpired: keysExpired.toISOString(),
      eventId: event.id,
      eventSequence: String(event.sequence),
      eventTimeUs: String(event.occurred_at.getTime() * 1000),
    });
    await db.raw('analyze');
  });

  afterAll(async () => {
    await database?.destroy();
  });

  const now = BENCH_END;
  const key = (id: string, partnerId = p.partner!) => [{ partnerId, id }];
  const add = (name: string, queries: () => Promise<Captured[]> | Captured[]) =>
    hot.push({ name, queries: async () => queries() });

  // Authentication.
  add('api key by hash', () => sqlOf(activeKeyByHash(db, hashApiKey('bench-retail-key-1'), now).build()));
  // On Postgres the key's lookup carries the request limits: the address's block and the key's count.
  add('api key by hash, with the request limits', () =>
    captureQueries(db, (d) =>
      new PostgresCounts(d).lookUpAdmitting(
        d,
        activeKeyByHash(d, hashApiKey('bench-retail-key-1'), now),
        { name: 'authfail', limit: 10, windowMs: 300_000, blockMs: 0 },
        '203.0.113.9',
        { name: 'key', limit: 1000, windowMs: 60_000, blockMs: 60_000 },
      ),
    ),
  );
  add('api key by id', () => sqlOf(findActiveApiKeyById(db, '3', now)));
  // Locators: findDevice (directory, then the device with its catalogue), and locateCustomer (every rule in one statement) by each kind.
  add('findDevice by imei', () => captureQueries(db, (d) => findDevice(d, 'imei', p.imei!, p.partner!)));
  add('findDevice by tag', () => captureQueries(db, (d) => findDevice(d, 'tag', p.tag!, null)));
  add('locate customer by imei', () => captureQueries(db, (d) => locateCustomer(d, p.imei!, p.partner!)));
  add('locate customer by tag', () => captureQueries(db, (d) => locateCustomer(d, p.tag!, p.partner!)));
  add('locate customer by phone', () => captureQueries(db, (d) => locateCustomer(d, p.phone!, p.partner!)));
  add('locate customer by id', () => captureQueries(db, (d) => locateCustomer(d, p.customerId!, p.partner!)));
  add('locate customer by phone, any partner', () => captureQueries(db, (d) => locateCustomer(d, p.phone!, null)));
  add('locate customer by id, any partner', () => captureQueries(db, (d) => locateCustomer(d, p.customerId!, null)));
  add('locate customer by imei, any partner', () => captureQueries(db, (d) => locateCustomer(d, p.imei!, null)));
  add('locate customer by tag, any partner', () => captureQueries(db, (d) => locateCustomer(d, p.tag!, null)));
  add('customer phone directory (vendor notification)', () =>
    captureQueries(db, (d) => findCustomersByPhone(d, p.phone!)),
  );
  add('finance order directory (vendor notification)', () =>
    captureQueries(db, (d) => findFinanceOrderOwner(d, p.orderId!)),
  );
  add('customers by keys', () => sqlOf(customersByKeys(db, key(p.customerId!))));
  add('devices by keys', () => sqlOf(devicesByKeys(db, key(p.deviceId!))));
  add('devices of customers', () => sqlOf(devicesOfCustomers(db, key(p.customerId!))));
  // Finance orders, carts, payments.
  add('finance orders by keys', () => sqlOf(financeOrdersByKeys(db, key(p.orderId!))));
  add('finance order by id', () => sqlOf(financeOrderById(db, p.orderId!, p.partner!)));
  add('finance order by id, any partner', () => sqlOf(financeOrderById(db, p.orderId!, null)));
  add('finance orders of customers', () => sqlOf(financeOrdersOfCustomers(db, key(p.customerId!))));
  add('finance orders of devices', () => sqlOf(financeOrdersOfDevices(db, key(p.deviceId!))));
  add('finance orders of carts', () => sqlOf(financeOrdersOfCarts(db, key(p.cartId!))));
  // Customer.financeOrder: the orders of the customer's devices (and the matched device), with those devices.
  add('finance orders around a customer', () =>
    captureQueries(db, (d) =>
      financeOrdersAroundCustomers(d, [{ partnerId: p.partner!, id: p.customerId!, matchedDeviceId: null }]),
    ),
  );
  add('finance orders around a customer found by its device', () =>
    captureQueries(db, (d) =>
      financeOrdersAroundCustomers(d, [{ partnerId: p.partner!, id: p.customerId!, matchedDeviceId: p.deviceId! }]),
    ),
  );
  add('lockFinanceOrder', () => sqlOf(lockFinanceOrder(db, { partnerId: p.partner!, id: p.orderId! })));
  add('cart by tag', () => sqlOf(cartByTag(db, p.partner!, p.cartTag!)));
  add('carts by keys', () => sqlOf(cartsByKeys(db, key(p.cartId!))));
  add('payments of orders', () => captureQueries(db, (d) => paymentsOfOrders(d, key(p.orderId!))));
  add('payments by keys', () => sqlOf(paymentsByKeys(db, key(p.paymentId!, '1'))));
  add('merchants by keys', () => sqlOf(merchantsByKeys(db, key(p.merchantId!))));
  add('clerks by keys', () => sqlOf(clerksByKeys(db, key(p.clerkId!))));
  // An in-store payment: its one read, and its one write (EXPLAIN plans it without running it).
  add('in-store payment: its read, with an idempotency key', () =>
    captureQueries(db, (d) =>
      inStorePaymentFacts(d, p.idempotencyPartner!, {
        merchantId: p.merchantId!,
        clerkId: p.clerkId!,
        financeOrderId: p.orderId!,
        idempotencyKey: p.idempotencyKey!,
        currency: 'USD',
        amountMinor: '100',
        now: new Date(p.keysExpired!),
        paymentId: null,
      }),
    ),
  );
  // The write at a time when every key of the data set has expired, its own key's record among them
  // (decisions.md 23: it replaces that one record, and reads no other).
  const creditOf = (
    withKey: boolean,
    movingTimeline = false,
    written = { id: '1', totalPaidSeen: '0', orderId: p.orderId! },
  ) => {
    const received = new Date(p.keysExpired!);
    return inStoreCreditStatement({
      row: {
        partner_id: p.partner!,
        id: written.id,
        finance_order_id: written.orderId,
        channel: 'in_store',
        amount_minor: '100',
        currency: 'USD',
        merchant_id: p.merchantId!,
        clerk_id: p.clerkId!,
        vendor_id: null,
        vendor_reference: null,
        received_at: received,
        reversible_until: new Date(received.getTime() + 72 * 3_600_000),
      },
      totalPaidSeen: written.totalPaidSeen,
      transactions: [{ type: 'cash', amount_minor: '-100', clerk_id: p.clerkId! }],
      events: [{ type: 'payment.recorded', occurredAt: received, data: {} }],
      // The payment moves the order's lockAt: its instants closed and made anew, by order.
      timeline: movingTimeline
        ? {
            change: {
              partnerId: p.partner!,
              financeOrderId: p.orderId!,
              before: { lockAt: received },
              after: { lockAt: new Date(received.getTime() + 30 * DAY_MS), fullyPaid: false },
              now: received,
              settings: DEFAULT_PARTNER_SETTINGS,
            },
            guarded: new Set(),
          }
        : undefined,
      key: withKey
        ? {
            key: 'query-plans-key',
            requestHash: 'hash',
            receipt: {
              partnerId: p.partner!,
              paymentId: '0',
              amountMinor: '100',
              time: 0,
              deviceTag: 'TAG',
              remainingMinor: '0',
              currency: 'USD',
              nextPayment: null,
              fullyPaid: true,
            },
            expiresAt: new Date(received.getTime() + DAY_MS),
            expiredBy: received,
          }
        : null,
    });
  };
  const credit = (withKey: boolean, movingTimeline = false) => {
    const statement = creditOf(withKey, movingTimeline);
    return [{ sql: statement.sql, bindings: statement.bindings }];
  };
  add('in-store payment: its write', () => credit(false));
  add('in-store payment: its write, with an idempotency key replacing its expired record', () => credit(true));
  add('idempotency keys: the periodic purge', () =>
    // A time before any expiry: the purge deletes nothing here, and its statement is what is planned.
    captureQueries(db, (d) => purgeExpiredIdempotencyKeys(d, new Date(Date.parse(p.firstExpiry!) - DAY_MS))),
  );
  add('in-store payment: its write, moving the lock timeline', () => credit(false, true));
  add("lock timeline: the schedulers' claim", async () => [claimSql(p.partner!, new Date(), 500)]);
  // The event log: by id (a partner's, an operator's), the live feed's read of a notified event, the
  // listings (Query.events) and their hasPreviousPage, and the retention's purge.
  add('event by id, a partner', () => captureQueries(db, (d) => eventById(d, p.eventId!, p.partner!)));
  add('event by id, any partner', () => captureQueries(db, (d) => eventById(d, p.eventId!, null)));
  // feed.ts reads a notified event by its key, as this does.
  add('the live feed: a notified event', () =>
    sqlOf(db('events').where({ partner_id: p.partner!, id: p.eventId! }).first('partner_id', 'id', 'type', 'data')),
  );
  const events = (partnerId: string | null, after?: EventPosition) =>
    captureQueries(db, (d) => listEvents(d, { partnerId, types: null, after, limit: 101 }));
  add("events: a partner's page", () => events(p.partner!));
  add("events: a partner's page after a cursor", () => events(p.partner!, { sequence: p.eventSequence! }));
  add("events: a partner's page of one type", () =>
    captureQueries(db, (d) =>
      listEvents(d, { partnerId: p.partner!, types: ['payment.recorded'], after: undefined, limit: 101 }),
    ),
  );
  add("events: every partner's page after a cursor", () => events(null, { timeUs: p.eventTimeUs!, id: p.eventId! }));
  add('events: hasPreviousPage', () =>
    captureQueries(db, (d) => eventsPrecede(d, { partnerId: p.partner!, types: null }, { sequence: p.eventSequence! })),
  );
  // Device.events (decisions.md 46): one device's events of its partner's log, by its tag.
  const deviceEvents = (after?: EventPosition, types: EventTypeName[] | null = null) =>
    captureQueries(db, (d) => listEvents(d, { partnerId: p.partner!, deviceTag: p.tag!, types, after, limit: 21 }));
  add("a device's events: a page", () => deviceEvents());
  add("a device's events: a page after a cursor", () => deviceEvents({ sequence: p.eventSequence! }));
  add("a device's events: its locks and unlocks", () => deviceEvents(undefined, ['device.locked', 'device.unlocked']));
  add("a device's events: hasPreviousPage", () =>
    captureQueries(db, (d) =>
      eventsPrecede(d, { partnerId: p.partner!, deviceTag: p.tag!, types: null }, { sequence: p.eventSequence! }),
    ),
  );
  add('events: the retention purge', () =>
    // A horizon before every event: nothing is deleted here, and its statement is what is planned.
    captureQueries(db, (d) => purgeExpiredEvents(d, BENCH_END, 3650)),
  );
  // Webhook deliveries: the workers' claim (nothing due: the pending ones are retries due later) and
  // the queue-depth gauge.
  add('webhook deliveries: the claim', () =>
    captureQueries(db, (d) =>
      claimDueDeliveries(d, 'query-plans', 30_000, { total: 16, perEndpoint: 4, underWay: new Map() }),
    ),
  );
  add('webhook deliveries: the queue depth', () => captureQueries(db, (d) => queueDepth(d)));
  add('vendor notification lookup', () =>
    sqlOf(db('vendor_notifications').where({ vendor_id: '1', reference: p.vendorReference }).first()),
  );
  // list-transactions: one partner, one day and 30 days, with and without filters.
  const windowOf = (days: number, filters: string[] = []) => ({
    partnerId: p.partner!,
    start: new Date(BENCH_END.getTime() - 120 * DAY_MS),
    end: new Date(BENCH_END.getTime() - (120 - days) * DAY_MS),
    filters: parseFilterTerms(filters),
  });
  add('transactions of one day', () => sqlOf(transactionsInWindowQuery(db, windowOf(1))));
  add('transactions of 30 days', () => sqlOf(transactionsInWindowQuery(db, windowOf(30))));
  add('transactions of one day, paged', () => sqlOf(transactionsInWindowQuery(db, { ...windowOf(1), limit: 1000 })));
  add('transactions of 30 days, filter type:cash', () =>
    sqlOf(transactionsInWindowQuery(db, windowOf(30, ['type:cash']))),
  );
  add('transactions of 30 days, filter merchant.id', () =>
    sqlOf(transactionsInWindowQuery(db, windowOf(30, [`merchant.id:${p.merchantId}`]))),
  );
  add('transactions of one day, filter merchant.name', () =>
    sqlOf(transactionsInWindowQuery(db, windowOf(1, ['merchant.name:Store 1']))),
  );
  add('transactions of 30 days, filter financeOrder.id', () =>
    sqlOf(transactionsInWindowQuery(db, windowOf(30, [`financeOrder.id:${p.orderId}`]))),
  );
  add('transactions of one day, filter device.imei', () =>
    sqlOf(transactionsInWindowQuery(db, windowOf(1, [`device.imei:${p.imei}`]))),
  );
  // pageInfo.hasPreviousPage after a cursor: at most one row, read back from the cursor.
  const cursorAt = { timeUs: String((BENCH_END.getTime() - 115 * DAY_MS) * 1000), id: '1' };
  add('transactions: hasPreviousPage', () => captureQueries(db, (d) => transactionsPrecede(d, windowOf(30), cursorAt)));
  add('transactions: hasPreviousPage, filter merchant.id', () =>
    captureQueries(db, (d) => transactionsPrecede(d, windowOf(30, [`merchant.id:${p.merchantId}`]), cursorAt)),
  );
  const everyLink: LinkColumns = {
    merchant: ['*'],
    clerk: ['*'],
    order: ['*'],
    device: ['*'],
    payment: ['*'],
    adjustment: ['*'],
  };
  add('transactions of one day with every link (a REST page)', () =>
    sqlOf(transactionsInWindowQuery(db, { ...windowOf(1), limit: 5001, links: everyLink })),
  );
  add('transactions of 30 days with every link (a REST page)', () =>
    sqlOf(transactionsInWindowQuery(db, { ...windowOf(30), limit: 5001, links: everyLink })),
  );
  // A REST page read ahead (src/db/readAhead.ts): it finds its start 4,999 rows on along the index.
  add('transactions of 30 days with every link, read ahead of the first page', () =>
    sqlOf(transactionsInWindowQuery(db, { ...windowOf(30), skip: 4999, limit: 5002, links: everyLink })),
  );
  add('transactions of 30 days with every link, read ahead after a cursor', () =>
    sqlOf(
      transactionsInWindowQuery(db, { ...windowOf(30), after: cursorAt, skip: 4999, limit: 5002, links: everyLink }),
    ),
  );
  add('transactions of 30 days with every link, filter device.imei', () =>
    sqlOf(transactionsInWindowQuery(db, { ...windowOf(30, [`device.imei:${p.imei}`]), limit: 5001, links: everyLink })),
  );
  add('transactions of one day, filter payment.amount', () =>
    sqlOf(transactionsInWindowQuery(db, windowOf(1, ['payment.amount:18.00']))),
  );

  // The dashboards' listings (Query.financeOrders, Query.customers): a default page of 100 (+1), each filter.
  const listing = (changes: Partial<ListingWindow & OrderFilters> = {}): ListingWindow & OrderFilters => {
    const partnerId = changes.partnerId === undefined ? p.partner! : changes.partnerId;
    return {
      partnerId,
      createdAfter: null,
      createdBefore: null,
      status: null,
      merchantId: null,
      moment:
        partnerId === null
          ? { partnerId, realNow: BENCH_END, offsets: new Map() }
          : { partnerId, now: BENCH_END, graceHours: 0 },
      ...changes,
    };
  };
  const month = () => ({
    createdAfter: new Date(BENCH_END.getTime() - 150 * DAY_MS),
    createdBefore: new Date(BENCH_END.getTime() - 120 * DAY_MS),
  });
  const firstPage = { after: undefined, limit: 101 };
  const ordersPage = (changes: Partial<ListingWindow & OrderFilters>) =>
    captureQueries(db, (d) => listFinanceOrders(d, listing(changes), firstPage));
  const customersPage = (changes: Partial<ListingWindow & OrderFilters>) =>
    captureQueries(db, (d) => listCustomers(d, listing(changes), firstPage));
  add('finance orders listing: a page', () => ordersPage({}));
  add('finance orders listing: LOCKED', () => ordersPage({ status: 'LOCKED' }));
  add('finance orders listing: one store', () => ordersPage({ merchantId: p.merchantId! }));
  add('finance orders listing: one store, every partner', () =>
    ordersPage({ partnerId: null, merchantId: p.merchantId! }),
  );
  add('finance orders listing: a month of order times', () => ordersPage(month()));
  add('finance orders listing: every partner, PAID_OFF', () => ordersPage({ partnerId: null, status: 'PAID_OFF' }));
  add('finance orders listing: hasPreviousPage, one store', () =>
    captureQueries(db, (d) => financeOrdersPrecede(d, listing({ merchantId: p.merchantId! }), p.orderId!)),
  );
  add('customers listing: a page', () => customersPage({}));
  add('customers listing: ACTIVE', () => customersPage({ status: 'ACTIVE' }));
  add('customers listing: one store', () => customersPage({ merchantId: p.merchantId! }));
  add('customers listing: a month of registrations', () => customersPage(month()));
  add('customers listing: hasPreviousPage, LOCKED', () =>
    captureQueries(db, (d) => customersPrecede(d, listing({ status: 'LOCKED' }), p.customerId!)),
  );
  // The silent devices (Query.devices with silentForDays, decisions.md 22): one partner, every partner.
  const silentListing = (partnerId: string | null, days: number): DeviceListing => {
    const since = new Date(BENCH_END.getTime() - days * DAY_MS);
    return {
      partnerId,
      silence:
        partnerId === null
          ? { partnerId, realSilentSince: since, offsets: new Map([['2', 3_600_000]]) }
          : { partnerId, silentSince: since },
    };
  };
  const devicesPage = (listing: DeviceListing) => captureQueries(db, (d) => listDevices(d, listing, firstPage));
  add('devices listing: a page', () => devicesPage({ partnerId: p.partner!, silence: null }));
  add('devices listing: silent for 7 days', () => devicesPage(silentListing(p.partner!, 7)));
  add('devices listing: silent for 7 days, every partner on sandbox clocks', () => devicesPage(silentListing(null, 7)));
  add('devices listing: hasPreviousPage, silent for 7 days', () =>
    captureQueries(db, (d) => devicesPrecede(d, silentListing(p.partner!, 7), p.deviceId!)),
  );

  // The book's history (decisions.md 45): the snapshot task's look at every partner (its latest day and
  // first sale, a probe each; a batch of no day writes nothing), and a year of a partner's snapshots.
  add('portfolio snapshots: the partners and their days due', () =>
    captureQueries(db, (d) =>
      writeDueSnapshots(d, { now: BENCH_END, production: false, backfillDays: 400, maxDays: 0 }),
    ),
  );
  add('portfolioHistory: 365 days', () =>
    sqlOf(snapshotsBetween(db, p.partner!, { from: '2025-12-01', to: '2026-11-30' })),
  );

  it('generated the reduced data set', async () => {
    const [{ n }] = (await db.raw('select count(*)::int as n from finance_orders')).rows;
    expect(n).toBe(CUSTOMERS);
  });

  // lock_timeline is not among the large tables: on the reduced set it holds a few thousand rows, and
  // the claim's update joins the rows it took to a hash of them; its due rows come along the index.
  it("the schedulers' claim reads its due instants along the partial index of pending ones", async () => {
    const claim = claimSql(p.partner!, new Date(), 500);
    const result = await db.raw(`explain (format json) ${claim.sql}`, claim.bindings);
    const plan = result.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
    expect(indexesOf(plan)).toContain('lock_timeline_due');
  });

  // Partner.nextLockAt (decisions.md 46): one probe per partner into the partial index of pending locks,
  // never the pending instants of every partner (lock_timeline_due) nor a partner's whole history.
  it("Partner.nextLockAt probes the partial index of a partner's pending locks", async () => {
    const [statement] = await captureQueries(db, (d) =>
      nextLockAtOf(d, [{ partnerId: p.partner!, now: new Date(BENCH_END.getTime() - 60 * DAY_MS) }]),
    );
    const result = await db.raw(`explain (format json) ${statement!.sql}`, statement!.bindings as never);
    const plan = result.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
    expect(indexesOf(plan), JSON.stringify(plan)).toContain('lock_timeline_partner_next_lock');
  });

  // Run, not only planned: the keyed write, in a transaction rolled back, at a time when every key of
  // the data set has expired. It replaces its own key's expired record by the primary key and reads
  // no other record: none of the other partners' expired ones, nor its own partner's (decisions.md 23).
  it("a keyed payment reads no other partner's idempotency records, only its own key's", async () => {
    const order = await db('finance_orders')
      .where({ partner_id: p.partner! })
      .whereRaw('total_paid_minor + 100 <= monthly_cost_minor * months')
      .orderBy('id')
      .first();
    const trx = await db.transaction();
    try {
      const id = String((await trx.raw("select nextval('payments_id_seq') as id")).rows[0].id);
      const written = { id, totalPaidSeen: String(order.total_paid_minor), orderId: String(order.id) };
      const statement = creditOf(true, false, written);
      // The table's counters of this connection: not yet reported ones included, so taken before and after.
      const counters = async () =>
        (
          await trx.raw(
            `select seq_scan, seq_tup_read, idx_tup_fetch, n_tup_del
             from pg_stat_xact_user_tables where relname = 'idempotency_keys'`,
          )
        ).rows[0] as Record<string, string>;
      const before = await counters();
      const result = await trx.raw(
        `explain (analyze, buffers, format json) ${statement.sql}`,
        statement.bindings as never,
      );
      const after = await counters();
      const counted = Object.fromEntries(
        Object.keys(after).map((name) => [name, Number(after[name]) - Number(before[name])]),
      );
      const plan = result.rows[0]['QUERY PLAN'][0].Plan as AnalyzedNode;
      const scans = scansOf(plan, 'idempotency_keys');
      const record = await trx('idempotency_keys')
        .where({ partner_id: p.partner!, idempotency_key: 'query-plans-key' })
        .first();
      const expired = (
        await trx.raw('select distinct partner_id from idempotency_keys where expires_at <= ? order by partner_id', [
          new Date(p.keysExpired!),
        ])
      ).rows as Array<{ partner_id: string }>;
      const summary = JSON.stringify({ scans, counted });
      // The payment was written, and its key's record is the new one.
      expect(record, summary).toMatchObject({ request_hash: 'hash' });
      expect(record.expires_at.getTime()).toBeGreaterThan(Date.parse(p.keysExpired!));
      expect(scans.length, summary).toBeGreaterThan(0);
      expect(
        scans.filter((scan) => scan.type === 'Seq Scan'),
        summary,
      ).toEqual([]);
      expect(
        scans.reduce((sum, scan) => sum + scan.rows, 0),
        summary,
      ).toBeLessThanOrEqual(1);
      expect(
        scans.reduce((sum, scan) => sum + scan.blocks, 0),
        summary,
      ).toBeLessThanOrEqual(10);
      expect(counted.seq_tup_read, summary).toBe(0);
      expect(counted.idx_tup_fetch, summary).toBeLessThanOrEqual(1);
      expect(counted.n_tup_del, summary).toBe(1);
      // Every partner's expired records were there to be read, and are all still there but its own.
      expect(expired.map((row) => String(row.partner_id))).toEqual(['1', '2', String(OTHER_PARTNER)]);
    } finally {
      await trx.rollback();
    }
  });

  it('no hot query reads a whole large table', async () => {
    const scans: string[] = [];
    let explained = 0;
    for (const query of hot) {
      const statements = await query.queries();
      expect(statements.length, query.name).toBeGreaterThan(0);
      for (const statement of statements) {
        // A retention may manage partitions (DDL): only queries are planned.
        if (/^\s*(create|drop|alter|lock|begin|commit|rollback|set)\b/i.test(statement.sql)) continue;
        const result = await db.raw(`explain (format json) ${statement.sql}`, statement.bindings as never);
        const plan = result.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
        explained++;
        const tables = seqScans(plan);
        if (tables.length) scans.push(`${query.name}: Seq Scan on ${tables.join(', ')}\n  ${statement.sql}`);
      }
    }
    expect(explained).toBeGreaterThanOrEqual(hot.length);
    expect(scans).toEqual([]);
  });

  // The book's figures (decisions.md 45): the partner's orders whole (its book), and of the ledger only
  // the rows from the period's start (30 days before asOf) on, each along its index by the partner's time. A tenth of the
  // payments reversed an hour after they were received (in a transaction rolled back, with its
  // statistics), so the reversals' table is not an empty one the planner scans for nothing.
  it("the book's figures read the ledger after asOf along payments_partner_received and payment_reversals_partner_reversed", async () => {
    const trx = await db.transaction();
    try {
      await trx.raw(
        `insert into payment_reversals (partner_id, payment_id, finance_order_id, amount_minor, currency, reason, reversed_by, reversed_at)
         select partner_id, id, finance_order_id, amount_minor, currency, 'query plans', 'operator', received_at + interval '1 hour'
         from payments where id % 10 = 0`,
      );
      await trx.raw('analyze payment_reversals');
      // Now (a dashboard) and a day back (the daily snapshot): a month and a day of the ledger. Far
      // back, a scan of the whole table is the planner's right choice, and the figures' cost then.
      for (const daysBack of [0, 1]) {
        const asOf = new Date(BENCH_END.getTime() - daysBack * DAY_MS);
        const [statement] = await captureQueries(trx as unknown as Db, (d) =>
          portfolioSums(d, { partnerId: p.partner!, asOf, graceHours: 0 }, 'NONE'),
        );
        const result = await trx.raw(`explain (format json) ${statement!.sql}`, statement!.bindings as never);
        const plan = result.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
        const summary = `${daysBack} days back: ${JSON.stringify(plan)}`;
        expect(indexesOf(plan), summary).toEqual(
          expect.arrayContaining(['payments_partner_received', 'payment_reversals_partner_reversed']),
        );
        const scanned = (node: PlanNode, found: string[] = []): string[] => {
          if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) found.push(node['Relation Name']);
          for (const child of node.Plans ?? []) scanned(child, found);
          return found;
        };
        expect(
          scanned(plan).filter((table) => table === 'payments' || table === 'payment_reversals'),
          summary,
        ).toEqual([]);
      }
    } finally {
      await trx.rollback();
    }
  });

  // Device.events on a log where every device of the partner has a month of check-ins (in a
  // transaction rolled back, with its statistics): each page and hasPreviousPage read the device's
  // range of events_partner_device_sequence on every month, never the partner's whole log.
  it("a device's events are read along events_partner_device_sequence", async () => {
    const trx = await db.transaction();
    try {
      await trx.raw(
        `insert into events (partner_id, id, sequence, type, occurred_at, data, fanned_out)
         select d.partner_id, 'evt_' || substr(md5(d.id || ':' || n), 1, 26), nextval('events_sequence'),
           'device.checked_in', ?::timestamptz - n * interval '1 day',
           json_build_object('device', json_build_object('tag', d.tag, 'imei', d.imei), 'lockState', 'UNLOCKED',
             'reason', null, 'appVersion', '1.0.0', 'simMismatch', false), true
         from devices d, generate_series(1, 30) as n
         where d.partner_id = ?`,
        [BENCH_END, p.partner!],
      );
      await trx.raw('analyze events');
      const { rows: indexes } = (await trx.raw(
        `select c.relname from pg_class c where c.relname = 'events_partner_device_sequence'
         or c.oid in (select inhrelid from pg_inherits where inhparent = 'events_partner_device_sequence'::regclass)`,
      )) as { rows: Array<{ relname: string }> };
      const deviceIndexes = new Set(indexes.map((row) => row.relname));
      const [middle] = await trx('events')
        .where({ partner_id: p.partner!, type: 'device.checked_in' })
        .whereRaw(`(data->'device'->>'tag') = ?`, [p.tag!])
        .orderBy('sequence')
        .offset(15)
        .limit(1)
        .select('sequence');
      const at = { sequence: String(middle.sequence) };
      const selection = { partnerId: p.partner!, deviceTag: p.tag!, types: null };
      const statements = [
        ...(await captureQueries(trx as unknown as Db, (d) =>
          listEvents(d, { ...selection, after: undefined, limit: 21 }),
        )),
        ...(await captureQueries(trx as unknown as Db, (d) => listEvents(d, { ...selection, after: at, limit: 21 }))),
        ...(await captureQueries(trx as unknown as Db, (d) => eventsPrecede(d, selection, at))),
      ];
      expect(statements).toHaveLength(3);
      for (const statement of statements) {
        const result = await trx.raw(`explain (format json) ${statement.sql}`, statement.bindings as never);
        const plan = result.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
        const summary = `${statement.sql}: ${JSON.stringify(plan)}`;
        const used = indexesOf(plan);
        expect(used.length, summary).toBeGreaterThan(0);
        expect(
          used.filter((name) => !deviceIndexes.has(name)),
          summary,
        ).toEqual([]);
        expect(seqScans(plan), summary).toEqual([]);
      }
      const page = await listEvents(trx, { ...selection, after: undefined, limit: 21 });
      expect(page).toHaveLength(21);
      expect(page.every((row) => (row.data as { device: { tag: string } }).device.tag === p.tag)).toBe(true);
    } finally {
      await trx.rollback();
    }
  });

  // Last: it writes check-ins. The partner's devices checked in a day ago but 50 of them, a month ago:
  // the silent page is those 50, read along the partner's range of the primary key.
  it("a partner's silent devices, most of its devices having checked in lately", async () => {
    await db('devices')
      .where({ partner_id: 1 })
      .update({ last_checkin_at: new Date(BENCH_END.getTime() - DAY_MS) });
    const silent = (await db('devices').where({ partner_id: 1 }).orderByRaw('md5(id::text)').limit(50).select('id'))
      .map((row) => String(row.id))
      .sort((a, b) => Number(a) - Number(b));
    await db('devices')
      .where({ partner_id: 1 })
      .whereIn('id', silent)
      .update({ last_checkin_at: new Date(BENCH_END.getTime() - 30 * DAY_MS) });
    await db.raw('analyze devices');
    const [statement] = await devicesPage(silentListing(p.partner!, 7));
    const result = await db.raw(`explain (format json) ${statement!.sql}`, statement!.bindings as never);
    const plan = result.rows[0]['QUERY PLAN'][0].Plan as PlanNode;
    expect(seqScans(plan)).toEqual([]);
    const rows = await listDevices(db, silentListing(p.partner!, 7), firstPage);
    expect(rows.map((row) => row.id)).toEqual(silent);
  });
});
