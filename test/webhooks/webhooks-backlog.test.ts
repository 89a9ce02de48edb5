// One endpoint's backlog: the worker posts to it at its cap, and looks past it for other endpoints'
// deliveries at most once a poll interval (a claim that skips a busy endpoint reads its whole backlog
// first), while another endpoint's delivery still goes out within about that interval. A real receiver
// on loopback answers each post after a delay, so the backlog's endpoint stays at its cap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import type { NewEvent } from '../../src/modules/events/rows.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

const fixture = useSeededService();
const ANSWER_AFTER_MS = 60;
const POLL_MS = 300;
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
const subscribe = async (key: string, path: string, eventType: string) => {
  const result = await fixture.service.graphql(
    CREATE,
    { 'x-api-key': key },
    { input: { url: receiver.url(path), eventTypes: [eventType] } },
  );
  expect(result.body.errors).toBeUndefined();
};
const partnerId = async (name: string) => String((await fixture.database.db('partners').where({ name }).first()).id);
const writeEvents = (partner: string, events: NewEvent[]) =>
  fixture.database.db.transaction((trx) => appendEvents(trx, partner, events));
const isClaim = (sql: string) => /^with candidates as \(\s+select partner_id, id, endpoint_id/.test(sql);

describe('a backlog for one endpoint', () => {
  it('is posted at its cap, looked past once a poll at most, and does not hold back another endpoint', async () => {
    const demoId = await partnerId('Demo Retail');
    const otherId = await partnerId('Other Retail');
    await subscribe('demo-partner-key', '/backlog', 'FINANCE_ORDER_CREATED');
    await subscribe('other-partner-key', '/other', 'FINANCE_ORDER_PAID_OFF');
    const backlog = 30;
    await writeEvents(
      demoId,
      Array.from({ length: backlog }, (_, i) => ({
        type: 'finance_order.created',
        occurredAt: new Date(),
        data: { id: i + 1 },
      })),
    );

    // Each claim, and how many deliveries it took.
    const claims: number[] = [];
    const onResponse = (response: { rows?: unknown[] }, query: { sql: string }) => {
      if (isClaim(query.sql)) claims.push(response.rows?.length ?? 0);
    };
    fixture.database.db.on('query-response', onResponse);
    const started = Date.now();
    worker = startWebhookJobs({
      db: fixture.database.db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      // Its statements on the pool this test watches, not connections of its own.
      settings: {
        scheduleMs: [30],
        jitter: 0,
        pollMs: POLL_MS,
        timeoutMs: 5000,
        maxPerEndpoint: 1,
        maxConcurrent: 4,
        databaseConnections: 0,
      },
    });
    try {
      // Another partner's event, newer than the whole backlog, once the backlog's posts are under way.
      await new Promise((resolve) => setTimeout(resolve, 2 * ANSWER_AFTER_MS));
      await writeEvents(otherId, [{ type: 'finance_order.paid_off', occurredAt: new Date(), data: { id: 1 } }]);
      for (;;) {
        // The events first: their deliveries are written as they are fanned out (one transaction).
        const unfanned = await fixture.database.db('events').whereRaw('not fanned_out').first();
        const pending = await fixture.database.db('webhook_deliveries').where({ status: 'pending' }).first();
        if (!pending && !unfanned) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      fixture.database.db.off('query-response', onResponse);
      await worker.stop();
      worker = undefined;
    }
    const elapsed = Date.now() - started;

    // Every delivery went out, the backlog's one at a time (its cap): at least its posts' delays apart.
    const posted = receiver.received.map((request) => request.path);
    expect(posted.filter((path) => path === '/backlog')).toHaveLength(backlog);
    expect(posted.filter((path) => path === '/other')).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(backlog * ANSWER_AFTER_MS);
    // The other endpoint's delivery did not wait for the backlog: it was posted before the backlog's last.
    expect(posted.indexOf('/other')).toBeLessThan(posted.lastIndexOf('/backlog'));
    // Every delivery taken by a claim; the claims that found nothing (looking past the busy endpoint)
    // at most once per poll interval, beside six looks of fixed causes: two first looks (at the start and
    // once listening, before the fan-out had written the backlog's deliveries), up to three the other
    // partner's event allows at once (its notification, the fan-out's deliveries-due, the look after its
    // post) and the drain at the stop; so fewer than one per delivery: looking past it after every post
    // would have been a second claim per delivery (about 30 here). A run on an idle machine: 9 in 2 s.
    expect(claims.reduce((sum, taken) => sum + taken, 0)).toBe(backlog + 1);
    const lookedPast = claims.filter((taken) => taken === 0).length;
    expect(lookedPast).toBeLessThanOrEqual(Math.ceil(elapsed / POLL_MS) + 6);
    expect(lookedPast).toBeLessThan(backlog);
  });
});
