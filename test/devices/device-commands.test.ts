// Device commands (decisions.md 20 and 34), on PGlite and on Postgres: sent through GraphQL by partner
// keys (their own devices only) and operators, each refusal writing nothing (a message's refused
// characters, a device's 50 waiting commands, raced on Postgres, included); RELEASE only once the order
// is paid off; what a check-in does with them (commandsAtCheckin, called here as the device door calls
// it, in its transaction): carried at every check-in until acknowledged, deliveredAt the first
// carrying, acknowledged only for this device, the acknowledged event, expiry, the lock state;
// Device.commands newest first, a page at a time.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { commandsAtCheckin } from '../../src/modules/deviceCommands/atCheckin.js';
import { insertDeviceCommand } from '../../src/modules/deviceCommands/queries.js';
import type { DeviceCommandType } from '../../src/modules/deviceCommands/rows.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { fanOutCommittedEvents } from '../../src/modules/webhooks/fanOut.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const HOUR = 3_600_000;
const fixture = useSeededService({ now: NOW });
const db = () => fixture.database.db;

const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };
const OTHER_PARTNER = { 'x-api-key': 'other-partner-key' };
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const OTHER_ORDER_ID = '5000002';
/** A one-peso in-store payment on the other order, as its retailer ('other-retail-key'). */
const PAY_OTHER_ORDER = {
  query: `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { fullyPaid } }`,
  variables: {
    input: {
      merchantId: '2000001',
      salesClerkId: '6001',
      financeOrderId: OTHER_ORDER_ID,
      amount: '1.00',
      currency: 'MXN',
    },
  },
};

const COMMAND_FIELDS = 'id type status hours message createdAt deliveredAt acknowledgedAt';
const SEND = `mutation ($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { ${COMMAND_FIELDS} } }`;
const LIST = `query ($order: ID!, $first: Int, $after: ID) { financeOrder(id: $order) { device {
  commands(first: $first, after: $after) { edges { cursor } nodes { ${COMMAND_FIELDS} } pageInfo { hasNextPage hasPreviousPage endCursor } } } } }`;

type Body = { data: any; errors?: Array<{ message: string; extensions: Record<string, unknown> }> };

async function graphql(headers: Record<string, string>, query: string, variables: Record<string, unknown>) {
  return (await fixture.service.graphql(query, headers, variables)).body as Body;
}

const errorCode = (body: Body) => body.errors?.[0]?.extensions.code;

interface TestDevice {
  partnerId: string;
  deviceId: string;
  tag: string;
  imei: string;
}

async function deviceIdOf(tag: string): Promise<TestDevice> {
  const device = await db()('devices').where({ tag }).first('partner_id', 'id', 'imei');
  return { partnerId: String(device.partner_id), deviceId: String(device.id), tag, imei: device.imei };
}

async function send(input: Record<string, unknown>, headers = PARTNER) {
  const body = await graphql(headers, SEND, { input });
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data.sendDeviceCommand as Record<string, any>;
}

/** Everything a sent or refused command could write. */
async function snapshot() {
  return {
    commands: await db()('device_commands').select('id', 'status').orderBy('id'),
    audit: Number((await db()('audit_events').count({ n: '*' }))[0]!.n),
    events: Number((await db()('events').count({ n: '*' }))[0]!.n),
  };
}

async function expectRefused(input: Record<string, unknown>, code: string, headers = PARTNER) {
  const before = await snapshot();
  const body = await graphql(headers, SEND, { input });
  expect(errorCode(body), JSON.stringify(body)).toBe(code);
  expect(body.data).toBeNull();
  expect(await snapshot()).toEqual(before);
  return body;
}

/** A check-in's part, as the device door runs it: in one transaction, its events appended with the door's. */
async function checkIn(device: TestDevice, now: Date, acknowledged: string[] = []) {
  return db().transaction(async (trx) => {
    const named = { partner_id: device.partnerId, id: device.deviceId, tag: device.tag, imei: device.imei };
    const result = await commandsAtCheckin(trx, { device: named, now, acknowledged });
    await appendEvents(trx, device.partnerId, result.events);
    return result;
  });
}

