// The worker is woken by the event log's notifications, not by its poll: with a poll interval of a
// minute, an event the log published (after its commit) is fanned out and delivered at once, an event
// whose notification was lost waits for the poll, and a lost listening connection is listened again
// and the queue read once it is. Under a backlog its batched claims keep each endpoint to its cap.
// Real HTTP receiver on loopback, real database (PGlite, or Postgres with TEST_DATABASE_URL).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { newEventId } from '../../src/modules/events/ids.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import type { NewEvent } from '../../src/modules/events/rows.js';
import type { DeliverySettings } from '../../src/modules/webhooks/worker.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

const fixture = useSeededService();
/** Far beyond any wait below: a delivery that arrives came from a notification, or from listening again. */
const POLL_MS = 60_000;
let receiver: Receiver;
let worker: JobLoop | undefined;

beforeAll(async () => {
  receiver = await startReceiver({ answerAfterMs: 40, payloads: 'stand-ins' });
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});
afterAll(async () => {
  await receiver?.close();
});

const CREATE = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { endpoint { id } } }`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const subscribe = async (path: string, eventType: string) => {
  const result = await fixture.service.graphql(
    CREATE,
    { 'x-api-key': 'demo-partner-key' },
    { input: { url: receiver.url(path), eventTypes: [eventType] } },
  );
  expect(result.body.errors).toBeUndefined();
};
const demoPartner = async () =>
  String((await fixture.database.db('partners').where({ name: 'Demo Retail' }).first()).id);
/**
 * Writes events as a change does (the log publishes them after the commit); `notify` false: as if that
 * notification were lost (rows written beside the log, which publishes nothing of them).
 */
async function writeEvents(events: NewEvent[], notify: boolean): Promise<void> {
  const db = fixture.database.db;
  const partner = await demoPartner();
  if (notify) {
    await db.transaction((trx) => appendEvents(trx, partner, events));
    return;
  }
  for (const event of events) {
    await db.raw(
      `insert into events (partner_id, id, sequence, type, occurred_at, data)
       values (?, ?, nextval('events_sequence'), ?, ?, ?::json)`,
      [partner, newEventId(event.occurredAt), event.type, event.occurredAt.toISOString(), JSON.stringify(event.data)],
    );
  }
}
const event = (type: NewEvent['type'], n: number): NewEvent => ({ type, occurredAt: new Date(), data: { n } });
const arrived = (path: string) => receiver.received.filter((request) => request.path === path).length;
/** Waits until `path` has `count` posts, for at most `withinMs` (a third of the poll interval); false if not. */
async function arrivesWithin(path: string, count: number, withinMs = POLL_MS / 3): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (arrived(path) < count && Date.now() < until) await sleep(20);
  return arrived(path) >= count;
}
const start = (settings: Partial<DeliverySettings> = {}) => {
  worker = startWebhookJobs({
    db: fixture.database.db,
    logger: createLogger('silent'),
    now: () => new Date(),
    production: false,
    settings: { scheduleMs: [30], jitter: 0, pollMs: POLL_MS, timeoutMs: 5000, ...settings },
  });
};

describe('the webhook worker, woken by the event log', () => {
  it('delivers a notified event at once, long before its poll; an event nobody notified waits', async () => {
    await subscribe('/woken', 'FINANCE_ORDER_CREATED');
    start();
    await sleep(500); // its first look at the queue done, and listening
    await writeEvents([event('finance_order.created', 1)], false);
    await sleep(1500);
    // Not notified: still queued, the next poll a minute away.
    expect(arrived('/woken')).toBe(0);
    await writeEvents([event('finance_order.created', 2)], true);
    // The notification woke the worker; its claim took both due deliveries, the silent one too.
    expect(await arrivesWithin('/woken', 2)).toBe(true);
  });

  it.runIf(onPostgres)('listens again after losing its connection, and reads the queue once it does', async () => {
    await subscribe('/relisten', 'FINANCE_ORDER_PAID_OFF');
    start();
    await writeEvents([event('finance_order.paid_off', 1)], true);
    expect(await arrivesWithin('/relisten', 1)).toBe(true);
    // The listening connection killed by the server, then an event nobody notifies.
    const killed = await fixture.database.db.raw(
      `select pg_terminate_backend(pid) as done from pg_stat_activity
        where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
    );
    expect(killed.rows.length).toBeGreaterThanOrEqual(1);
    await writeEvents([event('finance_order.paid_off', 2)], false);
    // Delivered once the worker listens again (about a second later), not at the poll a minute away.
    expect(await arrivesWithin('/relisten', 2)).toBe(true);
    // And notifications reach it again.
    await writeEvents([event('finance_order.paid_off', 3)], true);
    expect(await arrivesWithin('/relisten', 3)).toBe(true);
  });

  it('keeps an endpoint to its cap under a backlog, its claims taken in batches', async () => {
    await subscribe('/capped', 'TRANSACTION_CREATED');
    const backlog = 40;
    await writeEvents(
      Array.from({ length: backlog }, (_, i) => event('transaction.created', i)),
      false,
    );
    const claims: number[] = [];
    const isClaim = (sql: string) => /^with candidates as \(\s+select partner_id, id, endpoint_id/.test(sql);
    const onResponse = (response: { rows?: unknown[] }, query: { sql: string }) => {
      if (isClaim(query.sql)) claims.push(response.rows?.length ?? 0);
    };
    fixture.database.db.on('query-response', onResponse);
    const underWay: number[] = [];
    const sampler = setInterval(() => underWay.push(receiver.underWay()), 5);
    try {
      // Its statements on the pool watched here; the first look at the queue finds the backlog.
      start({ maxConcurrent: 8, maxPerEndpoint: 3, databaseConnections: 0 });
      expect(await arrivesWithin('/capped', backlog)).toBe(true);
    } finally {
      clearInterval(sampler);
      fixture.database.db.off('query-response', onResponse);
    }
    // Never more than its cap at once, though the worker had room for 8; the cap reached.
    expect(Math.max(...underWay)).toBe(3);
    // The first claim that found the backlog (once fanned out) took three, not one; every delivery was claimed once.
    expect(claims.find((taken) => taken > 0)).toBe(3);
    expect(claims.reduce((sum, taken) => sum + taken, 0)).toBe(backlog);
  });
});
