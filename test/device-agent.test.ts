// The device door's acceptance, played by a device from docs/device-agent.md: it checks in with its
// credential and verifies the signed answer against the published key set with `jose`; lookup-customer
// shows its lastSeen; a SHOW_MESSAGE and an UNLOCK_FOR_HOURS ride on its next check-in and it
// acknowledges them in the one after; another device's IMEI is refused; it types the unlock code of a
// real payment receipt. Then, with the sandbox clock: past offlineLockAt without a check-in, and past
// the order's lockAt, it is told LOCKED; a payment unlocks it at its next check-in.
import { compactVerify, createRemoteJWKSet } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../src/fixtures/demoIds.js';
import { useSeededService } from './support/fixtures.js';
import { OfflineDevice } from './support/offlineDevice.js';

const fixture = useSeededService();
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };

async function graphql(headers: Record<string, string>, query: string, variables?: Record<string, unknown>) {
  const { body } = (await fixture.service.graphql(query, headers, variables)) as {
    body: { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

/** The device: its credential, and what it keeps from its last verified answer. */
class Agent {
  private readonly keySet = createRemoteJWKSet(new URL(`${fixture.service.baseUrl}/devices/v1/jwks.json`));
  acknowledged: string[] = [];

  constructor(readonly credential: string) {}

  /** One check-in; the answer's data once its signature is verified against the key set. */
  async checkin(imei = DEMO_DEVICE_IMEI): Promise<{ status: number; data: any; error?: any }> {
    const response = await fixture.service.request('/devices/v1/checkin', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.credential}` },
      body: JSON.stringify({
        imei,
        simNumber: '8901000000000000001',
        appVersion: '2.0.0',
        acknowledged: this.acknowledged,
      }),
    });
    const body = (await response.json()) as { data?: any; signature?: string; error?: any };
    if (response.status !== 200) return { status: response.status, data: null, error: body.error };
    const { payload } = await compactVerify(body.signature!, this.keySet);
    const signed = JSON.parse(new TextDecoder().decode(payload));
    expect(signed).toEqual(body.data);
    // Every command it received is acknowledged in its next check-in.
    this.acknowledged = (signed.commands as Array<{ id: string }>).map((command) => command.id);
    return { status: 200, data: signed };
  }
}

async function deviceId(): Promise<string> {
  return (await graphql(OPERATOR, 'query($t: String!) { device(tag: $t) { id } }', { t: DEMO_DEVICE_TAG })).device.id;
}

async function issueCredential(): Promise<string> {
  const issued = await graphql(OPERATOR, 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }', {
    id: await deviceId(),
  });
  return issued.issueDeviceCredential.credential;
}

async function send(input: Record<string, unknown>) {
  const sent = await graphql(
    OPERATOR,
    'mutation($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { id type status } }',
    { input: { deviceId: await deviceId(), ...input } },
  );
  return sent.sendDeviceCommand as { id: string; type: string; status: string };
}

async function commandStatuses(): Promise<Record<string, string>> {
  const read = await graphql(
    OPERATOR,
    'query($t: String!) { device(tag: $t) { commands(first: 10) { edges { node { id status } } } } }',
    { t: DEMO_DEVICE_TAG },
  );
  const edges = read.device.commands.edges as Array<{ node: { id: string; status: string } }>;
  return Object.fromEntries(edges.map(({ node }) => [node.id, node.status]));
}

async function lastSeen(): Promise<unknown> {
  const response = await fixture.service.request(
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
  );
  return ((await response.json()) as { device: { lastSeen: unknown } }).device.lastSeen;
}

async function payInStore(amount: string, idempotencyKey: string) {
  const paid = await graphql(
    RETAIL,
    `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { nextPayment unlockCode } }`,
    {
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId: DEMO_ORDER_ID,
        amount,
        currency: 'USD',
        idempotencyKey,
      },
    },
  );
  return paid.recordInStorePayment as { nextPayment: number; unlockCode: string | null };
}

async function setClock(now: number) {
  await graphql(OPERATOR, 'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
    input: { partnerId: '1', now },
  });
}

describe('a device agent, played from the guide', () => {
  it('checks in, verifies, takes its commands, is refused as another device, and types a receipt’s code', async () => {
    const credential = await issueCredential();
    const agent = new Agent(credential);

    const before = await lastSeen();
    const first = await agent.checkin();
    expect(first.status).toBe(200);
    expect(first.data.deviceTag).toBe(DEMO_DEVICE_TAG);
    expect(first.data.commands).toEqual([]);
    const seen = await lastSeen();
    expect(seen).not.toEqual(before);
    expect(seen).toBe(first.data.issuedAt);

    const message = await send({ type: 'SHOW_MESSAGE', message: 'Your next payment is due on Friday' });
    const unlock = await send({ type: 'UNLOCK_FOR_HOURS', hours: 24 });
    const second = await agent.checkin();
    expect((second.data.commands as Array<{ id: string; type: string }>).map(({ id, type }) => ({ id, type }))).toEqual(
      [
        { id: message.id, type: 'SHOW_MESSAGE' },
        { id: unlock.id, type: 'UNLOCK_FOR_HOURS' },
      ],
    );
    expect(await commandStatuses()).toMatchObject({ [message.id]: 'DELIVERED', [unlock.id]: 'DELIVERED' });
    const third = await agent.checkin();
    expect(third.data.commands).toEqual([]);
    expect(await commandStatuses()).toMatchObject({ [message.id]: 'ACKNOWLEDGED', [unlock.id]: 'ACKNOWLEDGED' });

    const stranger = await agent.checkin('490154203237518');
    expect(stranger.status).toBe(403);
    expect(stranger.error.code).toBe('DEVICE_MISMATCH');

    const offline = new OfflineDevice(credential, DEMO_DEVICE_TAG);
    const receipt = await payInStore('4.20', 'device-agent-code-1');
    expect(receipt.unlockCode).toMatch(/^[0-9]{15}$/);
    expect(offline.type(receipt.unlockCode!)).toBe('ACCEPTED');
    expect(offline.unlockedUntil as number).toBeGreaterThanOrEqual(receipt.nextPayment);
    expect(offline.type(receipt.unlockCode!)).toBe('REFUSED');
  });

  it('on the sandbox clock: offlineLockAt passes without a check-in; past lockAt it is LOCKED; a payment unlocks it', async () => {
    const agent = new Agent(await issueCredential());
    const fresh = await agent.checkin();
    expect(fresh.data.lockState).toBe('UNLOCKED');
    const { offlineLockAt, lockAt } = fresh.data as { offlineLockAt: number; lockAt: number };
    expect(offlineLockAt).toBeLessThanOrEqual(lockAt);

    // Silent past offlineLockAt: the device locks by itself (the guide's rule); the service lists it silent.
    await setClock(offlineLockAt + 60);
    const silent = await graphql(OPERATOR, '{ devices(filter: { silentForDays: 1 }) { edges { node { tag } } } }');
    expect((silent.devices.edges as Array<{ node: { tag: string } }>).map(({ node }) => node.tag)).toContain(
      DEMO_DEVICE_TAG,
    );

    // Past the order's lockAt, the check-in says LOCKED.
    await setClock(Math.max(lockAt, offlineLockAt + 60) + 60);
    const locked = await agent.checkin();
    expect(locked.data.lockState).toBe('LOCKED');

    // A payment moves lockAt into the future: the next check-in unlocks.
    const receipt = await payInStore('18.00', 'device-agent-unlock-1');
    const unlocked = await agent.checkin();
    expect(unlocked.data.lockState).toBe('UNLOCKED');
    expect(unlocked.data.lockAt).toBe(receipt.nextPayment);
    await graphql(OPERATOR, 'mutation { resetSandboxClock(partnerId: "1") { now } }');
  });
});
