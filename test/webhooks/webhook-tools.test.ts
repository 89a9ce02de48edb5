// The webhook tools (decisions.md, section 13): sendTestWebhook queues a test delivery that the worker
// posts to a real receiver on loopback; redeliverEvent answers the pending delivery instead of queuing
// another, also under concurrent requests; both are limited per key and per endpoint, each field
// execution counting once (aliases count). Counts in the store the request limits use: Postgres on
// Postgres (shared by every instance), this process's memory on PGlite.
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { DEFAULT_LIMITS } from '../../src/kernel/limitSettings.js';
import { createLogger } from '../../src/kernel/logger.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { fanOutCommittedEvents } from '../../src/modules/webhooks/fanOut.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { startTestService, TEST_LIMITS, type TestService } from '../support/service.js';

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; path?: string[]; extensions: { code: string } }>;
}

interface ToolService {
  database: TestDatabase;
  service: TestService;
  as: (key: string) => (query: string, variables?: Record<string, unknown>) => Promise<GraphQLBody>;
}

/** A database and a service of its own (the limits' counts start at nothing), with the given webhook-tool limits. */
function useToolService(webhookTools = DEFAULT_LIMITS.webhookTools): ToolService {
  const fixture = {} as ToolService;
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.service = await startTestService(fixture.database.db, { limits: { ...TEST_LIMITS, webhookTools } });
    fixture.as = (key) => (query, variables) =>
      fixture.service.graphql(query, { 'x-api-key': key }, variables).then((result) => result.body as GraphQLBody);
  });
  afterAll(async () => {
    await fixture.service?.close();
    await fixture.database?.destroy();
  });
  return fixture;
}

let receiver: Receiver;
beforeAll(async () => {
  // Stand-in data for the tools' limits (docs/decisions.md 41): the envelopes are checked, not the data.
  receiver = await startReceiver({ payloads: 'stand-ins' });
});
afterAll(async () => receiver?.close());

