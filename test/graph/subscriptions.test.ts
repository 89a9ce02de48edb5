// GraphQL subscriptions over WebSocket (graphql-ws on /graphql): events committed to the log reach
// the subscribers they concern, on this instance and (Postgres) on another; credentials, the per-key
// limit, the document limits and a subscriber that falls behind.
import { type Client, createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { Db } from '../../src/db/knex.js';
import { createDb } from '../../src/db/knex.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import type { EventTypeName } from '../../src/modules/events/rows.js';
import { metricsRegistry } from '../../src/ops/metrics.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { startTestService, TEST_LIMITS, type TestService } from '../support/service.js';

let database: TestDatabase;
let service: TestService;
let demoPartner: string;
let otherPartner: string;

beforeAll(async () => {
  database = await createTestDatabase();
  service = await startTestService(database.db);
  const partnerId = async (name: string) => String((await database.db('partners').where({ name }).first()).id);
  demoPartner = await partnerId('Demo Retail');
  otherPartner = await partnerId('Other Retail');
});
afterAll(async () => {
  await service?.close();
  await database?.destroy();
});

const wsUrl = (target: TestService) => `${target.baseUrl.replace(/^http/, 'ws')}/graphql`;

/**
 * Commits one event of the partner's in its own transaction, as a change would, and lets the log's
 * publication (sent in the next turn of the event loop) go out before the next commit: on the embedded
 * database a loop of commits resolves in microtasks alone and would never give that turn.
 */
async function commitEvent(db: Db, partnerId: string, type: EventTypeName, data: unknown) {
  const rows = await db.transaction((trx) => appendEvents(trx, partnerId, [{ type, occurredAt: new Date(), data }]));
  await new Promise((resolve) => setImmediate(resolve));
  return rows;
}

interface Subscriber {
  received: any[];
  errors: unknown[];
  closed: { code: number; reason: string } | null;
  client: Client;
  complete: () => void;
}

const EVENTS = `subscription ($types: [EventType!], $partnerId: ID) {
  events(types: $types, partnerId: $partnerId) { id type occurredAt sequence data partner { name } }
}`;

/** Closes the subscribers' connections and waits until the service has let go of every one. */
async function closeAll(target: TestService, ...subscribers: Subscriber[]) {
  for (const subscriber of subscribers) await subscriber.client.dispose();
  await vi.waitFor(() => expect(target.listeningSubscribers()).toBe(0));
}

/** Subscribes with graphql-ws's own client; resolves once the service counts the subscription as listening. */
async function subscribe(
  target: TestService,
  connectionParams: Record<string, unknown>,
  variables: Record<string, unknown> = {},
  query = EVENTS,
): Promise<Subscriber> {
  const before = target.listeningSubscribers();
  const subscriber = { received: [], errors: [], closed: null } as unknown as Subscriber;
  subscriber.client = createClient({
    url: wsUrl(target),
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        subscriber.closed = { code, reason: String(reason) };
      },
    },
  });
  subscriber.complete = subscriber.client.subscribe(
    { query, variables },
    {
      next: (value) => subscriber.received.push(value),
      error: (error) => subscriber.errors.push(error),
      complete: () => undefined,
    },
  );
  await vi.waitFor(() => {
    if (subscriber.errors.length > 0 || subscriber.received.length > 0 || subscriber.closed) return;
    expect(target.listeningSubscribers()).toBeGreaterThan(before);
  });
  return subscriber;
}