/** A command stored directly, sent at `createdAt` (the service's clock stands still at NOW). */
async function stored(
  device: { partnerId: string; deviceId: string },
  type: DeviceCommandType,
  createdAt: Date,
  input: { hours?: number; message?: string } = {},
) {
  return insertDeviceCommand(db(), {
    partner_id: device.partnerId,
    device_id: device.deviceId,
    type,
    hours: input.hours ?? null,
    message: input.message ?? null,
    created_at: createdAt,
  });
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

describe('sending a command', () => {
  it('each type, with a partner key for its own device: PENDING, with only its own input, audited without the text', async () => {
    const { deviceId } = await deviceIdOf(DEMO_DEVICE_TAG);
    const lock = await send({ deviceId, type: 'LOCK_NOW' });
    const unlock = await send({ deviceId, type: 'UNLOCK_FOR_HOURS', hours: 720 });
    const message = await send({ deviceId, type: 'SHOW_MESSAGE', message: 'Pay 4.20 at DEMO to keep your phone' });
    const common = { status: 'PENDING', createdAt: seconds(NOW), deliveredAt: null, acknowledgedAt: null };
    expect(lock).toEqual({ ...common, id: expect.any(String), type: 'LOCK_NOW', hours: null, message: null });
    expect(unlock).toMatchObject({ ...common, type: 'UNLOCK_FOR_HOURS', hours: 720, message: null });
    expect(message).toMatchObject({
      ...common,
      type: 'SHOW_MESSAGE',
      hours: null,
      message: 'Pay 4.20 at DEMO to keep your phone',
    });
    const audit = await db()('audit_events').where({ action: 'device_command.send' }).orderBy('id');
    expect(audit.map((row) => [row.actor_kind, row.subject_id, row.details])).toEqual([
      ['partner', lock.id, { deviceId, type: 'LOCK_NOW', hours: null, messageLength: null }],
      ['partner', unlock.id, { deviceId, type: 'UNLOCK_FOR_HOURS', hours: 720, messageLength: null }],
      ['partner', message.id, { deviceId, type: 'SHOW_MESSAGE', hours: null, messageLength: 35 }],
    ]);
    expect(JSON.stringify(audit)).not.toContain('keep your phone');
  });

  it('refuses bad input with INVALID_ARGUMENT naming the field, writing nothing', async () => {
    const { deviceId } = await deviceIdOf(DEMO_DEVICE_TAG);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'UNLOCK_FOR_HOURS' }, 'input.hours'],
      [{ type: 'UNLOCK_FOR_HOURS', hours: 0 }, 'input.hours'],
      [{ type: 'UNLOCK_FOR_HOURS', hours: 721 }, 'input.hours'],
      [{ type: 'UNLOCK_FOR_HOURS', hours: -5 }, 'input.hours'],
      [{ type: 'UNLOCK_FOR_HOURS', hours: 2, message: 'x' }, 'input.message'],
      [{ type: 'SHOW_MESSAGE' }, 'input.message'],
      [{ type: 'SHOW_MESSAGE', message: '   ' }, 'input.message'],
      [{ type: 'SHOW_MESSAGE', message: 'x'.repeat(501) }, 'input.message'],
      [{ type: 'SHOW_MESSAGE', message: 'a\u0000b' }, 'input.message'],
      [{ type: 'SHOW_MESSAGE', message: 'hello', hours: 1 }, 'input.hours'],
      [{ type: 'LOCK_NOW', hours: 1 }, 'input.hours'],
      [{ type: 'RELEASE', message: 'bye' }, 'input.message'],
    ];
    for (const [input, argument] of cases) {
      const body = await expectRefused({ deviceId, ...input }, 'INVALID_ARGUMENT');
      expect(body.errors![0]!.extensions.argument, JSON.stringify(input)).toBe(argument);
    }
    // 500 characters exactly (emoji count as one each) are accepted.
    const longest = await send({ deviceId, type: 'SHOW_MESSAGE', message: '📱'.repeat(500) });
    expect([...longest.message].length).toBe(500);
  });

  it("another partner's device is RESOURCE_NOT_FOUND, answered as for a device that does not exist; retail keys FORBIDDEN", async () => {
    const other = await deviceIdOf('DTSTBBE');
    const theirs = await expectRefused({ deviceId: other.deviceId, type: 'LOCK_NOW' }, 'RESOURCE_NOT_FOUND');
    const ghost = await expectRefused({ deviceId: '987654', type: 'LOCK_NOW' }, 'RESOURCE_NOT_FOUND');
    expect(theirs.errors![0]!.message.replace(other.deviceId, '<id>')).toBe(
      ghost.errors![0]!.message.replace('987654', '<id>'),
    );
    await expectRefused({ deviceId: 'not-an-id', type: 'LOCK_NOW' }, 'RESOURCE_NOT_FOUND');
    const { deviceId } = await deviceIdOf(DEMO_DEVICE_TAG);
    await expectRefused({ deviceId, type: 'LOCK_NOW' }, 'FORBIDDEN', RETAIL);
    await expectRefused({ deviceId, type: 'LOCK_NOW' }, 'RESOURCE_NOT_FOUND', OTHER_PARTNER);
    // Operators reach every partner's devices; their commands are audited as theirs.
    const sent = await send({ deviceId: other.deviceId, type: 'SHOW_MESSAGE', message: 'Hola' }, OPERATOR);
    const audit = await db()('audit_events').where({ subject_id: sent.id, action: 'device_command.send' }).first();
    expect(audit).toMatchObject({ actor_kind: 'operator', partner_id: other.partnerId });
  });
});

