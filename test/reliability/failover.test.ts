// A database that fails over (docs/operating.md#failover): a pg_auto_failover formation (support/autoFailover.ts:
// monitor, primary, synchronous secondary), two service processes on its multi-host URL
// (target_session_attrs=read-write) with the secondary as their read replica, a steady stream of keyed
// payments and reads through both, and the primary's node killed (pg_autoctl and postmaster, SIGKILL)
// in the middle. Checked: the secondary is promoted; every answer is a 2xx or a 503 and none comes
// later than REQUEST_TIMEOUT_MS; payments succeed again after; each payment answered 2xx is in the
// database exactly once and its key's replay answers the first receipt; events and webhook deliveries
// continue; the ledger check is clean. Postgres only, and only where pg_autoctl is installed (.ci/run
// installs it). The failover time and the count of 503s are printed for the manual.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { seedDemoData } from '../../src/fixtures/demo.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { createLogger } from '../../src/kernel/logger.js';
import { type AutoFailoverFormation, pgAutoctl, startAutoFailover } from '../support/autoFailover.js';
import { onPostgres } from '../support/db.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { type ServiceProcess, startServiceProcess } from '../support/serviceProcess.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DATABASE = 'dfs_failover';
const REQUEST_TIMEOUT_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ORDERS = [
  { id: DEMO_ORDER_ID, merchantId: DEMO_MERCHANT_ID, salesClerkId: DEMO_CLERK_ID },
  { id: '4000012', merchantId: '1000201', salesClerkId: '5320' },
];
const paymentPath = (index: number) => {
  const order = ORDERS[index % ORDERS.length]!;
  const query = { key: 'demo-retail-key', merchantId: order.merchantId, salesClerkId: order.salesClerkId };
  return `/v1/record-customer-payment.php?${new URLSearchParams({ ...query, financeOrderId: order.id, amount: '0.10', currency: 'USD' })}`;
};

interface Answer {
  at: number;
  /** What was asked: a payment (its key), a REST read, a GraphQL read. */
  kind: 'payment' | 'rest read' | 'graphql read';
  status: number | 'no answer in time';
  ms: number;
  body?: any;
  key?: string;
}

/** One request, given REQUEST_TIMEOUT_MS and 5 s more before it counts as hung. */
async function ask(url: string, kind: Answer['kind'], init: RequestInit = {}, key?: string): Promise<Answer> {
  const at = Date.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS + 5000) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { at, kind, status: response.status, ms: Date.now() - at, body, key };
  } catch {
    return { at, kind, status: 'no answer in time', ms: Date.now() - at, key };
  }
}

/** A GraphQL answer that failed only because the database was away counts as the 503 it stands for. */
const unavailableInBody = (answer: Answer) =>
  answer.kind === 'graphql read' &&
  answer.status === 200 &&
  Array.isArray(answer.body?.errors) &&
  answer.body.errors.every((error: any) => error.extensions?.code === 'SERVICE_UNAVAILABLE');
const succeeded = (answer: Answer) =>
  typeof answer.status === 'number' && answer.status < 300 && !answer.body?.errors && !unavailableInBody(answer);
const unavailable = (answer: Answer) => answer.status === 503 || unavailableInBody(answer);