describe('Subscription.events', () => {
  it("delivers an event within a second of its commit, with the log's id, type, time and data", async () => {
    const subscriber = await subscribe(service, { 'X-Api-Key': 'demo-partner-key' });
    const [written] = await commitEvent(database.db, demoPartner, 'payment.recorded', { payment: { id: 7 } });
    const committedAt = Date.now();
    await vi.waitFor(() => expect(subscriber.received).toHaveLength(1), { timeout: 1000, interval: 5 });
    expect(Date.now() - committedAt).toBeLessThan(1000);
    expect(subscriber.received[0]).toEqual({
      data: {
        events: {
          id: written!.id,
          type: 'PAYMENT_RECORDED',
          occurredAt: Math.floor(written!.occurred_at.getTime() / 1000),
          sequence: String(written!.sequence),
          data: { payment: { id: 7 } },
          partner: { name: 'Demo Retail' },
        },
      },
    });
    await closeAll(service, subscriber);
  });

  it("never delivers another partner's event; operators hear every partner, or the one they name", async () => {
    const demo = await subscribe(service, { authorization: 'Bearer demo-partner-key' });
    const operatorAll = await subscribe(service, { 'x-api-key': 'demo-operator-key' });
    const operatorOther = await subscribe(service, { 'X-API-KEY': 'demo-operator-key' }, { partnerId: otherPartner });
    const [others] = await commitEvent(database.db, otherPartner, 'transaction.created', { n: 'other' });
    const [demos] = await commitEvent(database.db, demoPartner, 'transaction.created', { n: 'demo' });
    // Events fan out in commit order: once the demo partner's arrives, the other's was passed over.
    await vi.waitFor(() => expect(demo.received).toHaveLength(1));
    await vi.waitFor(() => expect(operatorAll.received).toHaveLength(2));
    await vi.waitFor(() => expect(operatorOther.received).toHaveLength(1));
    expect(demo.received[0].data.events.id).toBe(demos!.id);
    expect(operatorAll.received.map((value) => value.data.events.id)).toEqual([others!.id, demos!.id]);
    expect(operatorOther.received[0].data.events.id).toBe(others!.id);
    await closeAll(service, demo, operatorAll, operatorOther);
  });

  it("refuses a partner key's subscription to another partner's events", async () => {
    const subscriber = await subscribe(service, { 'X-Api-Key': 'demo-partner-key' }, { partnerId: otherPartner });
    await vi.waitFor(() => expect(subscriber.received).toHaveLength(1));
    expect(subscriber.received[0]).toEqual({
      errors: [expect.objectContaining({ message: `this key cannot read the events of partner ${otherPartner}` })],
    });
    expect(subscriber.received[0].errors[0].extensions.code).toBe('FORBIDDEN');
    await closeAll(service, subscriber);
  });

  it('hears only the types asked for', async () => {
    const subscriber = await subscribe(
      service,
      { 'X-Api-Key': 'demo-partner-key' },
      { types: ['FINANCE_ORDER_PAID_OFF'] },
    );
    await commitEvent(database.db, demoPartner, 'payment.recorded', {});
    const [paidOff] = await commitEvent(database.db, demoPartner, 'finance_order.paid_off', {});
    await vi.waitFor(() => expect(subscriber.received).toHaveLength(1));
    expect(subscriber.received[0].data.events).toMatchObject({ id: paidOff!.id, type: 'FINANCE_ORDER_PAID_OFF' });
    await closeAll(service, subscriber);
  });

  it('counts open subscriptions in the graphql_subscriptions_open gauge', async () => {
    const gauge = async () =>
      (await metricsRegistry.getSingleMetric('graphql_subscriptions_open')!.get()).values[0]!.value;
    const before = await gauge();
    const first = await subscribe(service, { 'X-Api-Key': 'demo-partner-key' });
    const second = await subscribe(service, { 'X-Api-Key': 'demo-operator-key' });
    expect(await gauge()).toBe(before + 2);
    await closeAll(service, first, second);
    await vi.waitFor(async () => expect(await gauge()).toBe(before));
  });

  it('takes the credential from the upgrade request too', async () => {
    const socket = new WebSocket(wsUrl(service), 'graphql-transport-ws', {
      headers: { Authorization: 'Bearer demo-partner-key' },
    });
    const messages: any[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await vi.waitFor(() => expect(messages).toEqual([{ type: 'connection_ack' }]));
    socket.close();
  });
});

describe('refused connections', () => {
  /** Opens a raw graphql-ws connection and sends connection_init; resolves with the close code and reason. */
  async function refusal(payload: Record<string, unknown> | undefined) {
    const socket = new WebSocket(wsUrl(service), 'graphql-transport-ws');
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload }));
    return closed;
  }

  it('closes with 4403 Forbidden for a bad credential, none at all, or a retail or vendor key', async () => {
    expect(await refusal({ 'X-Api-Key': 'not-a-key' })).toEqual({
      code: 4403,
      reason: 'the API key is not valid (unknown, revoked or expired)',
    });
    expect((await refusal(undefined)).code).toBe(4403);
    expect(await refusal({ 'X-Api-Key': 'demo-retail-key' })).toEqual({
      code: 4403,
      reason: 'a retail key cannot subscribe to events; use a partner or operator key',
    });
    expect((await refusal({ Authorization: 'Bearer demo-vendor-key' })).code).toBe(4403);
    expect((await refusal({ Authorization: 'Basic abc' })).code).toBe(4403);
  });
});

