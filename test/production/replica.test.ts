// The read replica (DATABASE_REPLICA_URL), against a real streaming replica of the test Postgres
// server (test/support/replica.ts): each routing rule shown by where the statements ran and, with the
// replica's replay paused, by what the answer says (the replica still holds the old value).
// Postgres only; under CI=true a replica that cannot be started fails the suite instead of skipping it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReadReplica, type ReadReplica } from '../../src/db/replica.js';
import { DEMO_CART_TAG, DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { type StreamingReplica, startStreamingReplica } from '../support/replica.js';
import { startTestService, type TestService } from '../support/service.js';
import { startServiceProcess } from '../support/serviceProcess.js';
import { statementsDuring } from '../support/statements.js';

const PARTNER = { 'x-api-key': 'demo-partner-key' };
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const RECORD = `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&currency=USD`;
const LOOKUPS = [
  ['list-clerks', '/v1/list-clerks.php?key=demo-partner-key'],
  ['list-merchants', '/v1/list-merchants.php?key=demo-partner-key'],
  ['lookup-customer', '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=DTSTBBD'],
  ['lookup-cart', `/v1/lookup-cart.php?key=demo-partner-key&cartTag=${DEMO_CART_TAG}`],
  ['list-transactions', '/v1/list-transactions.php?key=demo-partner-key&starttime=0&endtime=31536000'],
] as const;
const CLERKS = '{ clerks { id name } }';

let database: TestDatabase;
let streaming: StreamingReplica;
/** What the suite's services run on: each has its own monitor, as each instance of the service would. */
const replicas: ReadReplica[] = [];
let replica: ReadReplica;
let service: TestService;
/** A second instance over the same primary and replica (another process behind the balancer). */
let otherInstance: TestService;
let fallbacks = 0;
let unavailable: string | undefined;

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function openReplica(maxLagSeconds: number, pollMs = 100): ReadReplica {
  const opened = openReadReplica({
    url: streaming.url(new URL(database.url!).pathname.slice(1)),
    primary: database.db,
    maxLagSeconds,
    pollMs,
    onFallback: () => fallbacks++,
  });
  replicas.push(opened);
  return opened;
}

// The monitors' own check on the primary is not part of any request.
const MONITOR_SQL = 'select pg_current_wal_lsn()::text as lsn';

/** The statements `work` sent to the primary and to `on`'s replica pool. */
async function whereRan<T>(
  work: () => Promise<T>,
  on: ReadReplica = replica,
): Promise<{ result: T; primary: string[]; replica: string[] }> {
  const outer = await statementsDuring(database.db, () => statementsDuring(on.db, work));
  return {
    result: outer.result.result,
    primary: outer.statements.map((s) => s.sql).filter((sql) => sql !== MONITOR_SQL),
    replica: outer.result.statements.map((s) => s.sql),
  };
}

async function get(target: TestService, path: string): Promise<{ status: number; body: any }> {
  const response = await target.request(path);
  return { status: response.status, body: await response.json() };
}

/** Replay resumed, the replica caught up with the primary, and every monitor has seen it. */
async function settle(): Promise<void> {
  await streaming.resumeReplay();
  await streaming.caughtUp();
  for (const opened of replicas) {
    await until(
      async () => (await opened.poll()).state === 'ok' && opened.serves(await currentLsn()),
      'the monitor to see the replica caught up',
    );
  }
}

async function currentLsn(): Promise<string> {
  const { rows } = await database.db.raw('select pg_current_wal_lsn()::text as lsn');
  return rows[0].lsn;
}

async function withReplayPaused(work: () => Promise<void>): Promise<void> {
  await streaming.pauseReplay();
  try {
    await work();
  } finally {
    await settle();
  }
}

const suite = onPostgres ? describe : describe.skip;

suite('read replica (a real streaming replica of the test Postgres)', () => {
  beforeAll(async () => {
    database = await createTestDatabase();
    try {
      streaming = await startStreamingReplica(process.env.TEST_DATABASE_URL!);
    } catch (error) {
      if (process.env.CI) throw error;
      unavailable = `no streaming replica: ${String(error)}`;
      return;
    }
    await streaming.caughtUp();
    replica = openReplica(60);
    await until(() => replica.status().state === 'ok', 'the replica to be up');
    service = await startTestService(database.db, { replica });
    const otherReplica = openReplica(60);
    await until(() => otherReplica.status().state === 'ok', 'the replica to be up');
    otherInstance = await startTestService(database.db, { replica: otherReplica });
  });

  afterAll(async () => {
    await service?.close();
    await otherInstance?.close();
    for (const opened of replicas) await opened.stop();
    await streaming?.destroy();
    await database?.destroy();
  });

  it('serves a GraphQL query from the replica: with replay paused, a change on the primary is not seen yet', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const before = await service.graphql(CLERKS, PARTNER);
    const clerk = before.body.data.clerks[0];
    await withReplayPaused(async () => {
      await database.db('clerks').where({ id: clerk.id }).update({ name: 'Renamed on the primary' });
      const ran = await whereRan(() => service.graphql(CLERKS, PARTNER));
      expect(ran.result.body).toEqual(before.body);
      // The key's lookup on the primary, the clerks on the replica.
      expect(ran.primary).toHaveLength(1);
      expect(ran.primary[0]).toContain('"api_keys"');
      expect(ran.replica.join('\n')).toContain('"clerks"');
    });
    const after = await service.graphql(CLERKS, PARTNER);
    expect(after.body.data.clerks[0]).toEqual({ ...clerk, name: 'Renamed on the primary' });
    await database.db('clerks').where({ id: clerk.id }).update({ name: clerk.name });
    await settle();
  });

  it.each(LOOKUPS)('serves %s from the replica: only the key is read on the primary', async (_name, path) => {
    if (unavailable) return;
    const ran = await whereRan(() => get(service, path));
    expect(ran.result.status).toBe(200);
    expect(ran.primary).toHaveLength(1);
    expect(ran.primary[0]).toContain('"api_keys"');
    expect(ran.replica.length).toBeGreaterThan(0);
  });

  it('answers list-clerks and list-merchants from the replica while replay is paused (the old names)', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const clerks = await get(service, LOOKUPS[0][1]);
    const merchants = await get(service, LOOKUPS[1][1]);
    const merchant = await database.db('merchants').orderBy('id').first();
    const clerk = await database.db('clerks').orderBy('id').first();
    await withReplayPaused(async () => {
      await database.db('merchants').where({ id: merchant.id }).update({ name: 'Moved on the primary' });
      await database.db('clerks').where({ id: clerk.id }).update({ name: 'Renamed on the primary' });
      expect(await get(service, LOOKUPS[0][1])).toEqual(clerks);
      expect(await get(service, LOOKUPS[1][1])).toEqual(merchants);
    });
    expect(JSON.stringify((await get(service, LOOKUPS[1][1])).body)).toContain('Moved on the primary');
    await database.db('merchants').where({ id: merchant.id }).update({ name: merchant.name });
    await database.db('clerks').where({ id: clerk.id }).update({ name: clerk.name });
    await settle();
  });

  it('keeps mutations on the primary: record-customer-payment and its Idempotency-Key check, the notification and its reference check, access tokens', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    await withReplayPaused(async () => {
      const pay = () => service.request(`${RECORD}&amount=1.00`, { headers: { 'idempotency-key': 'replica-suite-1' } });
      const first = await whereRan(() => pay().then(async (r) => ({ status: r.status, body: await r.json() })));
      expect(first.result.status).toBe(200);
      expect(first.replica).toEqual([]);
      // The repeat must find the first payment's key although the replica has not replayed it.
      const repeat = await whereRan(() =>
        pay().then(async (r) => ({
          status: r.status,
          replayed: r.headers.get('idempotent-replayed'),
          body: await r.json(),
        })),
      );
      expect(repeat.result).toMatchObject({ status: 200, replayed: 'true', body: first.result.body });
      expect(repeat.replica).toEqual([]);

      const token = await whereRan(() =>
        service.request('/payments/v1/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
        }),
      );
      expect(token.replica).toEqual([]);
      const accessToken = ((await token.result.json()) as any).data.access_token as string;
      const notify = () =>
        service
          .request('/payments/v1/notification', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
            body: JSON.stringify({
              paymentVendor: 'demo-vendor',
              amount: '2.00',
              currency: 'USD',
              reference: 'replica-suite-ref-1',
              deviceTag: 'DTSTBBD',
            }),
          })
          .then(async (r) => ({ status: r.status, body: await r.json() }));
      const notified = await whereRan(notify);
      expect(notified.result.status).toBe(200);
      expect(notified.replica).toEqual([]);
      const again = await whereRan(notify);
      expect(again.result).toEqual(notified.result);
      expect(again.replica).toEqual([]);
    });
  });

  it('authenticates on the primary: a key created a moment ago works while the replica has not replayed it', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const partner = await database.db('partners').where({ name: 'Demo Retail' }).first();
    await withReplayPaused(async () => {
      const created = await service.graphql(
        'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }',
        OPERATOR,
        { input: { kind: 'PARTNER', partnerId: String(partner.id), label: 'replica suite' } },
      );
      expect(created.body.errors).toBeUndefined();
      const secret = created.body.data.createApiKey.secret as string;
      const ran = await whereRan(() => get(service, `/v1/list-clerks.php?key=${encodeURIComponent(secret)}`));
      expect(ran.result.status).toBe(200);
      expect(ran.primary[0]).toContain('"api_keys"');
      expect(ran.replica.join('\n')).not.toContain('"api_keys"');
    });
  });

  it('lets a key read its own write at once, on any instance, while another key still reads the replica', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const partner = await database.db('partners').where({ name: 'Demo Retail' }).first();
    const ownRead = `{ partner(id: "${partner.id}") { clerks { id name } } }`;
    await withReplayPaused(async () => {
      const created = await service.graphql(
        'mutation($input: CreateClerkInput!) { createClerk(input: $input) { id name } }',
        OPERATOR,
        {
          input: {
            partnerId: String(partner.id),
            name: 'Written a moment ago',
            phoneNumber: '5550001111',
            email: 'new.clerk@example.com',
          },
        },
      );
      expect(created.body.errors).toBeUndefined();
      const clerk = created.body.data.createClerk;
      for (const instance of [service, otherInstance]) {
        const own = await whereRan(() => instance.graphql(ownRead, OPERATOR));
        expect(own.result.body.data.partner.clerks).toContainEqual(clerk);
        expect(own.replica).toEqual([]);
      }
      const other = await whereRan(() => service.graphql(CLERKS, PARTNER));
      expect(other.result.body.data.clerks).not.toContainEqual(clerk);
      expect(other.replica.length).toBeGreaterThan(0);
    });
    // Once the replica has replayed the write, the writer reads the replica again.
    const own = await whereRan(() => service.graphql(ownRead, OPERATOR));
    expect(own.result.body.data.partner.clerks.map((c: { name: string }) => c.name)).toContain('Written a moment ago');
    expect(own.replica.length).toBeGreaterThan(0);
  });

  it('skips a replica lagging past the maximum: reads go to the primary, and /readyz and the metrics say so', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const strict = openReplica(1);
    const strictService = await startTestService(database.db, { replica: strict });
    try {
      await until(() => strict.status().state === 'ok', 'the replica to be up');
      expect((await whereRan(() => get(strictService, LOOKUPS[0][1]), strict)).replica.length).toBeGreaterThan(0);
      const clerk = await database.db('clerks').orderBy('id').first();
      await withReplayPaused(async () => {
        await database.db('clerks').where({ id: clerk.id }).update({ name: 'Renamed while lagging' });
        await until(() => strict.status().state === 'lagging', 'the replica to lag past 1 s');
        const ran = await whereRan(() => get(strictService, LOOKUPS[0][1]), strict);
        expect(ran.replica).toEqual([]);
        expect(JSON.stringify(ran.result.body)).toContain('Renamed while lagging');
        const ready = await strictService.request('/readyz');
        expect(ready.status).toBe(200);
        expect(((await ready.json()) as any).replica).toMatch(/^lagging \d+ s$/);
        const metrics = await (await strictService.request('/metrics')).text();
        expect(metrics).toMatch(/^db_replica_up 0$/m);
        expect(Number(/^db_replica_lag_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(1);
        expect(metrics).toMatch(/^db_reads_total\{target="primary"\} \d+$/m);
      });
      const back = await whereRan(() => get(strictService, LOOKUPS[0][1]), strict);
      expect(back.replica.length).toBeGreaterThan(0);
      expect(((await (await strictService.request('/readyz')).json()) as any).replica).toBe('ok');
      expect(await (await strictService.request('/metrics')).text()).toMatch(/^db_replica_up 1$/m);
      await database.db('clerks').where({ id: clerk.id }).update({ name: clerk.name });
      await settle();
    } finally {
      await strictService.close();
      await strict.stop();
      replicas.splice(replicas.indexOf(strict), 1);
    }
  });

  it('runs from the environment: src/main.ts with DATABASE_REPLICA_URL reads the replica and reports it', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const cleanups: Array<() => Promise<unknown>> = [];
    try {
      const child = await startServiceProcess(database.url!, cleanups, {
        DATABASE_REPLICA_URL: streaming.url(new URL(database.url!).pathname.slice(1)),
        DATABASE_REPLICA_MAX_LAG_SECONDS: '10',
      });
      expect(child.output()).toMatch(/read replica at 127\.0\.0\.1:\d+\//);
      const readiness = async () => (await (await fetch(`${child.baseUrl}/readyz`)).json()) as { replica: string };
      await until(async () => (await readiness()).replica === 'ok', 'the process to see its replica');
      const lookup = await fetch(`${child.baseUrl}${LOOKUPS[0][1]}`);
      expect(lookup.status).toBe(200);
      const metrics = await (await fetch(`${child.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/^db_reads_total\{target="replica"\} [1-9]\d*$/m);
      expect(metrics).toMatch(/^db_replica_up 1$/m);
    } finally {
      for (const cleanup of cleanups.reverse()) await cleanup();
    }
  });

  it('keeps answering when the replica stops under load: every request answers as before, /readyz says down, and reads return when it is back', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    // An instance whose monitor will not look again (it checked once, at start): the replica dies
    // under its reads, which must fall back to the primary statement by statement.
    const blind = openReplica(60, 600_000);
    await until(() => blind.status().state === 'ok', 'the replica to be up');
    const blindService = await startTestService(database.db, { replica: blind });
    try {
      const reads = [...LOOKUPS.map(([, path]) => path), 'graphql'] as const;
      const answer = (target: TestService, path: string) =>
        path === 'graphql' ? target.graphql(CLERKS, PARTNER) : get(target, path);
      const expected = new Map<string, unknown>();
      for (const path of reads) expected.set(path, await answer(service, path));
      const otherRetail = String((await database.db('partners').where({ name: 'Other Retail' }).first()).id);

      let stopping = false;
      let answered = 0;
      const wrong: string[] = [];
      const reader = async (target: TestService, offset: number) => {
        for (let i = offset; !stopping; i++) {
          const path = reads[i % reads.length]!;
          const got = await answer(target, path);
          answered++;
          if (JSON.stringify(got) !== JSON.stringify(expected.get(path))) {
            wrong.push(`${path}: ${JSON.stringify(got).slice(0, 300)}`);
          }
        }
      };
      const writer = async () => {
        for (let i = 0; !stopping; i++) {
          const created = await service.graphql(
            'mutation($input: CreateClerkInput!) { createClerk(input: $input) { id } }',
            OPERATOR,
            {
              input: {
                partnerId: otherRetail,
                name: `Clerk ${i} of the load`,
                phoneNumber: '5550002222',
                email: `load.${i}@example.com`,
              },
            },
          );
          answered++;
          if (created.status !== 200 || created.body.errors) wrong.push(`createClerk: ${JSON.stringify(created.body)}`);
        }
      };
      const fallbacksBefore = fallbacks;
      const load = Promise.all([reader(service, 0), reader(service, 3), reader(blindService, 1), writer()]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const beforeStop = answered;
      await streaming.stop();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      stopping = true;
      await load;
      expect(wrong).toEqual([]);
      expect(beforeStop).toBeGreaterThan(0);
      expect(answered).toBeGreaterThan(beforeStop);
      // The blind instance's reads met the dead replica: run on the primary, and the replica marked down.
      expect(fallbacks).toBeGreaterThan(fallbacksBefore);
      expect(blind.status().state).toBe('down');

      await until(() => replica.status().state === 'down', 'the monitor to see the replica down');
      const ready = await service.request('/readyz');
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready', database: 'ok', replica: 'down' });
      expect(await (await service.request('/metrics')).text()).toMatch(/^db_replica_up 0$/m);
      const whileDown = await whereRan(() => get(service, LOOKUPS[0][1]));
      expect(whileDown.result).toEqual(expected.get(LOOKUPS[0][1]));
      expect(whileDown.replica).toEqual([]);

      await streaming.start();
      await settle();
      const back = await whereRan(() => get(service, LOOKUPS[0][1]));
      expect(back.result).toEqual(expected.get(LOOKUPS[0][1]));
      expect(back.replica.length).toBeGreaterThan(0);
      expect(((await (await service.request('/readyz')).json()) as any).replica).toBe('ok');
    } finally {
      await blindService.close();
      await blind.stop();
      replicas.splice(replicas.indexOf(blind), 1);
    }
  }, 90_000);
});