describe.runIf(onPostgres && pgAutoctl() !== null)('a database that fails over (pg_auto_failover)', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let formation: AutoFailoverFormation;
  let db: Db;
  let receiver: Receiver;
  let instances: ServiceProcess[];

  beforeAll(async () => {
    const startedAt = Date.now();
    formation = await startAutoFailover();
    const formedAt = Date.now();
    cleanups.push(() => formation.destroy());
    const admin = createDb({ databaseUrl: formation.nodeUrl(0, 'postgres'), dataDir: null });
    await admin.raw('create database ??', [DATABASE]).finally(() => admin.destroy());
    // The test's own pool is on the failover URL too: it follows the primary like the service's.
    db = createDb({
      databaseUrl: formation.failoverUrl(DATABASE),
      dataDir: null,
      connectTimeoutMs: 1000,
      logger: createLogger('silent'),
    });
    cleanups.push(() => db.destroy());
    await migrateLatest(db);
    await seedDemoData(db, { production: false });
    receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const env = {
      TOKEN_SIGNING_KEYS: 'failover:failover-proof-signing-secret-0123456789',
      DATABASE_REPLICA_URL: formation.nodeUrl(1, DATABASE),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      RATE_LIMIT_REQUESTS: '100000',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_SCHEDULE_MS: '200,200,500,500,1000,1000,2000,2000',
      // A delivery claimed as the primary died, its attempt never recorded, is claimed again after the lease.
      WEBHOOK_LEASE_MS: '15000',
    };
    instances = await Promise.all(
      [0, 1].map(() => startServiceProcess(formation.failoverUrl(DATABASE), cleanups, env)),
    );
    console.info(
      `[failover] formation up in ${((formedAt - startedAt) / 1000).toFixed(1)} s, services in ${((Date.now() - formedAt) / 1000).toFixed(1)} s`,
    );
  }, 240_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('promotes the secondary; answers only 2xx or 503 meanwhile; keeps every 2xx payment exactly once; continues', async () => {
    const before = await formation.states();
    expect(before.map((node) => node.reported)).toEqual(['primary', 'secondary']);
    // Synchronous replication: a commit is acknowledged once the secondary has it.
    const { rows: sync } = await db.raw('show synchronous_standby_names');
    expect(sync[0].synchronous_standby_names).toMatch(/pgautofailover_standby/);

    const endpoint = await ask(`${instances[0]!.baseUrl}/graphql`, 'graphql read', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
      body: JSON.stringify({
        query:
          'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
        variables: { input: { url: receiver.url('/failover'), eventTypes: ['PAYMENT_RECORDED'] } },
      }),
    });
    expect(endpoint.body?.errors, JSON.stringify(endpoint.body)).toBeUndefined();
    const paymentsBefore = Number((await db('payments').count({ n: '*' }))[0]!.n);

    // The stream: payment workers (each key retried after a 503 until it is answered 2xx) and readers.
    const answers: Answer[] = [];
    let stopping = false;
    let nextKey = 0;
    const paymentWorker = async (worker: number) => {
      while (!stopping) {
        const index = nextKey++;
        const key = `failover-${index}`;
        for (let attempt = 0; !stopping || attempt > 0; attempt++) {
          const instance = instances[(index + attempt) % 2]!;
          const answer = await ask(
            `${instance.baseUrl}${paymentPath(index)}`,
            'payment',
            { headers: { 'idempotency-key': key } },
            key,
          );
          answers.push(answer);
          if (succeeded(answer) || !unavailable(answer) || attempt > 60) break;
          await sleep(250 + worker * 20);
        }
      }
    };
    const reader = async () => {
      for (let turn = 0; !stopping; turn++) {
        const instance = instances[turn % 2]!;
        answers.push(
          await ask(
            `${instance.baseUrl}/v1/list-clerks.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}`,
            'rest read',
          ),
        );
        answers.push(
          await ask(`${instance.baseUrl}/graphql`, 'graphql read', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
            body: JSON.stringify({ query: `{ financeOrder(id: "${DEMO_ORDER_ID}") { id remainingBalance } }` }),
          }),
        );
        await sleep(100);
      }
    };
    const stream = Promise.all([0, 1, 2, 3].map(paymentWorker).concat([reader()]));

    // Reads were served by the replica (the secondary) before the failover.
    const replicaReads = async () => {
      const metrics = await (await fetch(`${instances[0]!.baseUrl}/metrics`)).text();
      return Number(/^db_reads_total\{target="replica"\} (\d+)/m.exec(metrics)?.[1] ?? 0);
    };
    const okPayments = () => answers.filter((answer) => answer.kind === 'payment' && succeeded(answer)).length;
    await vi.waitFor(() => expect(okPayments()).toBeGreaterThanOrEqual(40), { timeout: 30_000, interval: 100 });
    expect(await replicaReads()).toBeGreaterThan(0);
    const killedAt = Date.now();
    await formation.kill(0);
    await formation.takesWrites(1, 90_000);
    const promotedAt = Date.now();
    // Served again: payments answered 2xx after the promotion, on both instances.
    await vi.waitFor(
      () => {
        const after = answers.filter(
          (answer) => answer.at > promotedAt && answer.kind === 'payment' && succeeded(answer),
        );
        expect(after.length).toBeGreaterThanOrEqual(40);
      },
      { timeout: 60_000, interval: 200 },
    );
    stopping = true;
    await stream;

    const after = await formation.states();
    expect(after.find((node) => node.name === 'node2')?.reported).toMatch(/primary/);

    // Every answer a 2xx or a 503, none hung past the request timeout.
    const others = answers.filter((answer) => !succeeded(answer) && !unavailable(answer));
    expect(others.map((answer) => [answer.kind, answer.status, JSON.stringify(answer.body).slice(0, 300)])).toEqual([]);
    expect(
      answers.filter((answer) => answer.ms > REQUEST_TIMEOUT_MS).map((answer) => [answer.kind, answer.ms]),
    ).toEqual([]);
    const refused = answers.filter(unavailable);
    expect(refused.length).toBeGreaterThan(0);
    for (const kind of ['payment', 'rest read', 'graphql read'] as const) {
      expect(
        answers.some((answer) => answer.kind === kind && answer.at > promotedAt && succeeded(answer)),
        kind,
      ).toBe(true);
    }

    // Each key answered 2xx is one payment, every 2xx answer of a key the same receipt, and nothing else was recorded.
    const firstReceipt = new Map<string, any>();
    for (const answer of answers.filter((entry) => entry.kind === 'payment' && succeeded(entry))) {
      const first = firstReceipt.get(answer.key!);
      if (first) expect(answer.body).toEqual(first);
      else firstReceipt.set(answer.key!, answer.body);
    }
    const paidIds = [...firstReceipt.values()].map((body) => String(body.payment.id));
    expect(new Set(paidIds).size).toBe(firstReceipt.size);
    const stored = await db('payments').whereIn('id', paidIds).select('id');
    expect(stored).toHaveLength(paidIds.length);
    // Keys never answered 2xx (the stream stopped between attempts) may have been recorded once at most.
    const unanswered = new Set(
      answers
        .filter((answer) => answer.kind === 'payment' && !firstReceipt.has(answer.key!))
        .map((answer) => answer.key),
    );
    const paymentsAfter = Number((await db('payments').count({ n: '*' }))[0]!.n);
    expect(paymentsAfter - paymentsBefore).toBeGreaterThanOrEqual(firstReceipt.size);
    expect(paymentsAfter - paymentsBefore).toBeLessThanOrEqual(firstReceipt.size + unanswered.size);
    // Replays, after the failover, answer the first receipt.
    for (const [key, body] of [...firstReceipt].filter((_, index) => index % 10 === 0)) {
      const replay = await ask(`${instances[1]!.baseUrl}${paymentPath(Number(key.split('-')[1]))}`, 'payment', {
        headers: { 'idempotency-key': key },
      });
      expect(replay.body).toEqual(body);
    }

    // Events recorded for each payment, and each delivered by a webhook, those after the failover too.
    const events = await db('events').where({ type: 'payment.recorded' }).select('data');
    const evented = new Set(events.map((event) => String(event.data.payment.id)));
    for (const id of paidIds) expect(evented.has(id), `event of payment ${id}`).toBe(true);
    const delivered = () =>
      new Set(
        receiver.received
          .filter((request) => request.path === '/failover' && request.answer === 'ok')
          .map((request) => String(JSON.parse(request.body).data.payment.id)),
      );
    const undelivered = async () => {
      const missing = paidIds.filter((id) => !delivered().has(id));
      if (missing.length === 0) return [];
      // What the database says of each missing one, for the failure's message.
      return db('webhook_deliveries as d')
        .join('events as e', function () {
          this.on('e.partner_id', 'd.partner_id').andOn('e.id', 'd.event_id');
        })
        .whereRaw("e.data->'payment'->>'id' = any(?)", [missing])
        .select(
          db.raw("e.data->'payment'->>'id' as payment"),
          'd.status',
          'd.attempt_count',
          'd.claimed_until',
          'd.next_attempt_at',
        )
        .then((rows) => (rows.length ? rows : missing));
    };
    await vi.waitFor(async () => expect(await undelivered()).toEqual([]), {
      timeout: 60_000,
      interval: 200,
    });

    const check = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/ledger-check.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: formation.failoverUrl(DATABASE), LOG_LEVEL: 'silent' },
    });
    expect(check.stdout).toContain('ledger is consistent');

    const firstRefused = Math.min(...refused.map((answer) => answer.at + answer.ms));
    const lastRefused = Math.max(...refused.map((answer) => answer.at + answer.ms));
    const servedAgain = Math.min(
      ...answers
        .filter(
          (answer) =>
            answer.kind === 'payment' && answer.at > killedAt && succeeded(answer) && answer.at > lastRefused - 1,
        )
        .map((answer) => answer.at + answer.ms),
    );
    console.info(
      `[failover] primary killed; secondary took writes after ${((promotedAt - killedAt) / 1000).toFixed(1)} s; ` +
        `payments answered 503 from ${((firstRefused - killedAt) / 1000).toFixed(1)} s to ${((lastRefused - killedAt) / 1000).toFixed(1)} s, ` +
        `served again at ${((servedAgain - killedAt) / 1000).toFixed(1)} s; ${answers.length} answers: ` +
        `${answers.filter(succeeded).length} 2xx, ${refused.length} 503 (${refused.filter((answer) => answer.kind === 'payment').length} payments), ` +
        `longest ${Math.max(...answers.map((answer) => answer.ms))} ms; ${firstReceipt.size} payments recorded once each`,
    );
  }, 240_000);
});
