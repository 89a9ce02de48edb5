// The proof that several instances behave as one (docs/operating.md#scaling): three real service processes
// (src/main.ts) on one Postgres database, behind a round-robin TCP balancer (support/balancer.ts) that
// health-checks /readyz and retries only what never reached a service: a rate limit, tokens and
// revocations, idempotent payments, a payment reference paid once, the event feed, webhook deliveries,
// a drain, and one order's lock timeline (reminder, lock, unlock, release) written and delivered once
// with every instance's scheduler claiming. Postgres only: the embedded database is one process's.
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { type Client, createClient } from 'graphql-ws';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { DEMO_CLERK_ID, DEMO_DEVICE_IMEI, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { type Balancer, startBalancer } from '../support/balancer.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { inParallel } from '../support/parallel.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { type ServiceProcess, startServiceProcess } from '../support/serviceProcess.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const RATE_LIMIT = 400;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** One request on a connection of its own (no keep-alive), so a balancer spreads consecutive requests. */
function send(
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const url = new URL(path, baseUrl);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {}
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

const graphql = (baseUrl: string, key: string, query: string, variables?: Record<string, unknown>) =>
  send(baseUrl, '/graphql', { method: 'POST', headers: { 'x-api-key': key }, body: { query, variables } });

const inStorePayment = (retailKey: string, order: { merchant: string; clerk: string; id: string; currency: string }) =>
  `/v1/record-customer-payment.php?key=${retailKey}&merchantId=${order.merchant}&salesClerkId=${order.clerk}` +
  `&financeOrderId=${order.id}&amount=0.10&currency=${order.currency}`;
const DEMO_ORDER = { merchant: DEMO_MERCHANT_ID, clerk: DEMO_CLERK_ID, id: DEMO_ORDER_ID, currency: 'USD' };
const OTHER_ORDER = { merchant: '2000001', clerk: '6001', id: '5000002', currency: 'MXN' };

/** Every instance's environment, the one started in place of a drained instance's too. */
const SERVICE_ENV = {
  // Every instance signs and verifies tokens with the same keys (docs/operating.md#scaling).
  TOKEN_SIGNING_KEYS: 'proof:many-instances-signing-secret-0123456789',
  RATE_LIMIT_REQUESTS: String(RATE_LIMIT),
  // Long enough that no window ends, or refills, while the suite runs.
  RATE_LIMIT_WINDOW_SECONDS: '3600',
  AUTH_FAILURE_LIMIT: '1000',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_RETRY_SCHEDULE_MS: '100,100,100,100',
  LOG_LEVEL: 'info',
  // Longer than the balancer's health-check interval (200 ms).
  DRAIN_DELAY_MS: '800',
};

describe.runIf(onPostgres)('three instances behind a balancer, one database', () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const cleanups: Array<() => Promise<unknown>> = [];
  const instances: ServiceProcess[] = [];
  let balancer: Balancer;

  /** A new API key, made by the operator through the balancer; its secret and id. */
  async function createKey(input: Record<string, unknown>): Promise<{ id: string; secret: string }> {
    const answer = await graphql(
      balancer.url,
      'demo-operator-key',
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }',
      { input },
    );
    expect(answer.body.errors, `${answer.status} ${JSON.stringify(answer.body)}`).toBeUndefined();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { id: answer.body.data.createApiKey.apiKey.id, secret: answer.body.data.createApiKey.secret };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    cleanups.push(() => database.destroy());
    receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    instances.push(
      ...(await Promise.all([0, 1, 2].map(() => startServiceProcess(database.url!, cleanups, SERVICE_ENV)))),
    );
    balancer = await startBalancer(
      instances.map((instance) => ({ host: '127.0.0.1', port: Number(new URL(instance.baseUrl).port) })),
    );
    cleanups.push(() => balancer.close());
    expect(balancer.healthy()).toEqual([0, 1, 2]);
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  let rateKey: { id: string; secret: string };

  it('holds one key to exactly RATE_LIMIT_REQUESTS in total across the three', async () => {
    rateKey = await createKey({ kind: 'PARTNER', partnerId: '2', label: 'rate limit proof' });
    const before = [...balancer.stats.served];
    const answers = await inParallel(1000, 12, () => send(balancer.url, `/v1/list-clerks.php?key=${rateKey.secret}`));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1000 - RATE_LIMIT);
    // Spread over all three: each instance answered about a third of them.
    const served = balancer.stats.served.map((count, index) => count - before[index]!);
    for (const count of served) expect(count).toBeGreaterThan(250);
  }, 120_000);

  it('accepts a token bought on one instance on the others, and refuses a revoked key on all at once', async () => {
    const vendorKey = await createKey({ kind: 'VENDOR', paymentVendorId: '1', label: 'token proof' });
    const bought = await send(instances[0]!.baseUrl, '/payments/v1/token', {
      method: 'POST',
      body: { apiKey: vendorKey.secret },
    });
    expect(bought.status).toBe(200);
    const token: string = bought.body.data.access_token;
    const notify = (instance: ServiceProcess, reference: string) =>
      send(instance.baseUrl, '/payments/v1/notification', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: {
          paymentVendor: 'demo-vendor',
          amount: '0.10',
          currency: 'USD',
          reference,
          financeOrderId: DEMO_ORDER_ID,
        },
      });
    expect((await notify(instances[1]!, 'proof-token-b')).status).toBe(200);
    expect((await notify(instances[2]!, 'proof-token-c')).status).toBe(200);

    // Revoked through instance B: the next request on every instance is refused, token and key alike.
    for (const [key, instance] of [
      [vendorKey, instances[1]!],
      [rateKey, instances[2]!],
    ] as const) {
      const revoked = await graphql(
        instance.baseUrl,
        'demo-operator-key',
        `mutation { revokeApiKey(id: "${key.id}") { active } }`,
      );
      expect(revoked.body.data.revokeApiKey.active).toBe(false);
    }
    const refusals = await Promise.all(
      instances.flatMap((instance) => [
        notify(instance, `proof-token-after-${instance.baseUrl}`),
        send(instance.baseUrl, '/payments/v1/token', { method: 'POST', body: { apiKey: vendorKey.secret } }),
        send(instance.baseUrl, `/v1/list-clerks.php?key=${rateKey.secret}`),
      ]),
    );
    expect(refusals.map((answer) => answer.status)).toEqual(Array(9).fill(401));
    expect(refusals[0]!.body.error.message).toMatch(/revoked/);
  });

  it('records each of 300 payments exactly once when its idempotency key reaches two instances at once', async () => {
    const payments = async () => Number((await database.db('payments').count({ n: '*' }))[0]!.n);
    const before = await payments();
    const pairs = await inParallel(300, 6, async (index) => {
      const path =
        index % 2 ? inStorePayment('other-retail-key', OTHER_ORDER) : inStorePayment('demo-retail-key', DEMO_ORDER);
      const headers = { 'idempotency-key': `proof-pair-${index}` };
      return Promise.all([
        send(instances[index % 3]!.baseUrl, path, { headers }),
        send(instances[(index + 1) % 3]!.baseUrl, path, { headers }),
      ]);
    });
    for (const [first, second] of pairs) {
      expect([first.status, second.status]).toEqual([200, 200]);
      // One payment, answered twice: the second answer is the first one's replay.
      expect(second.body).toEqual(first.body);
    }
    expect(new Set(pairs.map(([first]) => first.body.payment.id)).size).toBe(300);
    expect((await payments()) - before).toBe(300);
    const check = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/ledger-check.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: database.url!, LOG_LEVEL: 'silent' },
    });
    expect(check.stdout).toContain('ledger is consistent');
  }, 120_000);

  it('pays a payment reference exactly once when 50 notifications quoting it reach the three instances at once', async () => {
    const vendorKey = await createKey({ kind: 'VENDOR', paymentVendorId: '1', label: 'payment reference proof' });
    const bought = await send(instances[0]!.baseUrl, '/payments/v1/token', {
      method: 'POST',
      body: { apiKey: vendorKey.secret },
    });
    const token: string = bought.body.data.access_token;
    const created = await graphql(
      balancer.url,
      'demo-partner-key',
      'mutation { createPaymentReference(input: { financeOrderId: "4000012", amount: "1.00" }) { code } }',
    );
    expect(created.body.errors, JSON.stringify(created.body)).toBeUndefined();
    const code: string = created.body.data.createPaymentReference.code;
    const payments = async () => Number((await database.db('payments').count({ n: '*' }))[0]!.n);
    const before = await payments();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        send(instances[index % 3]!.baseUrl, '/payments/v1/notification', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: {
            paymentVendor: 'demo-vendor',
            amount: '1.00',
            currency: 'USD',
            reference: `proof-payment-reference-${index}`,
            financeOrderId: '4000012',
            paymentReference: code,
          },
        }),
      ),
    );
    const paid = answers.filter((answer) => answer.status === 200);
    expect(paid).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => [answer.status, answer.body.error?.code])).toEqual(
      Array(49).fill([409, 'PAYMENT_REFERENCE_ALREADY_PAID']),
    );
    expect((await payments()) - before).toBe(1);
    const reference = await database.db('payment_references').where({ code }).first();
    expect(reference).toMatchObject({ status: 'PAID', payment_id: String(paid[0]!.body.data.paymentId) });
  });

  it('shows a subscriber on instance A the payments made through B and C', async () => {
    const subscriber: { client: Client; events: Array<{ type: string; data: any }> } = {
      client: createClient({
        url: `${instances[0]!.baseUrl.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'X-Api-Key': 'demo-partner-key' },
        retryAttempts: 0,
      }),
      events: [],
    };
    cleanups.push(async () => subscriber.client.dispose());
    let acknowledged = false;
    subscriber.client.on('connected', () => {
      acknowledged = true;
    });
    subscriber.client.subscribe(
      { query: 'subscription { events(types: [PAYMENT_RECORDED]) { type data } }' },
      {
        next: ({ data }) => subscriber.events.push((data as any).events),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    await vi.waitFor(() => expect(acknowledged).toBe(true));
    // The subscription is live once its instance listens; a payment made before that is not in the feed.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // payment.recorded's ids are the graph's, strings (decisions.md 41).
    const paid: string[] = [];
    for (const instance of [instances[1]!, instances[2]!]) {
      const answer = await send(instance.baseUrl, inStorePayment('demo-retail-key', DEMO_ORDER), {
        headers: { 'idempotency-key': `proof-feed-${instance.baseUrl}` },
      });
      expect(answer.status).toBe(200);
      paid.push(String(answer.body.payment.id));
    }
    await vi.waitFor(
      () =>
        expect(subscriber.events.map((event) => event.data.payment.id).sort()).toEqual(expect.arrayContaining(paid)),
      { timeout: 5000, interval: 20 },
    );
  });

  it('makes each webhook delivery attempt exactly once, whichever instance claims it', async () => {
    const endpoint = await graphql(
      balancer.url,
      'demo-partner-key',
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
      { input: { url: receiver.url('/proof'), eventTypes: ['PAYMENT_RECORDED'] } },
    );
    expect(endpoint.body.errors, JSON.stringify(endpoint.body)).toBeUndefined();
    // The first three posts fail: those deliveries are retried, by whichever worker claims them next.
    receiver.script('/proof', ['fail', 'fail', 'fail']);
    const paid = await inParallel(20, 4, async (index) => {
      const answer = await send(balancer.url, inStorePayment('demo-retail-key', DEMO_ORDER), {
        headers: { 'idempotency-key': `proof-webhook-${index}` },
      });
      expect(answer.status).toBe(200);
      // payment.recorded's ids are the graph's, strings (decisions.md 41).
      return String(answer.body.payment.id);
    });
    const posts = () => receiver.received.filter((request) => request.path === '/proof');
    const deliveredPayments = () =>
      posts()
        .filter((request) => request.answer === 'ok')
        .map((request) => JSON.parse(request.body).data.payment.id as string);
    await vi.waitFor(() => expect(deliveredPayments().sort()).toEqual([...paid].sort()), {
      timeout: 20_000,
      interval: 50,
    });
    // The worker records an attempt after the receiver has answered it: wait for the last records.
    const endpointId = endpoint.body.data.createWebhookEndpoint.endpoint.id;
    await vi.waitFor(
      async () =>
        expect(
          await database
            .db('webhook_deliveries')
            .where({ endpoint_id: endpointId, status: 'delivered' })
            .count({ n: '*' }),
        ).toEqual([{ n: '20' }]),
      { timeout: 5000, interval: 50 },
    );
    // Every post is one recorded attempt and every attempt one post; each event delivered once.
    const byEvent = new Map<string, { posts: number; ok: number }>();
    for (const request of posts()) {
      const entry = byEvent.get(request.headers['webhook-id']!) ?? { posts: 0, ok: 0 };
      entry.posts += 1;
      if (request.answer === 'ok') entry.ok += 1;
      byEvent.set(request.headers['webhook-id']!, entry);
    }
    const attempts = await database
      .db('webhook_deliveries as d')
      .join('webhook_attempts as a', function () {
        this.on('a.partner_id', 'd.partner_id').andOn('a.delivery_id', 'd.id');
      })
      .where('d.endpoint_id', endpointId)
      .groupBy('d.event_id')
      .select('d.event_id', database.db.raw('count(*)::int as attempts'));
    expect(attempts).toHaveLength(20);
    for (const row of attempts) {
      expect(byEvent.get(String(row.event_id))).toEqual({ posts: row.attempts, ok: 1 });
    }
    expect(posts()).toHaveLength(23);
  });

  it('drains an instance SIGTERMed under load: what it accepted completes, the others take over', async () => {
    const retailKey = await createKey({ kind: 'RETAIL', partnerId: '1', label: 'drain proof' });
    const partnerKey = await createKey({ kind: 'PARTNER', partnerId: '1', label: 'drain proof' });
    const payments = async () => Number((await database.db('payments').count({ n: '*' }))[0]!.n);
    const before = await payments();
    const victim = instances[1]!;
    let completed = 0;
    let signalled = false;
    let readinessAfterSignal: Promise<string> | undefined;
    const answers = await inParallel(300, 10, async (index) => {
      if (completed >= 100 && !signalled) {
        signalled = true;
        victim.child.kill('SIGTERM');
        // For DRAIN_DELAY_MS it still serves, while /readyz tells the balancer it is draining.
        readinessAfterSignal = vi.waitFor(
          async () => {
            const readiness = await send(victim.baseUrl, '/readyz');
            expect(readiness.status).toBe(503);
            return readiness.body.status;
          },
          { timeout: 700, interval: 20 },
        );
      }
      const answer =
        index % 2
          ? await send(
              balancer.url,
              `/v1/lookup-customer.php?key=${partnerKey.secret}&customerLocator=${DEMO_DEVICE_IMEI}`,
            )
          : await send(
              balancer.url,
              inStorePayment(retailKey.secret, DEMO_ORDER).replace('amount=0.10', 'amount=0.01'),
              { headers: { 'idempotency-key': `proof-drain-${index}` } },
            );
      completed += 1;
      return answer;
    });
    expect(signalled).toBe(true);
    expect(await readinessAfterSignal).toBe('draining');
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body)).toEqual([]);
    expect(await victim.exited).toBe(0);
    const log = victim.output();
    const drainingAt = log.indexOf('draining');
    expect(drainingAt).toBeGreaterThan(-1);
    // It answered requests after the signal (during the drain delay, and those in flight when it closed).
    const afterSignal = log
      .slice(drainingAt)
      .split('\n')
      .filter((line) => line.includes('"msg":"request"'));
    expect(afterSignal.length).toBeGreaterThan(0);
    expect(log).toContain('"msg":"stopped"');
    expect(balancer.healthy()).toEqual([0, 2]);
    expect((await payments()) - before).toBe(150);
  }, 120_000);
  it("writes each event of one order's lock timeline once, and delivers each once, with three schedulers claiming", async () => {
    // The drain above stopped an instance: another takes its place, so three schedulers claim the instants.
    const running = instances.filter(
      (instance) => instance.child.exitCode === null && instance.child.signalCode === null,
    );
    while (running.length < 3) running.push(await startServiceProcess(database.url!, cleanups, SERVICE_ENV));
    const [a, b, c] = running as [ServiceProcess, ServiceProcess, ServiceProcess];
    const WAIT = { timeout: 30_000, interval: 100 };
    const DEMO_PARTNER = '1';
    const ask = async (instance: ServiceProcess, key: string, query: string, variables?: Record<string, unknown>) => {
      const answer = await graphql(instance.baseUrl, key, query, variables);
      expect(answer.body.errors, `${answer.status} ${JSON.stringify(answer.body)}`).toBeUndefined();
      expect(answer.status).toBe(200);
      return answer.body.data;
    };
    /** Every instance holds the partner's policy in memory, refreshed by a notification: waits until each answers it. */
    const everyInstanceSees = (query: string, check: (partner: any) => void) =>
      vi.waitFor(async () => {
        for (const instance of running) check((await ask(instance, 'demo-operator-key', query)).partner);
      }, WAIT);
    const lastSequence = async () =>
      String((await database.db('events').max({ sequence: 'sequence' }).first())?.sequence ?? '0');
    const since = await lastSequence();
    /** The demo partner's device events and payoffs since this test began, in log order. */
    const timelineEvents = async () =>
      (await database
        .db('events')
        .where({ partner_id: DEMO_PARTNER })
        .where('sequence', '>', since)
        .where((where) => where.where('type', 'like', 'device.%').orWhere('type', 'finance_order.paid_off'))
        .orderBy('sequence')
        .select('id', 'sequence', 'type', 'data')) as Array<{ id: string; sequence: string; type: string; data: any }>;
    const ofDemoOrder = (events: Array<{ type: string; data: any }>) =>
      events
        .filter((event) => String(event.data.financeOrder?.id ?? event.data.id) === DEMO_ORDER_ID)
        .map((event) => [event.type, event.data.daysLeft ?? null]);
    /** Waits until the schedulers have claimed every instant of the partner due now: what they write is written. */
    const caughtUp = () =>
      vi.waitFor(async () => {
        const [due] = await database
          .db('lock_timeline')
          .where({ partner_id: DEMO_PARTNER, state: 'pending' })
          .where('fire_at', '<=', database.db.fn.now())
          .count({ n: '*' });
        expect(Number(due!.n)).toBe(0);
      }, WAIT);

    await ask(
      a,
      'demo-operator-key',
      'mutation($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }',
      { input: { partnerId: DEMO_PARTNER, lockGraceHours: 48, lockReminderDays: [3, 1] } },
    );
    await everyInstanceSees(
      `{ partner(id: "${DEMO_PARTNER}") { settings { lockGraceHours lockReminderDays } } }`,
      (partner) => expect(partner.settings).toEqual({ lockGraceHours: 48, lockReminderDays: [3, 1] }),
    );
    const created = await ask(
      b,
      'demo-partner-key',
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { id } } }',
      {
        input: {
          url: receiver.url('/timeline'),
          format: 'STANDARD',
          eventTypes: ['DEVICE_LOCK_UPCOMING', 'DEVICE_LOCKED', 'DEVICE_UNLOCKED', 'DEVICE_RELEASED'],
        },
      },
    );
    const endpointSince = await lastSequence();
    const lockAt: number = (await ask(c, 'demo-operator-key', `{ financeOrder(id: "${DEMO_ORDER_ID}") { lockAt } }`))
      .financeOrder.lockAt;
    // The settings' transaction moved the order's pending lock to the new lockAt (paid-through + 48 hours).
    const [lock] = await database
      .db('lock_timeline')
      .where({ partner_id: DEMO_PARTNER, finance_order_id: DEMO_ORDER_ID, kind: 'lock', state: 'pending' })
      .select('lock_at');
    expect(lock.lock_at.getTime()).toBe(lockAt * 1000);

    const moveClockTo = async (through: ServiceProcess, now: number) => {
      await ask(
        through,
        'demo-operator-key',
        'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }',
        { input: { partnerId: DEMO_PARTNER, now } },
      );
      await everyInstanceSees(`{ partner(id: "${DEMO_PARTNER}") { sandboxClock { now } } }`, (partner) =>
        expect(partner.sandboxClock?.now).toBeGreaterThanOrEqual(now),
      );
    };
    await moveClockTo(a, lockAt - 3 * 86_400);
    await caughtUp();
    expect(ofDemoOrder(await timelineEvents())).toEqual([['device.lock_upcoming', 3]]);
    await moveClockTo(b, lockAt);
    await caughtUp();
    // The 1-day reminder is due with the lock: overtaken, it is skipped; the lock is written once.
    expect(ofDemoOrder(await timelineEvents())).toEqual([
      ['device.lock_upcoming', 3],
      ['device.locked', null],
    ]);

    const pay = async (through: ServiceProcess, amount: string) => {
      const answer = await send(
        through.baseUrl,
        inStorePayment('demo-retail-key', DEMO_ORDER).replace('amount=0.10', `amount=${amount}`),
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.payment as { fullyPaid: boolean; nextPayment: number | null };
    };
    expect(await pay(c, '18.00')).toMatchObject({ fullyPaid: false, nextPayment: lockAt + 30 * 86_400 });
    const { remainingBalance } = (
      await ask(b, 'demo-operator-key', `{ financeOrder(id: "${DEMO_ORDER_ID}") { remainingBalance } }`)
    ).financeOrder;
    expect(await pay(a, remainingBalance)).toMatchObject({ fullyPaid: true, nextPayment: null });
    await caughtUp();
    // Completing (decisions.md 44): paid off, not released until the payoff's window closes.
    expect(ofDemoOrder(await timelineEvents())).toEqual([
      ['device.lock_upcoming', 3],
      ['device.locked', null],
      ['device.unlocked', null],
      ['finance_order.paid_off', null],
    ]);
    const { releaseAt } = (await ask(b, 'demo-operator-key', `{ financeOrder(id: "${DEMO_ORDER_ID}") { releaseAt } }`))
      .financeOrder;
    // The window closed: the instances' schedulers write the release once.
    await moveClockTo(c, releaseAt + 60);
    await caughtUp();
    const events = await timelineEvents();
    expect(ofDemoOrder(events)).toEqual([
      ['device.lock_upcoming', 3],
      ['device.locked', null],
      ['device.unlocked', null],
      ['finance_order.paid_off', null],
      ['device.released', null],
    ]);
    // No device event of the partner (its other orders' too, as the clock passed their instants) twice.
    const deviceEvents = events.filter((event) => event.type.startsWith('device.'));
    const told = deviceEvents.map((event) =>
      JSON.stringify([
        event.type,
        event.data.financeOrder.id,
        event.data.lockAt ?? event.data.financeOrder.lockAt,
        event.data.daysLeft,
      ]),
    );
    expect(new Set(told).size).toBe(told.length);

    // Each device event delivered once: one post per event id, each answered 2xx, each signed for this endpoint.
    const verifier = new Webhook(created.createWebhookEndpoint.secret);
    const posts = () => receiver.received.filter((request) => request.path === '/timeline');
    const expectedIds = deviceEvents
      .filter((event) => Number(event.sequence) > Number(endpointSince))
      .map((event) => event.id)
      .sort();
    await vi.waitFor(
      () =>
        expect(
          posts()
            .map((request) => request.headers['webhook-id'])
            .sort(),
        ).toEqual(expectedIds),
      WAIT,
    );
    // A worker records a delivery once its post is answered: once all are recorded, no post is still to come.
    await vi.waitFor(async () => {
      const deliveries = await database
        .db('webhook_deliveries')
        .where({ endpoint_id: created.createWebhookEndpoint.endpoint.id })
        .select('event_id', 'status');
      expect(deliveries.map((row) => [row.event_id, row.status]).sort()).toEqual(
        expectedIds.map((id) => [id, 'delivered']),
      );
    }, WAIT);
    expect(
      posts()
        .map((request) => request.headers['webhook-id'])
        .sort(),
    ).toEqual(expectedIds);
    for (const request of posts()) {
      expect(request.answer).toBe('ok');
      const body = verifier.verify(request.body, request.headers) as { type: string; data: unknown };
      const logged = deviceEvents.find((event) => event.id === request.headers['webhook-id'])!;
      expect(body).toMatchObject({ type: logged.type, data: logged.data });
    }
    expect(
      posts()
        .map((request) => JSON.parse(request.body) as { type: string; data: any })
        .filter((body) => body.data.financeOrder.id === DEMO_ORDER_ID)
        .map((body) => body.type)
        .sort(),
    ).toEqual(['device.lock_upcoming', 'device.locked', 'device.released', 'device.unlocked']);
  }, 180_000);
});