describe('failed authentications', () => {
  it('count against the client address as HTTP reads it (TRUST_PROXY), then are refused with 1013', async () => {
    const guarded = await startTestService(database.db, {
      trustProxy: true,
      limits: { ...TEST_LIMITS, authFailuresPerAddress: { limit: 2, windowSeconds: 300 } },
    });
    const attempt = async (forwardedFor: string) => {
      const socket = new WebSocket(wsUrl(guarded), 'graphql-transport-ws', {
        headers: { 'X-Forwarded-For': forwardedFor },
      });
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
      );
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init', payload: { 'X-Api-Key': 'not-a-key' } }));
      return closed;
    };
    try {
      expect((await attempt('203.0.113.9')).code).toBe(4403);
      expect((await attempt('203.0.113.9')).code).toBe(4403);
      const refused = await attempt('203.0.113.9');
      expect(refused.code).toBe(1013);
      expect(refused.reason).toMatch(/^too many failed authentications/);
      // Another client behind the same proxy is not refused for it.
      expect((await attempt('198.51.100.7')).code).toBe(4403);
    } finally {
      await guarded.close();
    }
  });
});

describe('limits', () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService(database.db, {
      limits: {
        ...TEST_LIMITS,
        graphql: { ...TEST_LIMITS.graphql, maxAliases: 2 },
        subscriptions: { perKey: 2, maxQueuedEvents: 3, maxBufferedBytes: 1024 },
      },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('allows SUBSCRIPTIONS_PER_KEY subscriptions per key, and another once one completes', async () => {
    const first = await subscribe(limited, { 'X-Api-Key': 'other-partner-key' });
    const second = await subscribe(limited, { 'X-Api-Key': 'other-partner-key' });
    const third = await subscribe(limited, { 'X-Api-Key': 'other-partner-key' });
    await vi.waitFor(() => expect(third.errors).toHaveLength(1));
    expect(third.errors[0]).toEqual([
      expect.objectContaining({
        message: 'this key has 2 subscriptions open, the limit (SUBSCRIPTIONS_PER_KEY); complete one first',
        extensions: { code: 'RATE_LIMITED' },
      }),
    ]);
    // Another key is counted apart.
    const operator = await subscribe(limited, { 'X-Api-Key': 'demo-operator-key' });
    expect(operator.errors).toEqual([]);
    await first.client.dispose();
    await vi.waitFor(() => expect(limited.listeningSubscribers()).toBe(2));
    const fourth = await subscribe(limited, { 'X-Api-Key': 'other-partner-key' });
    expect(fourth.errors).toEqual([]);
    expect(limited.listeningSubscribers()).toBe(3);
    await closeAll(limited, second, third, operator, fourth);
  });

  it('applies the document limits, and carries subscriptions only', async () => {
    const aliased = await subscribe(
      limited,
      { 'X-Api-Key': 'demo-partner-key' },
      {},
      'subscription { events { a: id b: id c: id } }',
    );
    const query = await subscribe(limited, { 'X-Api-Key': 'demo-partner-key' }, {}, '{ viewer { kind } }');
    await vi.waitFor(() => expect(aliased.errors).toHaveLength(1));
    await vi.waitFor(() => expect(query.errors).toHaveLength(1));
    expect(aliased.errors[0]).toEqual([
      expect.objectContaining({
        message: 'the operation uses 3 aliases, more than the limit of 2 (GRAPHQL_MAX_ALIASES)',
      }),
    ]);
    expect(query.errors[0]).toEqual([
      expect.objectContaining({ message: 'the WebSocket carries subscriptions only: send a query over HTTP' }),
    ]);
    await closeAll(limited, aliased, query);
  });

  it('disconnects a subscriber that falls behind, with close code 1008 and the reason', async () => {
    const socket = new WebSocket(wsUrl(limited), 'graphql-transport-ws');
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
    const acked = new Promise((resolve) => socket.once('message', resolve));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { 'X-Api-Key': 'demo-partner-key' } }));
    await acked;
    const before = limited.listeningSubscribers();
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { events { data } }' } }));
    await vi.waitFor(() => expect(limited.listeningSubscribers()).toBe(before + 1));
    // The client stops reading: the socket's buffers fill, then the subscriber's queue.
    (socket as unknown as { _socket: { pause: () => void; resume: () => void } })._socket.pause();
    const padding = 'x'.repeat(64 * 1024);
    while (limited.listeningSubscribers() > before) {
      await commitEvent(database.db, demoPartner, 'payment.recorded', { padding });
    }
    (socket as unknown as { _socket: { resume: () => void } })._socket.resume();
    expect(await closed).toEqual({
      code: 1008,
      reason: 'subscriber too slow: more than 3 events or 1024 bytes waiting',
    });
  });
});

