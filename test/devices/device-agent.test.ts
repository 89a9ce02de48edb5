// The device door's acceptance, played by the agent of docs/device-agent.md: the very code of its
// "minimal agent" block (test/support/deviceAgent.ts, checked here to be the same text), run against
// the service through a network path the test controls. It checks in, verifies the signed answer with
// `jose` and takes only the answer to its own latest request (decisions.md 34); lookup-customer shows
// its lastSeen; its commands are carried out once and acknowledged; an answer withheld on the path and
// handed over later is refused, and the commands it carried come again; two check-ins in one second
// are both taken; after a sandbox clock reset its answers are still taken; another device's IMEI is
// refused; it types the unlock code of a real payment receipt. Then, with the sandbox clock: past
// offlineLockAt without a check-in, and past the order's lockAt, it is told LOCKED; a payment unlocks
// it at its next check-in. The service's clock stands still, so every check-in falls in one second.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { AnswerRefused, type CheckinData, CheckinRefused, type Command, DeviceAgent } from '../support/deviceAgent.js';
import { useSeededService } from '../support/fixtures.js';
import { OfflineDevice } from '../support/offlineDevice.js';
import { fencedBlocks, readDoc, readmeSection } from '../support/readme.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };

async function graphql(headers: Record<string, string>, query: string, variables?: Record<string, unknown>) {
  const { body } = (await fixture.service.graphql(query, headers, variables)) as {
    body: { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

/**
 * The phone's network path, as whoever sits on it sees it: it passes requests on, or withholds the
 * service's answer (the agent sees a network failure) and keeps it, or answers a request with an
 * answer it kept.
 */
class NetworkPath {
  mode: 'pass' | 'withhold' = 'pass';
  private readonly kept: string[] = [];
  private replaying: string | null = null;
  /** Every answer that went through, in order. */
  readonly seen: string[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    if (this.replaying !== null) {
      const text = this.replaying;
      this.replaying = null;
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const response = await fetch(input, init);
    if (String(input).endsWith('/devices/v1/jwks.json')) return response;
    const text = await response.text();
    this.seen.push(text);
    if (this.mode === 'withhold') {
      this.kept.push(text);
      throw new TypeError('fetch failed');
    }
    return new Response(text, { status: response.status, headers: response.headers });
  };

  /** Answers the next request with an answer it saw, without passing the request on. */
  replay(text: string): void {
    this.replaying = text;
  }

  /** The last answer it withheld. */
  get withheld(): string {
    return this.kept.at(-1)!;
  }
}

/** The guide's agent on the demo device, what it carried out, and its network path. */
function enrol(credential: string, imei = DEMO_DEVICE_IMEI) {
  const carriedOut: Command[] = [];
  const path = new NetworkPath();
  const agent = new DeviceAgent({
    service: new URL(`${fixture.service.baseUrl}/`),
    credential,
    deviceTag: DEMO_DEVICE_TAG,
    imei,
    appVersion: '2.0.0',
    simNumber: () => '8901000000000000001',
    carryOut: async (command) => void carriedOut.push(command),
    fetch: path.fetch,
  });
  return { agent, carriedOut, path };
}

const ids = (commands: readonly Command[]) => commands.map((command) => command.id);

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
    'query($t: String!) { device(tag: $t) { commands(first: 20) { edges { node { id status } } } } }',
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

const resetClock = () => graphql(OPERATOR, 'mutation { resetSandboxClock(partnerId: "1") { now } }');

describe("the guide's agent", () => {
  it('is the code of docs/device-agent.md, as written there', () => {
    const blocks = fencedBlocks(readmeSection('device-agent', readDoc('docs/device-agent.md')));
    expect(blocks.map((block) => block.language)).toEqual(['ts']);
    const copy = readFileSync(new URL('../support/deviceAgent.ts', import.meta.url), 'utf8');
    expect(blocks[0]!.body === copy, 'test/support/deviceAgent.ts differs from the block of docs/device-agent.md').toBe(
      true,
    );
  });
});

describe('a device agent, played from the guide', () => {
  it('checks in, verifies, carries its commands out once, is refused as another device, and types a receipt’s code', async () => {
    const credential = await issueCredential();
    const { agent, carriedOut } = enrol(credential);

    const before = await lastSeen();
    const first = await agent.checkIn();
    expect(first.deviceTag).toBe(DEMO_DEVICE_TAG);
    expect(first.commands).toEqual([]);
    const seen = await lastSeen();
    expect(seen).not.toEqual(before);
    expect(seen).toBe(first.issuedAt);

    const message = await send({ type: 'SHOW_MESSAGE', message: 'Your next payment is due on Friday' });
    const unlock = await send({ type: 'UNLOCK_FOR_HOURS', hours: 24 });
    const second = await agent.checkIn();
    expect(second.commands.map(({ id, type }) => ({ id, type }))).toEqual([
      { id: message.id, type: 'SHOW_MESSAGE' },
      { id: unlock.id, type: 'UNLOCK_FOR_HOURS' },
    ]);
    expect(ids(carriedOut)).toEqual([message.id, unlock.id]);
    expect(agent.state.carriedOut).toEqual([message.id, unlock.id]);
    expect(await commandStatuses()).toMatchObject({ [message.id]: 'DELIVERED', [unlock.id]: 'DELIVERED' });
    const third = await agent.checkIn();
    expect(third.commands).toEqual([]);
    expect(agent.state.carriedOut).toEqual([]);
    expect(await commandStatuses()).toMatchObject({ [message.id]: 'ACKNOWLEDGED', [unlock.id]: 'ACKNOWLEDGED' });
    expect(ids(carriedOut)).toEqual([message.id, unlock.id]);

    const stranger = enrol(credential, '490154203237518').agent;
    await expect(stranger.checkIn()).rejects.toThrow(new CheckinRefused('check-in refused: 403 DEVICE_MISMATCH'));

    const offline = new OfflineDevice(credential, DEMO_DEVICE_TAG);
    const receipt = await payInStore('4.20', 'device-agent-code-1');
    expect(receipt.unlockCode).toMatch(/^[0-9]{15}$/);
    expect(offline.type(receipt.unlockCode!)).toBe('ACCEPTED');
    expect(offline.unlockedUntil as number).toBeGreaterThanOrEqual(receipt.nextPayment);
    expect(offline.type(receipt.unlockCode!)).toBe('REFUSED');
  });

  it('refuses an answer withheld on the path and handed over later; the commands it carried come again and are carried out once', async () => {
    const { agent, carriedOut, path } = enrol(await issueCredential());
    const accepted = await agent.checkIn();

    // The path keeps the answer that carries the message, and the agent hears nothing.
    const message = await send({ type: 'SHOW_MESSAGE', message: 'Visit the store before Friday' });
    path.mode = 'withhold';
    await expect(agent.checkIn()).rejects.toThrow('fetch failed');
    const withheld = JSON.parse(path.withheld) as { data: CheckinData };
    expect(ids(withheld.data.commands)).toEqual([message.id]);
    expect(withheld.data.sequence).toBeGreaterThan(accepted.sequence);
    expect(agent.state.last!.data).toEqual(accepted);
    expect(await commandStatuses()).toMatchObject({ [message.id]: 'DELIVERED' });

    // Handed over as the answer to a later request: genuine, newer, and refused (not this request's nonce).
    path.mode = 'pass';
    path.replay(path.withheld);
    await expect(agent.checkIn()).rejects.toThrow(
      new AnswerRefused('not the answer to the latest request: kept and replayed, or overtaken'),
    );
    expect(agent.state.last!.data).toEqual(accepted);
    expect(carriedOut).toEqual([]);

    // The next check-in that goes through carries the message again: the withheld answer used nothing up.
    const again = await agent.checkIn();
    expect(ids(again.commands)).toEqual([message.id]);
    expect(again.sequence).toBeGreaterThan(withheld.data.sequence);
    expect(ids(carriedOut)).toEqual([message.id]);
    const acknowledging = await agent.checkIn();
    expect(acknowledging.commands).toEqual([]);
    expect(await commandStatuses()).toMatchObject({ [message.id]: 'ACKNOWLEDGED' });
    expect(ids(carriedOut)).toEqual([message.id]);

    // An answer it accepted before, handed over again, is refused too.
    path.replay(path.seen[0]!);
    await expect(agent.checkIn()).rejects.toThrow(AnswerRefused);
    expect(agent.state.last!.data).toEqual(acknowledging);
  });

  it('takes two check-ins in one second, and carries out the commands of both', async () => {
    const { agent, carriedOut } = enrol(await issueCredential());
    const first = await send({ type: 'SHOW_MESSAGE', message: 'First message' });
    const one = await agent.checkIn();
    const second = await send({ type: 'SHOW_MESSAGE', message: 'Second message' });
    const two = await agent.checkIn();
    // The service's clock stands still: both answers are of one second, told apart by their sequence.
    expect(two.issuedAt).toBe(one.issuedAt);
    expect(two.sequence).toBe(one.sequence + 1);
    expect(ids(one.commands)).toEqual([first.id]);
    expect(ids(two.commands)).toEqual([second.id]);
    expect(ids(carriedOut)).toEqual([first.id, second.id]);
    await agent.checkIn();
    expect(await commandStatuses()).toMatchObject({ [first.id]: 'ACKNOWLEDGED', [second.id]: 'ACKNOWLEDGED' });
  });

  it('after resetSandboxClock it still takes the answers: issuedAt goes back, the sequence does not', async () => {
    const { agent } = enrol(await issueCredential());
    const onRealTime = await agent.checkIn();
    await setClock(onRealTime.issuedAt + 10 * 24 * 3600);
    const ahead = await agent.checkIn();
    expect(ahead.issuedAt).toBeGreaterThanOrEqual(onRealTime.issuedAt + 10 * 24 * 3600);
    await resetClock();
    const back = await agent.checkIn();
    expect(back.issuedAt).toBe(onRealTime.issuedAt);
    expect(back.sequence).toBeGreaterThan(ahead.sequence);
    expect(agent.state.last!.data).toEqual(back);
    expect(back.lockState).toBe('UNLOCKED');
  });

  it('on the sandbox clock: offlineLockAt passes without a check-in; past lockAt it is LOCKED; a payment unlocks it', async () => {
    const { agent } = enrol(await issueCredential());
    const fresh = await agent.checkIn();
    expect(fresh.lockState).toBe('UNLOCKED');
    const { offlineLockAt, lockAt } = fresh as { offlineLockAt: number; lockAt: number };
    expect(offlineLockAt).toBeLessThanOrEqual(lockAt);

    // Silent past offlineLockAt: the device locks by itself (the guide's rule); the service lists it silent.
    await setClock(offlineLockAt + 60);
    const silent = await graphql(OPERATOR, '{ devices(filter: { silentForDays: 1 }) { edges { node { tag } } } }');
    expect((silent.devices.edges as Array<{ node: { tag: string } }>).map(({ node }) => node.tag)).toContain(
      DEMO_DEVICE_TAG,
    );

    // Past the order's lockAt, the check-in says LOCKED.
    await setClock(Math.max(lockAt, offlineLockAt + 60) + 60);
    const locked = await agent.checkIn();
    expect(locked.lockState).toBe('LOCKED');

    // A payment moves lockAt into the future: the next check-in unlocks.
    const receipt = await payInStore('18.00', 'device-agent-unlock-1');
    const unlocked = await agent.checkIn();
    expect(unlocked.lockState).toBe('UNLOCKED');
    expect(unlocked.lockAt).toBe(receipt.nextPayment);
    await resetClock();
  });
});