describe('at a check-in', () => {
  it('carries the waiting commands, oldest first, at every check-in until acknowledged; deliveredAt is the first carrying', async () => {
    const device = await deviceIdOf(DEMO_DEVICE_TAG);
    const pending = await db()('device_commands')
      .where({ device_id: device.deviceId, status: 'PENDING' })
      .orderBy('id')
      .select('id', 'type', 'hours', 'message');
    expect(pending.map((row) => row.type)).toEqual(['LOCK_NOW', 'UNLOCK_FOR_HOURS', 'SHOW_MESSAGE', 'SHOW_MESSAGE']);
    const carried = pending.map((row) => ({ ...row, id: String(row.id) }));
    const first = await checkIn(device, NOW);
    expect(first.commands).toEqual(carried);
    expect(first.events).toEqual([]);
    // An answer the device never accepted used nothing up: the next check-in carries them all again.
    const again = await checkIn(device, new Date(NOW.getTime() + 60_000));
    expect(again.commands).toEqual(carried);
    const rows = await db()('device_commands').where({ device_id: device.deviceId }).orderBy('id');
    expect(rows.map((row) => [row.status, row.delivered_at?.getTime()])).toEqual(
      pending.map(() => ['DELIVERED', NOW.getTime()]),
    );
    const listed = await graphql(PARTNER, LIST, { order: DEMO_ORDER_ID, first: 10 });
    expect(listed.data.financeOrder.device.commands.nodes.map((node: any) => [node.status, node.deliveredAt])).toEqual(
      pending.map(() => ['DELIVERED', seconds(NOW)]),
    );
    // The newest lock command delivered is the UNLOCK_FOR_HOURS (720 hours from its delivery).
    expect(first).toMatchObject({ lockNow: false, unlockedUntil: new Date(NOW.getTime() + 720 * HOUR) });
  });

  it("acknowledges only this device's delivered commands, each with one device.command_acknowledged event", async () => {
    const device = await deviceIdOf(DEMO_DEVICE_TAG);
    const other = await deviceIdOf('DTSTBBE');
    const delivered = await db()('device_commands')
      .where({ device_id: device.deviceId, status: 'DELIVERED' })
      .orderBy('id');
    const someonesElse = await stored(other, 'SHOW_MESSAGE', NOW, { message: 'not yours' });
    await checkIn(other, NOW);
    const stillPending = await stored(device, 'SHOW_MESSAGE', NOW, { message: 'later' });
    const at = new Date(NOW.getTime() + 2 * 60_000);
    const sentIds = [String(delivered[0]!.id), String(delivered[2]!.id), someonesElse.id, stillPending.id, 'junk', '0'];
    // A STANDARD endpoint that asked for the type is given a delivery of each.
    const endpoint = await graphql(
      OPERATOR,
      'mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
      {
        input: {
          partnerId: device.partnerId,
          url: 'http://127.0.0.1:9/commands',
          eventTypes: ['DEVICE_COMMAND_ACKNOWLEDGED'],
        },
      },
    );
    expect(endpoint.errors).toBeUndefined();
    const endpointId = endpoint.data.createWebhookEndpoint.endpoint.id as string;
    const eventsBefore = Number((await db()('events').count({ n: '*' }))[0]!.n);
    const result = await checkIn(device, at, sentIds);
    // The pending one is carried by this check-in, not acknowledged; so are the two it did not acknowledge.
    expect(result.commands.map((command) => command.id)).toEqual([
      String(delivered[1]!.id),
      String(delivered[3]!.id),
      stillPending.id,
    ]);
    const states = Object.fromEntries(
      (
        await db()('device_commands').whereIn('id', [
          ...delivered.map((row) => row.id),
          someonesElse.id,
          stillPending.id,
        ])
      ).map((row) => [String(row.id), row.status]),
    );
    expect(states).toEqual({
      [String(delivered[0]!.id)]: 'ACKNOWLEDGED',
      [String(delivered[1]!.id)]: 'DELIVERED',
      [String(delivered[2]!.id)]: 'ACKNOWLEDGED',
      [String(delivered[3]!.id)]: 'DELIVERED',
      [someonesElse.id]: 'DELIVERED',
      [stillPending.id]: 'DELIVERED',
    });
    expect(result.events.map((event) => event.type)).toEqual([
      'device.command_acknowledged',
      'device.command_acknowledged',
    ]);
    expect(result.events[1]).toEqual({
      type: 'device.command_acknowledged',
      occurredAt: at,
      data: {
        device: { tag: DEMO_DEVICE_TAG, imei: '123456789012347' },
        command: {
          id: String(delivered[2]!.id),
          type: 'SHOW_MESSAGE',
          hours: null,
          message: 'Pay 4.20 at DEMO to keep your phone',
          createdAt: seconds(NOW),
          deliveredAt: seconds(NOW),
          acknowledgedAt: seconds(at),
        },
      },
    });
    expect(Number((await db()('events').count({ n: '*' }))[0]!.n)).toBe(eventsBefore + 2);
    await fanOutCommittedEvents(db(), 1000); // the workers' relay: each committed event's deliveries
    const deliveries = await db()('webhook_deliveries as d')
      .join('events as e', function () {
        this.on('e.partner_id', 'd.partner_id').andOn('e.id', 'd.event_id');
      })
      .where({ 'd.endpoint_id': endpointId })
      .select('e.type');
    expect(deliveries.map((row) => row.type)).toEqual(['device.command_acknowledged', 'device.command_acknowledged']);
    // The log gives them to the partner's readers under DEVICE_COMMAND_ACKNOWLEDGED.
    const log = await graphql(
      PARTNER,
      'query { events(types: [DEVICE_COMMAND_ACKNOWLEDGED]) { nodes { type data } } }',
      {},
    );
    expect(log.data.events.nodes.map((node: any) => node.data.command.id)).toEqual([
      String(delivered[2]!.id),
      String(delivered[0]!.id),
    ]);
    // Acknowledging again changes nothing and writes no event; the command delivered since is acknowledged now.
    const repeated = await checkIn(device, new Date(at.getTime() + 60_000), sentIds);
    expect(repeated.events.map((event) => (event.data as any).command.id)).toEqual([stillPending.id]);
    const again = await checkIn(device, new Date(at.getTime() + 120_000), sentIds);
    expect(again.events).toEqual([]);
  });

  it('LOCK_NOW locks until a later UNLOCK_FOR_HOURS or a payment received after it; the unlock runs from its delivery', async () => {
    // Other Retail's device: its own history, at times of the test's choosing.
    const device = await deviceIdOf('DTSTBBE');
    const t0 = new Date(NOW.getTime() + 10 * HOUR);
    await stored(device, 'LOCK_NOW', t0);
    expect(await checkIn(device, new Date(t0.getTime() + HOUR))).toMatchObject({ lockNow: true, unlockedUntil: null });
    // Still locked at a later check-in: the state lasts beyond the delivery.
    expect(await checkIn(device, new Date(t0.getTime() + 2 * HOUR))).toMatchObject({ lockNow: true });
    // A SHOW_MESSAGE changes nothing.
    await stored(device, 'SHOW_MESSAGE', new Date(t0.getTime() + 3 * HOUR), { message: 'call us' });
    expect(await checkIn(device, new Date(t0.getTime() + 3 * HOUR))).toMatchObject({ lockNow: true });
    // An unlock for 2 hours, sent at +4 h and delivered at +5 h: unlocked until +7 h, then the order decides again.
    await stored(device, 'UNLOCK_FOR_HOURS', new Date(t0.getTime() + 4 * HOUR), { hours: 2 });
    const unlocked = await checkIn(device, new Date(t0.getTime() + 5 * HOUR));
    expect(unlocked).toMatchObject({ lockNow: false, unlockedUntil: new Date(t0.getTime() + 7 * HOUR) });
    expect(await checkIn(device, new Date(t0.getTime() + 8 * HOUR))).toMatchObject({
      lockNow: false,
      unlockedUntil: null,
    });
    // A new LOCK_NOW, then a payment received after it (the order's own payment door): unlocked.
    const lockSentAt = new Date(NOW.getTime() - HOUR);
    await stored(device, 'LOCK_NOW', lockSentAt);
    expect(await checkIn(device, new Date(t0.getTime() + 9 * HOUR))).toMatchObject({ lockNow: true });
    const paid = await graphql({ 'x-api-key': 'other-retail-key' }, PAY_OTHER_ORDER.query, PAY_OTHER_ORDER.variables);
    expect(paid.errors, JSON.stringify(paid.errors)).toBeUndefined();
    expect(await checkIn(device, new Date(t0.getTime() + 10 * HOUR))).toMatchObject({
      lockNow: false,
      unlockedUntil: null,
    });
  });

  it('a command unacknowledged 7 days after it was sent is EXPIRED and carried no more, carried before or not; a late acknowledgement counts', async () => {
    // A device of its own (Demo Retail's DTSTBBD): no other command rides its check-ins.
    const device = await deviceIdOf('DTSTBBD');
    const WEEK = 7 * 24 * HOUR;
    const carriedOnce = await stored(device, 'SHOW_MESSAGE', new Date(NOW.getTime() - WEEK), { message: 'seen?' });
    const sixDaysAgo = new Date(NOW.getTime() - 6 * 24 * HOUR);
    expect((await checkIn(device, sixDaysAgo)).commands.map((command) => command.id)).toEqual([carriedOnce.id]);
    const neverCarried = await stored(device, 'SHOW_MESSAGE', new Date(NOW.getTime() - WEEK), { message: 'too late' });
    const fresh = await stored(device, 'SHOW_MESSAGE', new Date(NOW.getTime() - WEEK + 60_000), {
      message: 'just in time',
    });
    const listed = await graphql(
      PARTNER,
      'query ($t: String!) { device(tag: $t) { commands(first: 10) { nodes { id status deliveredAt acknowledgedAt } } } }',
      { t: 'DTSTBBD' },
    );
    expect(listed.data.device.commands.nodes).toEqual([
      { id: fresh.id, status: 'PENDING', deliveredAt: null, acknowledgedAt: null },
      { id: neverCarried.id, status: 'EXPIRED', deliveredAt: null, acknowledgedAt: null },
      { id: carriedOnce.id, status: 'EXPIRED', deliveredAt: seconds(sixDaysAgo), acknowledgedAt: null },
    ]);
    const result = await checkIn(device, NOW);
    expect(result.commands.map((command) => command.id)).toEqual([fresh.id]);
    expect((await db()('device_commands').where({ id: neverCarried.id }).first()).status).toBe('PENDING');
    // The device says it has the one it was carried: recorded, with its event; the one never carried is ignored.
    const late = await checkIn(device, new Date(NOW.getTime() + 30_000), [carriedOnce.id, neverCarried.id]);
    expect(late.events.map((event) => (event.data as any).command.id)).toEqual([carriedOnce.id]);
    expect(late.commands.map((command) => command.id)).toEqual([fresh.id]);
    const statuses = await db()('device_commands').whereIn('id', [carriedOnce.id, neverCarried.id]).orderBy('id');
    expect(statuses.map((row) => row.status)).toEqual(['ACKNOWLEDGED', 'PENDING']);
  });
});

