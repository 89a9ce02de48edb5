// Requests first, when the operator asks for it (WEBHOOK_MAX_CONCURRENT_UNDER_LOAD=1): while callers
// wait for a connection of the requests' pool, the webhook worker keeps one post under way instead of
// its full concurrency, so the requests it shares the CPU with come first; the deliveries still go out
// one at a time (claimed and recorded on the worker's own connections), and at full concurrency again
// once nobody waits. Postgres only: the embedded database's pool is a single connection, on which a
// saturated pool cannot be staged beside a worker that still gets its turns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

if (!onPostgres) console.warn('[webhooks under load] PGlite: needs TEST_DATABASE_URL (a pool of several connections)');

const fixture = useSeededService();
const ANSWER_AFTER_MS = 80;
/** The test database's pool (test/support/db.ts): the load keeps twice as many callers busy. */
const POOL_MAX = 20;
let receiver: Receiver;
let worker: JobLoop | undefined;

beforeAll(async () => {
  receiver = await startReceiver({ answerAfterMs: ANSWER_AFTER_MS, payloads: 'stand-ins' });
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

const CREATE = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { endpoint { id } } }`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Callers that each run short statements back to back until `until`, on the worker's own pool. */
async function loadThePool(loading: () => boolean): Promise<void> {
  const caller = async () => {
    while (loading()) await fixture.database.db.raw('select pg_sleep(0.01)');
  };
  await Promise.all(Array.from({ length: 2 * POOL_MAX }, caller));
}

describe.runIf(onPostgres)('the webhook worker under load', () => {
  it('by default keeps one post under way while requests wait for a connection, and all of them once none waits', async () => {
    const db = fixture.database.db;
    const created = await fixture.service.graphql(
      CREATE,
      { 'x-api-key': 'demo-partner-key' },
      { input: { url: receiver.url('/load'), eventTypes: ['FINANCE_ORDER_CREATED'] } },
    );
    expect(created.body.errors).toBeUndefined();
    const partner = String((await db('partners').where({ name: 'Demo Retail' }).first()).id);
    const deliveries = 40;
    await db.transaction((trx) =>
      appendEvents(
        trx,
        partner,
        Array.from({ length: deliveries }, (_, i) => ({
          type: 'finance_order.created',
          occurredAt: new Date(),
          data: { id: i + 1 },
        })),
      ),
    );

    // The samples of the receiver's posts under way, while the pool is loaded and after. The load lasts
    // until three posts went out under it (or two minutes: a machine too busy for that fails the count
    // below, not the clock), so a slow machine makes it longer, not emptier. Its last moments are
    // neither: its callers finish one by one, so fewer wait, and the worker may rightly widen then.
    const underLoad: number[] = [];
    const afterLoad: number[] = [];
    let phase: 'load' | 'ending' | 'after' = 'load';
    const giveUpAt = Date.now() + 120_000;
    const sampler = setInterval(() => {
      if (phase === 'load' && (receiver.received.length >= 3 || Date.now() > giveUpAt)) phase = 'ending';
      if (phase === 'load') underLoad.push(receiver.underWay());
      else if (phase === 'after') afterLoad.push(receiver.underWay());
    }, 5);
    const load = loadThePool(() => phase === 'load');
    worker = startWebhookJobs({
      db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      settings: {
        scheduleMs: [30],
        jitter: 0,
        pollMs: 50,
        timeoutMs: 5000,
        maxConcurrent: 8,
        maxPerEndpoint: 8,
        // maxConcurrentUnderLoad left at its default, 1 (decisions.md 40): the requests first.
      },
    });
    try {
      await load;
      const postedUnderLoad = receiver.received.length;
      phase = 'after';
      for (;;) {
        // The events first: their deliveries are written as they are fanned out (one transaction).
        const unfanned = await db('events').whereRaw('not fanned_out').first();
        const pending = await db('webhook_deliveries').where({ status: 'pending' }).first();
        if (!pending && !unfanned) break;
        await sleep(20);
      }
      // Under load the deliveries went on, one at a time; the rest went out together once nobody waited.
      expect(postedUnderLoad).toBeGreaterThanOrEqual(2);
      expect(postedUnderLoad).toBeLessThan(deliveries);
      expect(Math.max(...underLoad)).toBe(1);
      expect(Math.max(...afterLoad)).toBeGreaterThan(1);
      expect(receiver.received.filter((request) => request.path === '/load')).toHaveLength(deliveries);
    } finally {
      clearInterval(sampler);
      await worker.stop();
      worker = undefined;
    }
  });
});