describe('shutting down', () => {
  it("closes its subscribers' connections with 1001 when the service stops", async () => {
    const stopping = await startTestService(database.db);
    const subscriber = await subscribe(stopping, { 'X-Api-Key': 'demo-partner-key' });
    await stopping.close();
    await vi.waitFor(() => expect(subscriber.closed).toEqual({ code: 1001, reason: 'Going away' }));
    expect(stopping.listeningSubscribers()).toBe(0);
  });
});

describe.runIf(onPostgres)('on Postgres', () => {
  it('closes subscribers with 1012 when the listening connection is lost, and listens again for the next', async () => {
    const subscriber = await subscribe(service, { 'X-Api-Key': 'demo-partner-key' });
    await database.db.raw(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
    );
    await vi.waitFor(() =>
      expect(subscriber.closed).toEqual({
        code: 1012,
        reason: 'the live event feed was interrupted; read missed events with Query.events',
      }),
    );
    const again = await subscribe(service, { 'X-Api-Key': 'demo-partner-key' });
    const [written] = await commitEvent(database.db, demoPartner, 'payment.recorded', {});
    await vi.waitFor(() => expect(again.received).toHaveLength(1));
    expect(again.received[0].data.events.id).toBe(written!.id);
    await closeAll(service, subscriber, again);
  });

  it("delivers an event another instance's pool committed", async () => {
    const secondDb = createDb({ databaseUrl: database.url, dataDir: null, poolMax: 2 });
    const second = await startTestService(secondDb);
    try {
      const subscriber = await subscribe(second, { 'X-Api-Key': 'demo-partner-key' });
      const [written] = await commitEvent(database.db, demoPartner, 'payment.recorded', { across: true });
      const committedAt = Date.now();
      await vi.waitFor(() => expect(subscriber.received).toHaveLength(1), { timeout: 1000, interval: 5 });
      expect(Date.now() - committedAt).toBeLessThan(1000);
      expect(subscriber.received[0].data.events).toMatchObject({ id: written!.id, data: { across: true } });
      await closeAll(second, subscriber);
    } finally {
      await second.close();
      await secondDb.destroy();
    }
  });
});