describe('a sandbox clock reset (decisions.md 34)', () => {
  // A service of its own on the real clock, which moves: a payment made after the reset is later than it.
  const onRealTime = useSeededService();
  const operator = (query: string, variables: Record<string, unknown> = {}) =>
    onRealTime.service.graphql(query, OPERATOR, variables).then(({ body }) => body as Body);

  it('brings the command times written ahead back to the reset: a LOCK_NOW sent then is lifted by a payment after it', async () => {
    const row = await onRealTime.database.db('devices').where({ tag: 'DTSTBBE' }).first('partner_id', 'id', 'imei');
    const device = { partnerId: String(row.partner_id), deviceId: String(row.id), tag: 'DTSTBBE', imei: row.imei };
    const checkInAt = (now: Date) =>
      onRealTime.database.db.transaction((trx) =>
        commandsAtCheckin(trx, {
          device: { partner_id: device.partnerId, id: device.deviceId, tag: device.tag, imei: device.imei },
          now,
          acknowledged: [],
        }),
      );
    const ahead = Math.floor(Date.now() / 1000) + 10 * 24 * 3600;
    const set = await operator('mutation ($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
      input: { partnerId: device.partnerId, now: ahead },
    });
    expect(set.errors, JSON.stringify(set.errors)).toBeUndefined();
    const sent = await operator(SEND, { input: { deviceId: device.deviceId, type: 'LOCK_NOW' } });
    expect(sent.errors, JSON.stringify(sent.errors)).toBeUndefined();
    expect(sent.data.sendDeviceCommand.createdAt).toBeGreaterThanOrEqual(ahead);
    expect(await checkInAt(new Date(ahead * 1000 + HOUR))).toMatchObject({ lockNow: true });

    const reset = await operator('mutation ($p: ID!) { resetSandboxClock(partnerId: $p) { now } }', {
      p: device.partnerId,
    });
    expect(reset.errors, JSON.stringify(reset.errors)).toBeUndefined();
    const resetAt = reset.data.resetSandboxClock.now as number;
    const stored = await onRealTime.database
      .db('device_commands')
      .where({ id: sent.data.sendDeviceCommand.id })
      .first();
    // Brought back to the reset (whole seconds shown; the stored instant is the reset's own).
    expect(Math.floor(new Date(stored.created_at).getTime() / 1000)).toBeLessThanOrEqual(resetAt);
    expect(Math.floor(new Date(stored.delivered_at).getTime() / 1000)).toBeLessThanOrEqual(resetAt);

    // A payment after the reset is after the command: the order decides again.
    const paid = await onRealTime.service.graphql(
      PAY_OTHER_ORDER.query,
      { 'x-api-key': 'other-retail-key' },
      PAY_OTHER_ORDER.variables,
    );
    expect((paid.body as Body).errors, JSON.stringify(paid.body)).toBeUndefined();
    expect(await checkInAt(new Date())).toMatchObject({ lockNow: false });
  });
});

