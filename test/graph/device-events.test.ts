// Device.events (decisions.md 46), on PGlite and on Postgres: the events of the log whose data names
// the device, made as the service makes them (the lock timeline on a sandbox clock, an in-store payment,
// a command acknowledged at check-ins through the door's own check-in), newest first; paged with
// first/after and the log's cursors; filtered by types; never another device's, nor an event of
// another partner's log naming the same tag; unreachable for another partner's keys.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkIn } from '../../src/modules/deviceDoor/checkin.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { partnerSettingsOf } from '../../src/modules/partners/settings.js';
import { fireAllDueInstants } from '../../src/modules/timeline/scheduler.js';
import { useSeededService } from '../support/fixtures.js';

const fixture = useSeededService();
const db = () => fixture.database.db;

const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };
const OTHER_PARTNER = { 'x-api-key': 'other-partner-key' };
const OTHER_RETAIL = { 'x-api-key': 'other-retail-key' };
/** Another device of Demo Retail's. */
const SIBLING_TAG = 'DTSTBBD';
const HOUR_MS = 3_600_000;
const DAY = 86_400;

type Body = { data: any; errors?: Array<{ message: string; extensions: Record<string, unknown> }> };

async function graphql(headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  return (await fixture.service.graphql(query, headers, variables)).body as Body;
}

