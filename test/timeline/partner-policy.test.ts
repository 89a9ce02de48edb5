// A partner's lock policy and its sandbox clock (decisions.md 15), through the doors: the settings'
// refusals change nothing; the grace moves lockAt, the legacy nextPayment and validThrough, and the
// lock; a sandbox clock moves one partner's time only, forward only, by operators and by the partner's
// own partner key (audited with it; another partner's FORBIDDEN), and is refused in production;
// a second instance over the same database hears a change made on the first.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppDeps, createApp } from '../../src/app.js';
import { DEMO_CLERK_ID, DEMO_DEVICE_IMEI, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { createLogger } from '../../src/kernel/logger.js';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import { DEFAULT_PARTNER_SETTINGS, partnerSettingsOf } from '../../src/modules/partners/settings.js';
import { serviceLayers } from '../../src/serviceLayers.js';
import { onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { startTestService, TEST_TOKENS, TEST_UNLOCK_KEYS, type TestService } from '../support/service.js';

const fixture = useSeededService();
const HOUR = 3600;
const DAY = 86_400;

type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };

const graphqlOn = (service: () => TestService, key: string) => (query: string, variables?: Record<string, unknown>) =>
  service()
    .graphql(query, { 'x-api-key': key }, variables)
    .then((result) => result.body as Body);
const operator = graphqlOn(() => fixture.service, 'demo-operator-key');

function ok(body: Body): any {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

function codeOf(body: Body): string | undefined {
  expect(body.errors, 'expected an error').toBeDefined();
  return body.errors?.[0]?.extensions?.code;
}

const SETTINGS =
  'settings { lockGraceHours lockReminderDays repaymentDays flexibleAmountEnabled offlineLockDays simControlEnabled reversalWindowHours }';
const UPDATE = `mutation($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id ${SETTINGS} } }`;
const SET_CLOCK = `mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { partnerId now realNow } }`;
const RESET_CLOCK = `mutation($id: ID!) { resetSandboxClock(partnerId: $id) { partnerId now realNow } }`;
const ORDER = `query($id: ID!) { financeOrder(id: $id) { paidThrough lockAt nextPayment secureStatus status } }`;

let demoPartner: string;
let otherPartner: string;

async function settingsOf(partnerId: string) {
  return ok(
    await operator(`query($id: ID!) { partner(id: $id) { ${SETTINGS} sandboxClock { now } } }`, { id: partnerId }),
  ).partner;
}

async function auditCount(): Promise<number> {
  const [row] = await fixture.database.db('audit_events').count({ count: '*' });
  return Number(row!.count);
}

async function order(id = DEMO_ORDER_ID) {
  return ok(await operator(ORDER, { id })).financeOrder;
}

async function lookup() {
  const response = await fixture.service.request(
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
  );
  expect(response.status).toBe(200);
  return (await response.json()) as any;
}

/** Whether the demo order is in the status listing of its partner (mine) and of every partner (every). */
async function listedAs(status: 'ACTIVE' | 'LOCKED') {
  const listed = ok(
    await operator(
      `query($p: ID, $s: FinanceOrderStatus) { mine: financeOrders(partnerId: $p, status: $s, first: 1000) { nodes { id } }
        every: financeOrders(status: $s, first: 1000) { nodes { id } } }`,
      { p: demoPartner, s: status },
    ),
  );
  const has = (page: { nodes: Array<{ id: string }> }) => page.nodes.some((node) => node.id === DEMO_ORDER_ID);
  return { mine: has(listed.mine), every: has(listed.every) };
}

beforeAll(async () => {
  const { partners } = ok(await operator('{ partners { id name } }'));
  demoPartner = partners.find((partner: { name: string }) => partner.name === 'Demo Retail').id;
  otherPartner = partners.find((partner: { id: string }) => partner.id !== demoPartner).id;
});

describe('partner settings', () => {
  it('start at the defaults: grace 0, reminders [3, 1], repayment days [7, 30], flexible amounts on, 7 offline days, no SIM control', async () => {
    expect(await settingsOf(demoPartner)).toEqual({
      settings: {
        lockGraceHours: 0,
        lockReminderDays: [3, 1],
        repaymentDays: [7, 30],
        flexibleAmountEnabled: true,
        offlineLockDays: 7,
        simControlEnabled: false,
        reversalWindowHours: 72,
      },
      sandboxClock: null,
    });
  });

  it.each([
    ['a negative grace', { lockGraceHours: -1 }, 'lockGraceHours'],
    ['a grace over 720 hours', { lockGraceHours: 721 }, 'lockGraceHours'],
    ['over 10 reminders', { lockReminderDays: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, 'lockReminderDays'],
    ['a reminder given twice', { lockReminderDays: [3, 3] }, 'lockReminderDays'],
    ['a reminder of 0 days', { lockReminderDays: [0] }, 'lockReminderDays'],
    ['a negative repayment day', { repaymentDays: [-7] }, 'repaymentDays'],
    ['no repayment day', { repaymentDays: [] }, 'repaymentDays'],
    ['over 10 repayment days', { repaymentDays: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, 'repaymentDays'],
    ['a repayment day twice', { repaymentDays: [7, 7] }, 'repaymentDays'],
    ['no offline day', { offlineLockDays: 0 }, 'offlineLockDays'],
    ['over 90 offline days', { offlineLockDays: 91 }, 'offlineLockDays'],
    ['a negative reversal window', { reversalWindowHours: -1 }, 'reversalWindowHours'],
    ['a reversal window over 720 hours', { reversalWindowHours: 721 }, 'reversalWindowHours'],
  ])('refuse %s with INVALID_PARTNER_SETTINGS and change nothing', async (_name, change, field) => {
    const before = await settingsOf(demoPartner);
    const audited = await auditCount();
    const body = await operator(UPDATE, { input: { partnerId: demoPartner, lockGraceHours: 24, ...change } });
    expect(codeOf(body)).toBe('INVALID_PARTNER_SETTINGS');
    expect(body.errors?.[0]?.message).toContain(field);
    expect(await settingsOf(demoPartner)).toEqual(before);
    expect(await auditCount()).toBe(audited);
  });

  it('are changed by operators only, for a partner that exists', async () => {
    const asPartner = graphqlOn(() => fixture.service, 'demo-partner-key');
    expect(codeOf(await asPartner(UPDATE, { input: { partnerId: demoPartner, lockGraceHours: 1 } }))).toBe('FORBIDDEN');
    expect(codeOf(await operator(UPDATE, { input: { partnerId: '999999', lockGraceHours: 1 } }))).toBe(
      'RESOURCE_NOT_FOUND',
    );
    expect((await settingsOf(demoPartner)).settings.lockGraceHours).toBe(0);
  });

  it('change what is given, keep the rest, and are audited with the values before and after', async () => {
    const changed = ok(
      await operator(UPDATE, {
        input: { partnerId: demoPartner, lockGraceHours: 48, lockReminderDays: [1, 3], reversalWindowHours: 24 },
      }),
    ).updatePartnerSettings;
    expect(changed.settings).toEqual({
      lockGraceHours: 48,
      lockReminderDays: [3, 1],
      repaymentDays: [7, 30],
      flexibleAmountEnabled: true,
      offlineLockDays: 7,
      simControlEnabled: false,
      reversalWindowHours: 24,
    });
    const record = await fixture.database
      .db('audit_events')
      .where({ action: 'partner.settings.update', subject_id: demoPartner })
      .orderBy('id', 'desc')
      .first();
    expect(record.details).toMatchObject({
      before: { lockGraceHours: 0, reversalWindowHours: 72 },
      after: { lockGraceHours: 48, reversalWindowHours: 24 },
    });
    // The one statement background code reads them with says the same as the graph.
    expect(await partnerSettingsOf(fixture.database.db, demoPartner)).toEqual(changed.settings);
    expect(await partnerSettingsOf(fixture.database.db, '999999')).toEqual(DEFAULT_PARTNER_SETTINGS);
    expect((await settingsOf(otherPartner)).settings.lockGraceHours).toBe(0);
  });
});

describe('lockAt, with a grace of 48 hours', () => {
  it('is paid-through + 48 hours, and the legacy nextPayment and validThrough follow it', async () => {
    const standing = await order();
    expect(standing.lockAt).toBe(standing.paidThrough + 48 * HOUR);
    expect(standing.nextPayment).toBe(standing.lockAt);
    const body = await lookup();
    expect(body.device.validThrough).toBe(standing.lockAt);
    expect(body.device.secureStatus).toBe('Device Active And Secured');
  });

  it("the sandbox clock moves the partner's status: secured within the grace, locked from lockAt on", async () => {
    const { paidThrough, lockAt } = await order();
    const within = ok(await operator(SET_CLOCK, { input: { partnerId: demoPartner, now: paidThrough + HOUR } }));
    expect(within.setSandboxClock).toMatchObject({ partnerId: demoPartner, now: paidThrough + HOUR });
    expect(await order()).toMatchObject({ secureStatus: 'ACTIVE_AND_SECURED', status: 'ACTIVE' });
    expect((await lookup()).device.secureStatus).toBe('Device Active And Secured');
    expect(await listedAs('ACTIVE')).toEqual({ mine: true, every: true });
    expect(await listedAs('LOCKED')).toEqual({ mine: false, every: false });

    ok(await operator(SET_CLOCK, { input: { partnerId: demoPartner, now: lockAt } }));
    expect(await order()).toMatchObject({ secureStatus: 'LOCKED', status: 'LOCKED', nextPayment: lockAt });
    const body = await lookup();
    expect(body.device.secureStatus).toBe('Device Locked');
    expect(body.device.validThrough).toBe(lockAt);
    // The status filter says the same in SQL, for the partner's listing and for every partner's.
    expect(await listedAs('LOCKED')).toEqual({ mine: true, every: true });
    expect(await listedAs('ACTIVE')).toEqual({ mine: false, every: false });
  });

  it('moves no other partner: its orders keep real time', async () => {
    const query = `query($p: ID) { financeOrders(partnerId: $p) { nodes { id secureStatus lockAt } } }`;
    const before = ok(await operator(query, { p: otherPartner })).financeOrders.nodes;
    const real = Math.floor(Date.now() / 1000);
    for (const node of before) {
      if (node.lockAt !== null) expect(node.secureStatus).toBe(node.lockAt > real ? 'ACTIVE_AND_SECURED' : 'LOCKED');
    }
    expect((await settingsOf(otherPartner)).sandboxClock).toBeNull();
  });

  it("a payment is received at the partner's time, and its receipt's nextPayment is the new lockAt", async () => {
    const { sandboxClock } = await settingsOf(demoPartner);
    const response = await fixture.service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=18.00&currency=USD`,
    );
    expect(response.status).toBe(200);
    const { payment } = (await response.json()) as any;
    const after = await order();
    expect(after.lockAt).toBe(after.paidThrough + 48 * HOUR);
    expect(payment.nextPayment).toBe(after.lockAt);
    expect(payment.time).toBeGreaterThanOrEqual(sandboxClock.now);
    expect(payment.time).toBeLessThan(sandboxClock.now + DAY);
    expect(after.secureStatus).toBe('ACTIVE_AND_SECURED');
  });

  it("a vendor's notification is received at its order's partner's time too, its receipt's nextPayment the new lockAt", async () => {
    const { sandboxClock } = await settingsOf(demoPartner);
    const token = await fixture.service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    const { access_token: accessToken } = ((await token.json()) as any).data;
    const response = await fixture.service.request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({
        paymentVendor: 'demo-vendor',
        amount: '20.00',
        currency: 'USD',
        reference: 'POLICY-1',
        deviceTag: 'DTSTBBD',
      }),
    });
    expect(response.status).toBe(200);
    const { paymentId } = ((await response.json()) as any).data;
    const payment = await fixture.database
      .db('payments')
      .where({ id: String(paymentId) })
      .first();
    const receivedAt = Math.floor(payment.received_at.getTime() / 1000);
    expect(receivedAt).toBeGreaterThanOrEqual(sandboxClock.now);
    expect(receivedAt).toBeLessThan(sandboxClock.now + DAY);
    const stored = await fixture.database.db('vendor_notifications').where({ reference: 'POLICY-1' }).first();
    const paid = await order(payment.finance_order_id);
    expect(paid.lockAt).toBe(paid.paidThrough + 48 * HOUR);
    expect(stored.response_body.nextPayment).toBe(paid.lockAt);
  });

  it('refuses to move the clock backwards, and changes nothing', async () => {
    const { sandboxClock } = await settingsOf(demoPartner);
    const audited = await auditCount();
    const body = await operator(SET_CLOCK, { input: { partnerId: demoPartner, now: sandboxClock.now - DAY } });
    expect(codeOf(body)).toBe('SANDBOX_CLOCK_BACKWARDS');
    const after = (await settingsOf(demoPartner)).sandboxClock;
    expect(after.now - sandboxClock.now).toBeGreaterThanOrEqual(0);
    expect(after.now - sandboxClock.now).toBeLessThan(DAY);
    expect(await auditCount()).toBe(audited);
  });

  it('is not for retail or vendor keys, even their own partner', async () => {
    const { sandboxClock } = await settingsOf(demoPartner);
    const audited = await auditCount();
    for (const key of ['demo-retail-key', 'demo-vendor-key']) {
      const asKey = graphqlOn(() => fixture.service, key);
      const body = await asKey(SET_CLOCK, { input: { partnerId: demoPartner, now: sandboxClock.now + DAY } });
      expect(codeOf(body), key).toBe('FORBIDDEN');
      expect(codeOf(await asKey(RESET_CLOCK, { id: demoPartner })), key).toBe('FORBIDDEN');
    }
    const after = (await settingsOf(demoPartner)).sandboxClock;
    expect(after.now - sandboxClock.now).toBeLessThan(DAY);
    expect(await auditCount()).toBe(audited);
  });

  it('reset puts the partner back on real time', async () => {
    const reset = ok(await operator(RESET_CLOCK, { id: demoPartner })).resetSandboxClock;
    expect(reset.now).toBe(reset.realNow);
    expect((await settingsOf(demoPartner)).sandboxClock).toBeNull();
    const actions = await fixture.database
      .db('audit_events')
      .where({ subject_id: demoPartner })
      .whereIn('action', ['partner.sandbox_clock.set', 'partner.sandbox_clock.reset'])
      .pluck('action');
    expect(actions).toEqual(['partner.sandbox_clock.set', 'partner.sandbox_clock.set', 'partner.sandbox_clock.reset']);
  });
});

describe("a partner key on its partner's sandbox clock (decisions.md 46)", () => {
  const asPartner = graphqlOn(() => fixture.service, 'demo-partner-key');
  const clockRecord = async (action: string) =>
    fixture.database.db('audit_events').where({ action, subject_id: demoPartner }).orderBy('id', 'desc').first();
  const partnerKeyId = async () =>
    String(
      (
        await fixture.database
          .db('api_keys')
          .where({ key_hash: hashApiKey('demo-partner-key') })
          .first('id')
      ).id,
    );

  it("moves its own partner's clock and puts it back, audited with the partner key as the actor", async () => {
    expect((await settingsOf(demoPartner)).sandboxClock).toBeNull();
    const target = Math.floor(Date.now() / 1000) + 5 * DAY;
    const moved = ok(await asPartner(SET_CLOCK, { input: { partnerId: demoPartner, now: target } })).setSandboxClock;
    expect(moved).toMatchObject({ partnerId: demoPartner, now: target });
    expect((await settingsOf(demoPartner)).sandboxClock.now).toBeGreaterThanOrEqual(target);
    const keyId = await partnerKeyId();
    expect(await clockRecord('partner.sandbox_clock.set')).toMatchObject({
      actor_kind: 'partner',
      actor_id: demoPartner,
      actor_key_id: keyId,
      partner_id: demoPartner,
    });
    const reset = ok(await asPartner(RESET_CLOCK, { id: demoPartner })).resetSandboxClock;
    expect(reset.now).toBe(reset.realNow);
    expect((await settingsOf(demoPartner)).sandboxClock).toBeNull();
    expect(await clockRecord('partner.sandbox_clock.reset')).toMatchObject({
      actor_kind: 'partner',
      actor_id: demoPartner,
      actor_key_id: keyId,
    });
  });

  it("refuses another partner's clock, or a partner that does not exist, with FORBIDDEN, changing nothing", async () => {
    const audited = await auditCount();
    const later = Math.floor(Date.now() / 1000) + 10 * DAY;
    for (const partnerId of [otherPartner, '999999']) {
      for (const body of [
        await asPartner(SET_CLOCK, { input: { partnerId, now: later } }),
        await asPartner(RESET_CLOCK, { id: partnerId }),
      ]) {
        expect(codeOf(body)).toBe('FORBIDDEN');
        expect(body.errors?.[0]?.message).toContain("a partner key moves only its own partner's sandbox clock");
      }
    }
    expect((await settingsOf(otherPartner)).sandboxClock).toBeNull();
    expect(await auditCount()).toBe(audited);
  });
});

describe('a second instance over the same database', () => {
  let second: TestService;
  beforeAll(async () => {
    second = await startTestService(fixture.database.db);
  });
  afterAll(async () => {
    await second?.close();
  });

  it('hears a clock set, and settings changed, on the first', async () => {
    const onSecond = graphqlOn(() => second, 'demo-operator-key');
    const clockOnSecond = async () =>
      ok(
        await onSecond(`query($id: ID!) { partner(id: $id) { ${SETTINGS} sandboxClock { now } } }`, {
          id: otherPartner,
        }),
      ).partner;
    expect((await clockOnSecond()).sandboxClock).toBeNull();
    const target = Math.floor(Date.now() / 1000) + 30 * DAY;
    ok(await operator(SET_CLOCK, { input: { partnerId: otherPartner, now: target } }));
    ok(await operator(UPDATE, { input: { partnerId: otherPartner, repaymentDays: [14] } }));
    await vi.waitFor(
      async () => {
        const seen = await clockOnSecond();
        expect(seen.sandboxClock?.now).toBeGreaterThanOrEqual(target);
        expect(seen.settings.repaymentDays).toEqual([14]);
      },
      { timeout: 10_000, interval: 50 },
    );
    ok(await operator(RESET_CLOCK, { id: otherPartner }));
    await vi.waitFor(async () => expect((await clockOnSecond()).sandboxClock).toBeNull(), {
      timeout: 10_000,
      interval: 50,
    });
  });
  it.runIf(onPostgres)('listens again after losing its connection, and reads what it missed', async () => {
    await fixture.database.db.raw(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query ilike 'listen "dfs_partner_policy"' and pid <> pg_backend_pid()`,
    );
    // Changed while the instances listen no more: the first applies its own change, the second reads it again.
    ok(await operator(UPDATE, { input: { partnerId: otherPartner, repaymentDays: [21] } }));
    const onSecond = graphqlOn(() => second, 'demo-operator-key');
    await vi.waitFor(
      async () => {
        const seen = ok(await onSecond(`query($id: ID!) { partner(id: $id) { ${SETTINGS} } }`, { id: otherPartner }));
        expect(seen.partner.settings.repaymentDays).toEqual([21]);
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe('in production', () => {
  let server: Server;
  let stop: () => Promise<void>;
  let production: () => TestService;

  beforeAll(async () => {
    const deps: AppDeps = {
      db: fixture.database.db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: true,
      tokens: TEST_TOKENS,
      unlockKeys: TEST_UNLOCK_KEYS,
    };
    const app = await createApp(deps, serviceLayers(deps));
    stop = app.stop;
    server = app.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const address = server.address();
    const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    production = () =>
      ({
        graphql: async (query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>) => {
          const response = await fetch(`${baseUrl}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ query, variables }),
          });
          return { status: response.status, body: await response.json() };
        },
      }) as TestService;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
    await stop?.();
  });

  it('refuses both clock mutations with FORBIDDEN, and reads no stored clock', async () => {
    const asOperator = graphqlOn(production, 'demo-operator-key');
    const later = Math.floor(Date.now() / 1000) + 10 * DAY;
    expect(codeOf(await asOperator(SET_CLOCK, { input: { partnerId: demoPartner, now: later } }))).toBe('FORBIDDEN');
    expect(codeOf(await asOperator(RESET_CLOCK, { id: demoPartner }))).toBe('FORBIDDEN');
    // The partner key on its own partner's clock too.
    const asPartner = graphqlOn(production, 'demo-partner-key');
    expect(codeOf(await asPartner(SET_CLOCK, { input: { partnerId: demoPartner, now: later } }))).toBe('FORBIDDEN');
    expect(codeOf(await asPartner(RESET_CLOCK, { id: demoPartner }))).toBe('FORBIDDEN');
    expect((await settingsOf(demoPartner)).sandboxClock).toBeNull();
    // A clock stored (set outside production, a copied database) changes nothing here.
    ok(await operator(SET_CLOCK, { input: { partnerId: demoPartner, now: later } }));
    const seen = ok(
      await asOperator(`query($id: ID!) { partner(id: $id) { sandboxClock { now } ${SETTINGS} } }`, {
        id: demoPartner,
      }),
    ).partner;
    expect(seen.sandboxClock).toBeNull();
    expect(seen.settings.lockGraceHours).toBe(48);
    ok(await operator(RESET_CLOCK, { id: demoPartner }));
  });
});

describe("a partner's next lock", () => {
  const NEXT_LOCK = 'query($id: ID!) { partner(id: $id) { sandboxClock { now } nextLockAt } }';

  /** The lockAt of each of the partner's orders still to pay, as the orders themselves say. */
  async function lockAtsOf(partnerId: string): Promise<number[]> {
    const { nodes } = ok(
      await operator('query($p: ID) { financeOrders(partnerId: $p, first: 1000) { nodes { lockAt status } } }', {
        p: partnerId,
      }),
    ).financeOrders;
    expect(nodes.length).toBeLessThan(1000);
    return nodes
      .filter((node: { status: string }) => node.status === 'ACTIVE' || node.status === 'LOCKED')
      .map((node: { lockAt: number }) => node.lockAt);
  }

  const earliestAfter = (lockAts: number[], now: number) =>
    lockAts.filter((lockAt) => lockAt > now).reduce<number | null>((a, b) => (a === null || b < a ? b : a), null);

  it('is the earliest lockAt ahead among its open orders, at its time, and moves on with its clock', async () => {
    const lockAts = await lockAtsOf(demoPartner);
    const before = Math.floor(Date.now() / 1000);
    const onRealTime = ok(await operator(NEXT_LOCK, { id: demoPartner })).partner;
    const after = Math.floor(Date.now() / 1000);
    expect(onRealTime.sandboxClock).toBeNull();
    expect(onRealTime.nextLockAt).not.toBeNull();
    // A lock falling due between the two readings of real time may be either side of it.
    expect([earliestAfter(lockAts, before), earliestAfter(lockAts, after)]).toContain(onRealTime.nextLockAt);

    // To that lock and a second on (the console's "To the next lock"): the next one is a later order's.
    ok(await operator(SET_CLOCK, { input: { partnerId: demoPartner, now: onRealTime.nextLockAt + 1 } }));
    const moved = ok(await operator(NEXT_LOCK, { id: demoPartner })).partner;
    expect(moved.sandboxClock.now).toBeGreaterThan(onRealTime.nextLockAt);
    expect(moved.nextLockAt).toBe(earliestAfter(lockAts, moved.sandboxClock.now));
    expect(moved.nextLockAt === null || moved.nextLockAt > onRealTime.nextLockAt).toBe(true);

    // Past every lock: none ahead.
    ok(await operator(SET_CLOCK, { input: { partnerId: demoPartner, now: Math.max(...lockAts) + 1 } }));
    expect(ok(await operator(NEXT_LOCK, { id: demoPartner })).partner.nextLockAt).toBeNull();
    ok(await operator(RESET_CLOCK, { id: demoPartner }));
  });

  it("is seen by whoever sees the partner: its own partner key, not another partner's", async () => {
    const seenByOperator = ok(await operator(NEXT_LOCK, { id: demoPartner })).partner.nextLockAt;
    const asPartner = graphqlOn(() => fixture.service, 'demo-partner-key');
    expect(ok(await asPartner(NEXT_LOCK, { id: demoPartner })).partner.nextLockAt).toBe(seenByOperator);
    const asOther = graphqlOn(() => fixture.service, 'other-partner-key');
    expect(ok(await asOther(NEXT_LOCK, { id: demoPartner })).partner).toBeNull();
  });

  it("answers each partner's own in an operator's list of partners", async () => {
    const { partners } = ok(await operator('{ partners { id nextLockAt } }'));
    for (const partner of partners)
      expect(partner.nextLockAt).toBe(ok(await operator(NEXT_LOCK, { id: partner.id })).partner.nextLockAt);
  });
});