describe('the bounds of a command (decisions.md 34)', () => {
  it('SHOW_MESSAGE refuses control characters but the newline, bidirectional overrides and isolates, line and paragraph separators, naming the character', async () => {
    const { deviceId } = await deviceIdOf('DTSTBBC');
    const refused: Array<[string, string]> = [
      ['a\u0000b', 'U+0000'],
      ['tab\there', 'U+0009'],
      ['carriage\rreturn', 'U+000D'],
      ['escape \u001b[2J', 'U+001B'],
      ['delete \u007f', 'U+007F'],
      ['next line \u0085', 'U+0085'],
      ['c1 \u009f', 'U+009F'],
      ['Pay \u202e0.01\u202c now', 'U+202E'],
      ['embedding \u202a', 'U+202A'],
      ['isolate \u2066x\u2069', 'U+2066'],
      ['first strong \u2068', 'U+2068'],
      ['line\u2028separator', 'U+2028'],
      ['paragraph\u2029separator', 'U+2029'],
      ['lone \ud800 surrogate', 'U+D800'],
    ];
    for (const [message, character] of refused) {
      const body = await expectRefused({ deviceId, type: 'SHOW_MESSAGE', message }, 'INVALID_ARGUMENT');
      expect(body.errors![0]!.extensions.argument, JSON.stringify(message)).toBe('input.message');
      expect(body.errors![0]!.message).toContain(character);
    }
    const position = await graphql(PARTNER, SEND, {
      input: { deviceId, type: 'SHOW_MESSAGE', message: '📱📱 \u202e' },
    });
    expect(position.errors![0]!.message).toContain(
      'U+202E (a bidirectional embedding or override), found at character 4',
    );
    // The newline, and the marks right-to-left text needs, are kept.
    for (const message of ['Line one\nLine two', 'ادفع الآن\u200f 4.20', 'abc\u200e\u061c']) {
      expect((await send({ deviceId, type: 'SHOW_MESSAGE', message })).message).toBe(message);
    }
  });

  it('a device holds at most 50 waiting commands: the 51st is TOO_MANY_PENDING_COMMANDS, writing nothing; an acknowledgement makes room', async () => {
    const device = await deviceIdOf('DTSTBBC');
    const waiting = async () =>
      Number(
        (
          await db()('device_commands')
            .where({ device_id: device.deviceId })
            .whereNot('status', 'ACKNOWLEDGED')
            .count({ n: '*' })
        )[0]!.n,
      );
    // The three messages of the test before wait already; the rest are stored directly.
    for (let i = await waiting(); i < 50; i += 1) await stored(device, 'SHOW_MESSAGE', NOW, { message: `m${i}` });
    expect(await waiting()).toBe(50);
    const full = await expectRefused({ deviceId: device.deviceId, type: 'LOCK_NOW' }, 'TOO_MANY_PENDING_COMMANDS');
    expect(full.errors![0]!.extensions.limit).toBe(50);
    await expectRefused(
      { deviceId: device.deviceId, type: 'SHOW_MESSAGE', message: 'one more' },
      'TOO_MANY_PENDING_COMMANDS',
      OPERATOR,
    );
    // Carried and acknowledged, one leaves the count: one more may be sent.
    const carried = await checkIn(device, NOW);
    expect(carried.commands).toHaveLength(20);
    await checkIn(device, NOW, [carried.commands[0]!.id]);
    expect(await waiting()).toBe(49);
    await send({ deviceId: device.deviceId, type: 'LOCK_NOW' });
    await expectRefused({ deviceId: device.deviceId, type: 'LOCK_NOW' }, 'TOO_MANY_PENDING_COMMANDS');
  });

  it('concurrent sends to a device with room for one: exactly one is stored (the count is taken under the device lock)', async () => {
    const device = await deviceIdOf('DTSTBBC');
    const carried = await checkIn(device, NOW);
    await checkIn(device, NOW, [carried.commands[0]!.id]);
    const before = Number((await db()('audit_events').count({ n: '*' }))[0]!.n);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        graphql(PARTNER, SEND, { input: { deviceId: device.deviceId, type: 'SHOW_MESSAGE', message: `race ${i}` } }),
      ),
    );
    const codes = answers.map((body) => errorCode(body) ?? 'SENT').sort();
    expect(codes, JSON.stringify(answers.map((body) => body.errors))).toEqual([
      'SENT',
      ...Array(5).fill('TOO_MANY_PENDING_COMMANDS'),
    ]);
    const stillWaiting = await db()('device_commands')
      .where({ device_id: device.deviceId })
      .whereNot('status', 'ACKNOWLEDGED')
      .count({ n: '*' });
    expect(Number(stillWaiting[0]!.n)).toBe(50);
    expect(Number((await db()('audit_events').count({ n: '*' }))[0]!.n)).toBe(before + 1);
  });
});