const CREATE = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { secret endpoint { id } } }`;

async function createEndpoint(
  fixture: ToolService,
  key: string,
  input: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const body = await fixture.as(key)(CREATE, { input: { eventTypes: ['PAYMENT_RECORDED'], ...input } });
  const created = body.data!.createWebhookEndpoint as { secret: string; endpoint: { id: string } };
  return { id: created.endpoint.id, secret: created.secret };
}

/** One request asking sendTestWebhook `times` times of `endpointId` (aliases t0, t1 ...). */
const aliasedTests = (endpointId: string, times: number) =>
  `mutation { ${Array.from({ length: times }, (_, n) => `t${n}: sendTestWebhook(endpointId: "${endpointId}") { id status }`).join(' ')} }`;

const codes = (body: GraphQLBody) => (body.errors ?? []).map((error) => error.extensions.code);

describe('the webhook tools are limited per key and per endpoint', () => {
  const fixture = useToolService();
  const { perEndpoint } = DEFAULT_LIMITS.webhookTools;

  it('counts each aliased field once: past the endpoint limit, a field error per alias beside the queued ones, HTTP 200', async () => {
    const endpoint = await createEndpoint(fixture, 'other-partner-key', { url: receiver.url('/aliases') });
    const { status, body } = (await fixture.service.graphql(aliasedTests(endpoint.id, perEndpoint.limit + 2), {
      'x-api-key': 'other-partner-key',
    })) as {
      status: number;
      body: {
        data: Record<string, unknown>;
        errors: Array<{ message: string; path: string[]; extensions: { code: string; retryAfter: number } }>;
      };
    };
    // A limit met in a resolver is that field's error (decisions.md 36): the aliases that ran keep their data.
    expect(status).toBe(200);
    const queued = await fixture.database.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).orderBy('id');
    expect(queued).toHaveLength(perEndpoint.limit);
    expect(body.data).toEqual({
      ...Object.fromEntries(queued.map((row, n) => [`t${n}`, { id: String(row.id), status: 'PENDING' }])),
      [`t${perEndpoint.limit}`]: null,
      [`t${perEndpoint.limit + 1}`]: null,
    });
    expect(body.errors.map((error) => [error.path, error.extensions.code])).toEqual([
      [[`t${perEndpoint.limit}`], 'RATE_LIMITED'],
      [[`t${perEndpoint.limit + 1}`], 'RATE_LIMITED'],
    ]);
    expect(body.errors[0]!.message).toMatch(/used on this endpoint 5 times in 60 s/);
    for (const error of body.errors) {
      expect(error.extensions.retryAfter).toBeGreaterThanOrEqual(1);
      expect(error.extensions.retryAfter).toBeLessThanOrEqual(60);
    }
    const audited = await fixture.database
      .db('audit_events')
      .where({ action: 'webhook_endpoint.send_test', subject_id: endpoint.id });
    expect(audited).toHaveLength(perEndpoint.limit);
  });

  it('counts an endpoint whoever asks: an operator and the partner share its limit, and redeliverEvent counts too', async () => {
    const endpoint = await createEndpoint(fixture, 'demo-partner-key', { url: receiver.url('/shared') });
    const partnerId = String((await fixture.database.db('partners').where({ name: 'Demo Retail' }).first()).id);
    const [event] = await fixture.database.db.transaction((trx) =>
      appendEvents(trx, partnerId, [{ type: 'payment.recorded', occurredAt: new Date(), data: {} }]),
    );
    const redeliver = `mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { id } }`;
    expect(codes(await fixture.as('demo-partner-key')(aliasedTests(endpoint.id, 2)))).toEqual([]);
    expect(codes(await fixture.as('demo-operator-key')(aliasedTests(endpoint.id, 2)))).toEqual([]);
    expect(codes(await fixture.as('demo-partner-key')(redeliver, { e: event!.id, w: endpoint.id }))).toEqual([]);
    const past = await fixture.as('demo-operator-key')(redeliver, { e: event!.id, w: endpoint.id });
    expect(codes(past)).toEqual(['RATE_LIMITED']);
    expect(codes(await fixture.as('demo-partner-key')(aliasedTests(endpoint.id, 1)))).toEqual(['RATE_LIMITED']);
  });
});

describe('the webhook tools are limited per key', () => {
  const fixture = useToolService();
  const { perKey, perEndpoint } = DEFAULT_LIMITS.webhookTools;

  it('counts a key over every endpoint: past the key limit, refused on a fresh endpoint too', async () => {
    const key = 'demo-partner-key';
    const endpoints = [
      await createEndpoint(fixture, key, { url: receiver.url('/k1') }),
      await createEndpoint(fixture, key, { url: receiver.url('/k2') }),
      await createEndpoint(fixture, key, { url: receiver.url('/k3') }),
    ];
    // 4 + 4 + 2: each endpoint under its own limit, the key at its 10.
    const spread = [perEndpoint.limit - 1, perEndpoint.limit - 1, perKey.limit - 2 * (perEndpoint.limit - 1)];
    for (const [index, times] of spread.entries()) {
      const body = await fixture.as(key)(aliasedTests(endpoints[index]!.id, times));
      expect(codes(body)).toEqual([]);
    }
    const refused = await fixture.as(key)(aliasedTests(endpoints[2]!.id, 1));
    expect(codes(refused)).toEqual(['RATE_LIMITED']);
    expect(refused.errors![0]!.message).toMatch(/this API key has used the webhook tools 10 times in 60 s/);
    expect(await fixture.database.db('webhook_deliveries').where({ endpoint_id: endpoints[2]!.id })).toHaveLength(
      spread[2]!,
    );
    // Another key is not held by this one's count.
    expect(codes(await fixture.as('demo-operator-key')(aliasedTests(endpoints[2]!.id, 1)))).toEqual([]);
    if (!onPostgres) return;
    // On Postgres the counts are in the database: another instance refuses the key as well.
    const second = await startTestService(fixture.database.db, {
      limits: { ...TEST_LIMITS, webhookTools: DEFAULT_LIMITS.webhookTools },
    });
    try {
      const elsewhere = await second.graphql(aliasedTests(endpoints[0]!.id, 1), { 'x-api-key': key });
      expect(codes(elsewhere.body as GraphQLBody)).toEqual(['RATE_LIMITED']);
    } finally {
      await second.close();
    }
  });
});

describe('the webhook tools are counted where the request limits are: Redis, shared by instances', () => {
  const fixture = useToolService();

  it("refuses on one instance an endpoint past its limit through another instance's uses", async () => {
    const store = {
      redisUrl: 'redis://127.0.0.1:6379',
      redisKeyPrefix: `dfs-test-tools-${randomBytes(6).toString('hex')}`,
    };
    const limits = { ...TEST_LIMITS, webhookTools: DEFAULT_LIMITS.webhookTools };
    const [first, second] = [
      await startTestService(fixture.database.db, { limits, rateLimitStore: store }),
      await startTestService(fixture.database.db, { limits, rateLimitStore: store }),
    ];
    try {
      const endpoint = await createEndpoint(fixture, 'demo-partner-key', { url: receiver.url('/redis') });
      const { perEndpoint } = DEFAULT_LIMITS.webhookTools;
      const here = await first.graphql(aliasedTests(endpoint.id, perEndpoint.limit), {
        'x-api-key': 'demo-partner-key',
      });
      expect(codes(here.body as GraphQLBody)).toEqual([]);
      const there = await second.graphql(aliasedTests(endpoint.id, 1), { 'x-api-key': 'demo-operator-key' });
      expect(codes(there.body as GraphQLBody)).toEqual(['RATE_LIMITED']);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('sendTestWebhook queues a test delivery the worker posts', () => {
  const fixture = useToolService(TEST_LIMITS.webhookTools);
  let worker: JobLoop | undefined;
  afterAll(async () => worker?.stop());

  const DELIVERY = `mutation($id: ID!) { sendTestWebhook(endpointId: $id) {
    id status attempts { statusCode } endpoint { id } event { id type data } } }`;
  const deliveryOf = async (key: string, endpointId: string, deliveryId: string) => {
    const body = await fixture.as(key)(
      `{ webhookEndpoints { nodes { id deliveries(first: 5) { nodes { id status attempts { statusCode error } } } } } }`,
    );
    const endpoints = (body.data!.webhookEndpoints as { nodes: unknown[] }).nodes as Array<{
      id: string;
      deliveries: { nodes: Array<{ id: string; status: string; attempts: Array<{ statusCode: number | null }> }> };
    }>;
    return endpoints
      .find((entry) => entry.id === endpointId)!
      .deliveries.nodes.find((entry) => entry.id === deliveryId)!;
  };
  const deliveredAt = async (key: string, endpointId: string, deliveryId: string) => {
    for (;;) {
      const delivery = await deliveryOf(key, endpointId, deliveryId);
      if (delivery.status !== 'PENDING') return delivery;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it('answers PENDING at once, posts nothing itself; the worker delivers it signed, a WEBHOOK_TEST event of that endpoint only', async () => {
    const standard = await createEndpoint(fixture, 'demo-partner-key', { url: receiver.url('/test-standard') });
    // Another endpoint of the partner subscribed to every type: a test is never fanned out to it.
    const bystander = await createEndpoint(fixture, 'demo-partner-key', {
      url: receiver.url('/bystander'),
      eventTypes: ['PAYMENT_RECORDED', 'TRANSACTION_CREATED', 'FINANCE_ORDER_CREATED', 'FINANCE_ORDER_PAID_OFF'],
    });
    const answered = (await fixture.as('demo-partner-key')(DELIVERY, { id: standard.id })).data!.sendTestWebhook as {
      id: string;
      status: string;
      attempts: unknown[];
      endpoint: { id: string };
      event: { id: string; type: string; data: unknown };
    };
    expect(answered).toMatchObject({ status: 'PENDING', attempts: [], endpoint: { id: standard.id } });
    expect(answered.event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'WEBHOOK_TEST',
      data: { test: true, endpointId: standard.id },
    });
    expect(receiver.received.filter((entry) => entry.path === '/test-standard')).toEqual([]);
    expect(await fixture.database.db('webhook_deliveries').where({ event_id: answered.event.id })).toHaveLength(1);
    expect(await fixture.database.db('webhook_deliveries').where({ endpoint_id: bystander.id })).toEqual([]);

    worker = startWebhookJobs({
      db: fixture.database.db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 2000 },
    });
    const delivered = await deliveredAt('demo-partner-key', standard.id, answered.id);
    expect(delivered).toMatchObject({ status: 'DELIVERED', attempts: [{ statusCode: 200, error: null }] });
    const posted = receiver.received.filter((entry) => entry.path === '/test-standard');
    expect(posted).toHaveLength(1);
    expect(posted[0]!.headers['webhook-id']).toBe(answered.event.id);
    expect(new Webhook(standard.secret).verify(posted[0]!.body, posted[0]!.headers)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { test: true, endpointId: standard.id },
    });
    expect(receiver.received.filter((entry) => entry.path === '/bystander')).toEqual([]);

    // The test event is its partner's alone: the other partner neither reads it nor redelivers it.
    const other = fixture.as('other-partner-key');
    expect((await other(`query($id: ID!) { event(id: $id) { id } }`, { id: answered.event.id })).data).toEqual({
      event: null,
    });
    const ownEvents = (await other('{ events(first: 500) { edges { node { id } } } }')).data!.events as {
      edges: Array<{ node: { id: string } }>;
    };
    expect(ownEvents.edges.map((edge) => edge.node.id)).not.toContain(answered.event.id);
    // Its own partner sees it in its log, as WEBHOOK_TEST.
    const mine = await fixture.as('demo-partner-key')(`query($id: ID!) { event(id: $id) { type } }`, {
      id: answered.event.id,
    });
    expect(mine.data).toEqual({ event: { type: 'WEBHOOK_TEST' } });
  });

  it("shapes a PAYJOY_V1 endpoint's test as that format requires: the bare data, X-PayJoy-Signature", async () => {
    const legacy = await createEndpoint(fixture, 'demo-partner-key', {
      url: receiver.url('/test-payjoy'),
      eventTypes: ['TRANSACTION_CREATED'],
      format: 'PAYJOY_V1',
    });
    const answered = (await fixture.as('demo-partner-key')(DELIVERY, { id: legacy.id })).data!.sendTestWebhook as {
      id: string;
    };
    expect(await deliveredAt('demo-partner-key', legacy.id, answered.id)).toMatchObject({ status: 'DELIVERED' });
    const [posted] = receiver.received.filter((entry) => entry.path === '/test-payjoy');
    expect(JSON.parse(posted!.body)).toEqual({ test: true, endpointId: legacy.id });
    expect(posted!.headers['x-payjoy-signature']).toBe(
      createHmac('sha256', legacy.secret).update(posted!.body).digest('base64'),
    );
    expect(posted!.headers['webhook-signature']).toBeUndefined();
  });

  it("is posted under the endpoint's concurrency: a slow receiver holds at most maxPerEndpoint tests at once", async () => {
    await worker?.stop();
    const slow = await startReceiver({ answerAfterMs: 1000 });
    try {
      const endpoint = await createEndpoint(fixture, 'demo-partner-key', { url: slow.url('/slow') });
      const body = await fixture.as('demo-partner-key')(aliasedTests(endpoint.id, 6));
      expect(codes(body)).toEqual([]);
      worker = startWebhookJobs({
        db: fixture.database.db,
        logger: createLogger('silent'),
        now: () => new Date(),
        production: false,
        settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 10_000, maxPerEndpoint: 2 },
      });
      let most = 0;
      while (slow.received.length < 6 || slow.underWay() > 0) {
        most = Math.max(most, slow.underWay());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(most).toBe(2);
      expect(slow.received).toHaveLength(6);
    } finally {
      await worker?.stop();
      worker = undefined;
      await slow.close();
    }
  });

  it('refuses WEBHOOK_TEST as a type an endpoint subscribes to', async () => {
    const body = await fixture.as('demo-partner-key')(CREATE, {
      input: { url: receiver.url('/x'), eventTypes: ['WEBHOOK_TEST'] },
    });
    expect(codes(body)).toEqual(['INVALID_ARGUMENT']);
  });
});

describe('redeliverEvent queues no second pending delivery', () => {
  const fixture = useToolService(TEST_LIMITS.webhookTools);
  const REDELIVER = `mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { id status } }`;

  it(`answers the pending delivery, also to ${onPostgres ? 'concurrent requests on Postgres' : 'requests in turn (PGlite)'}`, async () => {
    const endpoint = await createEndpoint(fixture, 'demo-partner-key', { url: receiver.url('/redeliver') });
    const partnerId = String((await fixture.database.db('partners').where({ name: 'Demo Retail' }).first()).id);
    const [event] = await fixture.database.db.transaction((trx) =>
      appendEvents(trx, partnerId, [{ type: 'payment.recorded', occurredAt: new Date(), data: { n: 1 } }]),
    );
    const deliveries = () =>
      fixture.database.db('webhook_deliveries').where({ endpoint_id: endpoint.id, event_id: event!.id }).orderBy('id');
    // The event's own delivery (the relay's, fanned out from the log) is pending: a redelivery answers it.
    await fanOutCommittedEvents(fixture.database.db, 100);
    const [own] = await deliveries();
    const demo = fixture.as('demo-partner-key');
    const again = await demo(REDELIVER, { e: event!.id, w: endpoint.id });
    expect(again.data!.redeliverEvent).toEqual({ id: String(own.id), status: 'PENDING' });

    // Once it is no longer pending, 20 requests at once queue exactly one more, and all answer it.
    await fixture.database.db('webhook_deliveries').where({ id: own.id }).update({ status: 'delivered' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => demo(REDELIVER, { e: event!.id, w: endpoint.id })),
    );
    expect(answers.flatMap(codes)).toEqual([]);
    const rows = await deliveries();
    expect(rows.map((row) => row.status)).toEqual(['delivered', 'pending']);
    expect(new Set(answers.map((answer) => (answer.data!.redeliverEvent as { id: string }).id))).toEqual(
      new Set([String(rows[1].id)]),
    );
    const trail = await fixture.database.db('audit_events').where({ action: 'webhook_delivery.redeliver' });
    expect(trail).toHaveLength(21);
    const details = (row: { details: unknown }) =>
      (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as { queued: boolean };
    expect(trail.filter((row) => details(row).queued)).toHaveLength(1);
  });
});

describe('redeliverEvent on a delivery backing off brings its next attempt to now', () => {
  const fixture = useToolService(TEST_LIMITS.webhookTools);
  // Far beyond the waits below: a post that arrives was woken by the tool, not found by a poll.
  const POLL_MS = 600_000;
  const BACK_OFF_MS = 3_600_000;
  /** A generous bound on each wait (a busy machine), well inside the poll interval. */
  const WITHIN_MS = 30_000;
  /** Each test's own limit of time: its waits, each at most WITHIN_MS. */
  const TEST_TIMEOUT_MS = 5 * WITHIN_MS;
  let worker: JobLoop | undefined;
  afterAll(async () => worker?.stop());

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const posts = (path: string) => receiver.received.filter((entry) => entry.path === path);
  async function until(what: string, condition: () => Promise<boolean> | boolean): Promise<void> {
    const deadline = Date.now() + WITHIN_MS;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`not within ${WITHIN_MS} ms: ${what}`);
      await sleep(25);
    }
  }

  it(
    'posts it within seconds once asked, not at its back-off nor at the next poll; still one delivery',
    async () => {
      const path = '/backing-off';
      receiver.script(path, ['fail']);
      const endpoint = await createEndpoint(fixture, 'demo-partner-key', { url: receiver.url(path) });
      const db = fixture.database.db;
      const partnerId = String((await db('partners').where({ name: 'Demo Retail' }).first()).id);
      const [event] = await db.transaction((trx) =>
        appendEvents(trx, partnerId, [{ type: 'payment.recorded', occurredAt: new Date(), data: { n: 6 } }]),
      );
      const deliveries = () => db('webhook_deliveries').where({ endpoint_id: endpoint.id, event_id: event!.id });
      worker = startWebhookJobs({
        db,
        logger: createLogger('silent'),
        now: () => new Date(),
        production: false,
        settings: { scheduleMs: [BACK_OFF_MS], jitter: 0, pollMs: POLL_MS, timeoutMs: 5000 },
      });
      // The worker's first look (at its start) posts it; the receiver fails it: back off for an hour.
      await until('the first attempt recorded', async () => {
        const [row] = await deliveries(); // none until the fan-out has written it
        return row?.attempt_count === 1 && row.claimed_until === null;
      });
      const [backingOff] = await deliveries();
      expect(backingOff.status).toBe('pending');
      expect(backingOff.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + BACK_OFF_MS / 2);
      expect(posts(path)).toHaveLength(1);

      // The receiver is fixed (its script is used up: it answers 200); the partner asks for the event again.
      const answer = await fixture.as('demo-partner-key')(
        `mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { id status nextAttemptAt } }`,
        { e: event!.id, w: endpoint.id },
      );
      expect(codes(answer)).toEqual([]);
      const redelivered = answer.data!.redeliverEvent as { id: string; nextAttemptAt: number };
      expect(redelivered.id).toBe(String(backingOff.id));
      expect(redelivered.nextAttemptAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));

      await until('the redelivery posted', () => posts(path).length === 2);
      await until('the delivery recorded delivered', async () => (await deliveries())[0].status === 'delivered');
      expect(await deliveries()).toHaveLength(1);
      expect(posts(path)[1]!.headers['webhook-id']).toBe(event!.id);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "posts a test delivery as soon as it is queued, not at the worker's next poll",
    async () => {
      const path = '/tested-now';
      const endpoint = await createEndpoint(fixture, 'demo-partner-key', { url: receiver.url(path) });
      const answer = await fixture.as('demo-partner-key')(aliasedTests(endpoint.id, 1));
      expect(codes(answer)).toEqual([]);
      await until('the test posted', () => posts(path).length === 1);
    },
    TEST_TIMEOUT_MS,
  );
});