async function ok(headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) {
  const body = await graphql(headers, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

const errorCode = (body: Body) => body.errors?.[0]?.extensions.code;

const EVENTS = `query ($order: ID!, $first: Int, $after: String, $types: [EventType!]) {
  financeOrder(id: $order) { device { tag events(first: $first, after: $after, types: $types) {
    edges { cursor node { id } }
    nodes { id type sequence occurredAt data }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`;

interface EventNode {
  id: string;
  type: string;
  sequence: string;
  data: { device: { tag: string; imei: string | null } };
}

async function eventsOfOrder(
  orderId: string,
  variables: { first?: number; after?: string; types?: string[] } = {},
  headers = OPERATOR,
) {
  const data = await ok(headers, EVENTS, { order: orderId, ...variables });
  return data.financeOrder.device.events as {
    edges: Array<{ cursor: string; node: { id: string } }>;
    nodes: EventNode[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  };
}

interface Device {
  partnerId: string;
  deviceId: string;
  imei: string;
}

async function deviceOf(tag: string): Promise<Device> {
  const row = await db()('devices').where({ tag }).first('partner_id', 'id', 'imei');
  return { partnerId: String(row.partner_id), deviceId: String(row.id), imei: row.imei };
}

/** The partner's time, as its sandbox clock has it. */
async function partnerNow(partnerId: string): Promise<Date> {
  const data = await ok(OPERATOR, 'query ($id: ID!) { partner(id: $id) { sandboxClock { now realNow } } }', {
    id: partnerId,
  });
  const clock = data.partner.sandboxClock as { now: number; realNow: number } | null;
  return new Date(Date.now() + (clock ? (clock.now - clock.realNow) * 1000 : 0));
}

/** A check-in as the device door makes it, at `now`, acknowledging `acknowledged`. */
async function checkInAt(device: Device, now: Date, acknowledged: string[] = []) {
  const outcome = await checkIn(
    db(),
    { partnerId: device.partnerId, deviceId: device.deviceId },
    { imei: device.imei, simNumber: null, appVersion: '1.0.0', acknowledged, nonce: `nonce-${now.getTime()}` },
    {
      now,
      settings: await partnerSettingsOf(db(), device.partnerId),
      origin: { clientAddress: null, requestId: null },
    },
  );
  expect('refused' in outcome).toBe(false);
}

const setClock = (now: number) =>
  ok(OPERATOR, 'mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
    input: { partnerId: '1', now },
  });

/** What was done to the demo order's device, newest first. */
const STORY = [
  'DEVICE_CHECKED_IN',
  'DEVICE_COMMAND_ACKNOWLEDGED',
  'DEVICE_CHECKED_IN',
  'DEVICE_UNLOCKED',
  'DEVICE_CHECKED_IN',
  'DEVICE_LOCKED',
  'DEVICE_LOCK_UPCOMING',
];

beforeAll(async () => {
  const demo = await deviceOf(DEMO_DEVICE_TAG);
  const sibling = await deviceOf(SIBLING_TAG);
  const { lockAt } = (
    await ok(OPERATOR, 'query ($id: ID!) { financeOrder(id: $id) { lockAt } }', { id: DEMO_ORDER_ID })
  ).financeOrder as { lockAt: number };
  // The last reminder (1 day before lockAt), then the lock, each written by the scheduler's claim.
  await setClock(lockAt - DAY + 60);
  await fireAllDueInstants(db());
  await setClock(lockAt);
  await fireAllDueInstants(db());
  const locked = await partnerNow(demo.partnerId);
  await checkInAt(demo, locked);
  await checkInAt(sibling, locked);
  const paid = await ok(
    RETAIL,
    `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { fullyPaid } }`,
    {
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId: DEMO_ORDER_ID,
        amount: '18.00',
        currency: 'USD',
      },
    },
  );
  expect(paid.recordInStorePayment.fullyPaid).toBe(false);
  const sent = await ok(
    PARTNER,
    'mutation ($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { id } }',
    { input: { deviceId: demo.deviceId, type: 'SHOW_MESSAGE', message: 'Hello' } },
  );
  // The first check-in carries the command, the next acknowledges it: each an hour apart, each logged.
  await checkInAt(demo, new Date(locked.getTime() + 2 * HOUR_MS));
  await checkInAt(demo, new Date(locked.getTime() + 4 * HOUR_MS), [sent.sendDeviceCommand.id]);
});

describe('Device.events', () => {
  it("are the device's lock, unlock, check-in and acknowledged-command events, newest first", async () => {
    const events = await eventsOfOrder(DEMO_ORDER_ID);
    expect(events.nodes.map((node) => node.type)).toEqual(STORY);
    expect(events.nodes.every((node) => node.data.device.tag === DEMO_DEVICE_TAG)).toBe(true);
    const sequences = events.nodes.map((node) => BigInt(node.sequence));
    for (let i = 1; i < sequences.length; i++) expect(sequences[i]! < sequences[i - 1]!).toBe(true);
    expect(events.edges.map((edge) => edge.node.id)).toEqual(events.nodes.map((node) => node.id));
    expect(events.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    // Every event of the log naming the device, and only those: the payment's own events name it otherwise.
    const logged = await db()('events')
      .where({ partner_id: '1' })
      .whereRaw(`data->'device'->>'tag' = ?`, [DEMO_DEVICE_TAG])
      .orderBy('sequence', 'desc')
      .pluck('id');
    expect(events.nodes.map((node) => node.id)).toEqual(logged);
  });

  it('come a page at a time with first and after, each page after the one before', async () => {
    const whole = (await eventsOfOrder(DEMO_ORDER_ID)).nodes.map((node) => node.id);
    const first = await eventsOfOrder(DEMO_ORDER_ID, { first: 3 });
    expect(first.nodes.map((node) => node.id)).toEqual(whole.slice(0, 3));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.pageInfo.endCursor).toBe(first.edges[2]!.cursor);
    const second = await eventsOfOrder(DEMO_ORDER_ID, { first: 3, after: first.pageInfo.endCursor! });
    expect(second.nodes.map((node) => node.id)).toEqual(whole.slice(3, 6));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const last = await eventsOfOrder(DEMO_ORDER_ID, { first: 3, after: second.pageInfo.endCursor! });
    expect(last.nodes.map((node) => node.id)).toEqual(whole.slice(6));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('keep only the types asked for', async () => {
    const events = await eventsOfOrder(DEMO_ORDER_ID, { types: ['DEVICE_LOCKED', 'DEVICE_UNLOCKED'] });
    expect(events.nodes.map((node) => node.type)).toEqual(['DEVICE_UNLOCKED', 'DEVICE_LOCKED']);
    const paged = await eventsOfOrder(DEMO_ORDER_ID, { types: ['DEVICE_CHECKED_IN'], first: 2 });
    expect(paged.nodes.map((node) => node.type)).toEqual(['DEVICE_CHECKED_IN', 'DEVICE_CHECKED_IN']);
    expect(paged.pageInfo.hasNextPage).toBe(true);
    const rest = await eventsOfOrder(DEMO_ORDER_ID, {
      types: ['DEVICE_CHECKED_IN'],
      first: 2,
      after: paged.pageInfo.endCursor!,
    });
    expect(rest.nodes.map((node) => node.type)).toEqual(['DEVICE_CHECKED_IN']);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    expect((await eventsOfOrder(DEMO_ORDER_ID, { types: ['PAYMENT_RECORDED'] })).nodes).toEqual([]);
  });

  it("hold no other device's events, nor another partner's event naming the same tag", async () => {
    const sibling = await ok(
      OPERATOR,
      `query { devices(partnerId: "1", first: 100) { nodes { tag events { nodes { id type data } } } } }`,
    );
    const siblingEvents = sibling.devices.nodes.find((node: { tag: string }) => node.tag === SIBLING_TAG).events
      .nodes as EventNode[];
    expect(siblingEvents.map((node) => node.type)).toContain('DEVICE_CHECKED_IN');
    expect(siblingEvents.every((node) => node.data.device.tag === SIBLING_TAG)).toBe(true);
    // Written straight into the other partner's log: no writer names a device of another partner.
    const [stray] = await appendEvents(db(), '2', [
      {
        type: 'device.checked_in',
        occurredAt: new Date(),
        data: {
          device: { tag: DEMO_DEVICE_TAG, imei: null },
          lockState: 'UNLOCKED',
          reason: null,
          appVersion: '1.0.0',
          simMismatch: false,
        },
      },
    ]);
    const ids = (await eventsOfOrder(DEMO_ORDER_ID)).nodes.map((node) => node.id);
    expect(ids).toHaveLength(STORY.length);
    expect(ids).not.toContain(stray!.id);
    for (const node of siblingEvents) expect(ids).not.toContain(node.id);
  });

  it("are read by whoever sees the device: the partner's partner and retail keys", async () => {
    const asOperator = (await eventsOfOrder(DEMO_ORDER_ID)).nodes.map((node) => node.id);
    for (const key of [PARTNER, RETAIL]) {
      expect((await eventsOfOrder(DEMO_ORDER_ID, {}, key)).nodes.map((node) => node.id)).toEqual(asOperator);
    }
  });

  it("another partner's keys cannot reach the device, so not its events", async () => {
    const demo = await deviceOf(DEMO_DEVICE_TAG);
    for (const key of [OTHER_PARTNER, OTHER_RETAIL]) {
      const body = await graphql(key, EVENTS, { order: DEMO_ORDER_ID });
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      expect(body.data.financeOrder).toBeNull();
      const text = JSON.stringify(body);
      expect(text).not.toContain(DEMO_DEVICE_TAG);
    }
    const listed = await graphql(
      OTHER_PARTNER,
      `query { devices(partnerId: "1") { nodes { id tag events { nodes { id } } } } }`,
    );
    expect(listed.errors, JSON.stringify(listed.errors)).toBeUndefined();
    expect(listed.data.devices.nodes).toEqual([]);
    const own = await ok(
      OTHER_PARTNER,
      `query { devices(first: 100) { nodes { id tag events { nodes { id data } } } } }`,
    );
    for (const device of own.devices.nodes as Array<{ id: string; events: { nodes: EventNode[] } }>) {
      expect(device.id).not.toBe(demo.deviceId);
      for (const node of device.events.nodes) expect(node.data.device.tag).not.toBe(DEMO_DEVICE_TAG);
    }
  });

  it("refuse a cursor of every partner's log, and a first out of 1 to 100", async () => {
    const everyPartner = await ok(OPERATOR, '{ events(first: 1) { pageInfo { endCursor } } }');
    const body = await graphql(OPERATOR, EVENTS, {
      order: DEMO_ORDER_ID,
      after: everyPartner.events.pageInfo.endCursor,
    });
    expect(errorCode(body)).toBe('INVALID_ARGUMENT');
    expect(errorCode(await graphql(OPERATOR, EVENTS, { order: DEMO_ORDER_ID, after: 'not-a-cursor' }))).toBe(
      'INVALID_ARGUMENT',
    );
    for (const first of [0, 101]) {
      expect(errorCode(await graphql(OPERATOR, EVENTS, { order: DEMO_ORDER_ID, first }))).toBe('INVALID_ARGUMENT');
    }
  });
});