describe('Device.commands', () => {
  it('newest first, a page at a time, for whoever reads the device', async () => {
    const device = await deviceIdOf('DTSTBBE');
    const all = (await db()('device_commands').where({ device_id: device.deviceId }).orderBy('id', 'desc')).map((row) =>
      String(row.id),
    );
    expect(all.length).toBeGreaterThan(4);
    const first = (await graphql(OTHER_PARTNER, LIST, { order: OTHER_ORDER_ID, first: 3 })).data.financeOrder.device
      .commands;
    expect(first.nodes.map((node: any) => node.id)).toEqual(all.slice(0, 3));
    expect(first.edges.map((edge: any) => edge.cursor)).toEqual(all.slice(0, 3));
    expect(first.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, endCursor: all[2] });
    const rest = (
      await graphql({ 'x-api-key': 'other-retail-key' }, LIST, {
        order: OTHER_ORDER_ID,
        first: 100,
        after: first.pageInfo.endCursor,
      })
    ).data.financeOrder.device.commands;
    expect(rest.nodes.map((node: any) => node.id)).toEqual(all.slice(3));
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const bad = await graphql(OTHER_PARTNER, LIST, { order: OTHER_ORDER_ID, after: 'abc' });
    expect(errorCode(bad)).toBe('INVALID_ARGUMENT');
    const tooMany = await graphql(OTHER_PARTNER, LIST, { order: OTHER_ORDER_ID, first: 101 });
    expect(errorCode(tooMany)).toBe('INVALID_ARGUMENT');
  });
});

describe('RELEASE', () => {
  it('is RELEASE_NOT_ALLOWED, writing nothing, until the order is paid off; then it is sent', async () => {
    const { deviceId } = await deviceIdOf(DEMO_DEVICE_TAG);
    const refused = await expectRefused({ deviceId, type: 'RELEASE' }, 'RELEASE_NOT_ALLOWED');
    expect(refused.errors![0]!.message).toContain(`finance order ${DEMO_ORDER_ID} is not paid off`);
    const order = await graphql(PARTNER, 'query ($id: ID!) { financeOrder(id: $id) { remainingBalance } }', {
      id: DEMO_ORDER_ID,
    });
    const balance = order.data.financeOrder.remainingBalance as string;
    // A window of 0: the payoff releases at once (a completing one refuses RELEASE: test/timeline/release-window.test.ts).
    const window = await graphql(
      OPERATOR,
      'mutation { updatePartnerSettings(input: { partnerId: "1", reversalWindowHours: 0 }) { id } }',
      {},
    );
    expect(window.errors).toBeUndefined();
    const paid = await graphql(
      RETAIL,
      `mutation ($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { fullyPaid } }`,
      {
        input: {
          merchantId: DEMO_MERCHANT_ID,
          salesClerkId: DEMO_CLERK_ID,
          financeOrderId: DEMO_ORDER_ID,
          amount: balance,
          currency: 'USD',
        },
      },
    );
    expect(paid.data.recordInStorePayment.fullyPaid).toBe(true);
    const release = await send({ deviceId, type: 'RELEASE' });
    expect(release).toMatchObject({ type: 'RELEASE', status: 'PENDING', hours: null, message: null });
    const device = await deviceIdOf(DEMO_DEVICE_TAG);
    const result = await checkIn(device, new Date(NOW.getTime() + HOUR));
    // Behind the two commands the device was carried and never acknowledged (they ride until it does).
    expect(result.commands.map((command) => command.type)).toEqual(['UNLOCK_FOR_HOURS', 'SHOW_MESSAGE', 'RELEASE']);
    expect(result.commands.at(-1)).toEqual({ id: release.id, type: 'RELEASE', hours: null, message: null });
    expect(result).toMatchObject({ lockNow: false, unlockedUntil: null });
  });
});
