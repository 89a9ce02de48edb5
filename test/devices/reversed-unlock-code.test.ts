// A device offline when its payment is reversed (docs/decisions.md 44), played by the guide's agent
// (test/support/deviceAgent.ts) and a device that checks codes as decisions.md 21 says
// (test/support/offlineDevice.ts): every check-in answer carries unlockCodesThrough, the greatest code
// counter issued when it was made; the agent raises L to it, so a reversed payment's code not typed by
// then is refused, while a code printed after the answer is still taken. The answer's lockAt holds
// only the payments that stand.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { DEMO_CLERK_ID, DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { recordInStorePayment } from '../../src/modules/payments/inStore.js';
import { DeviceAgent } from '../support/deviceAgent.js';
import { useSeededService } from '../support/fixtures.js';
import { OfflineDevice } from '../support/offlineDevice.js';
import { TEST_UNLOCK_KEYS } from '../support/unlockKeys.js';

const fixture = useSeededService();
const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };

async function graphql(headers: Record<string, string>, query: string, variables?: Record<string, unknown>) {
  const { body } = await fixture.service.graphql(query, headers, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as any;
}

async function payInStore(amount: string): Promise<{ id: string; unlockCode: string }> {
  const paid = await graphql(
    RETAIL,
    'mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { unlockCode payment { id } } }',
    {
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId: '4000004',
        amount,
        currency: 'USD',
      },
    },
  );
  return { id: paid.recordInStorePayment.payment.id, unlockCode: paid.recordInStorePayment.unlockCode };
}

describe('a reversed payment and its unlock code', () => {
  it("voids the code at the device's next check-in, and only the codes printed before it", async () => {
    const { device } = await graphql(OPERATOR, 'query($t: String!) { device(tag: $t) { id } }', { t: DEMO_DEVICE_TAG });
    const credential = (
      await graphql(OPERATOR, 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }', {
        id: device.id,
      })
    ).issueDeviceCredential.credential as string;
    const agent = new DeviceAgent({
      service: new URL(`${fixture.service.baseUrl}/`),
      credential,
      deviceTag: DEMO_DEVICE_TAG,
      imei: DEMO_DEVICE_IMEI,
      appVersion: '2.0.0',
      simNumber: () => null,
      carryOut: async () => undefined,
    });
    const phone = new OfflineDevice(credential, DEMO_DEVICE_TAG);
    const first = await agent.checkIn();
    expect(first.unlockCodesThrough).toBe(0);

    // Paid while the phone is offline, then reversed before the customer typed the code.
    const bounced = await payInStore('18');
    expect(bounced.unlockCode).toMatch(/^[0-9]{15}$/);
    const reversal = await graphql(
      PARTNER,
      'mutation($input: ReversePaymentInput!) { reversePayment(input: $input) { lockAt } }',
      { input: { paymentId: bounced.id, reason: 'the payment bounced' } },
    );
    const answer = await agent.checkIn();
    expect(answer.unlockCodesThrough).toBe(1);
    expect(answer.lockAt).toBe(reversal.reversePayment.lockAt);
    expect(answer.lockAt).toBe(first.lockAt);
    expect(agent.state.unlockCounter).toBe(1);

    // The device's L is the agent's: the reversed payment's code is refused from now on.
    phone.lastCounter = agent.state.unlockCounter;
    expect(phone.type(bounced.unlockCode)).toBe('REFUSED');
    // A payment after the answer: its code is the next counter, and taken.
    const standing = await payInStore('9');
    expect(phone.type(standing.unlockCode)).toBe('ACCEPTED');
    expect(phone.lastCounter).toBe(2);
    // The next answer voids nothing more than was issued; L never goes back.
    expect((await agent.checkIn()).unlockCodesThrough).toBe(2);
    expect(agent.state.unlockCounter).toBe(2);
  });

  it("a payment whose order's total a reversal put back meanwhile takes a code of its own", async () => {
    const credential = (
      await graphql(OPERATOR, 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }', {
        id: (
          await graphql(OPERATOR, 'query($t: String!) { device(tag: $t) { id } }', { t: DEMO_DEVICE_TAG })
        ).device.id,
      })
    ).issueDeviceCredential.credential as string;
    const phone = new OfflineDevice(credential, DEMO_DEVICE_TAG);
    // Between this payment's read and its write, another payment of the same amount and its reversal:
    // the order's total is what the read saw, the code's counter is not.
    let other: { id: string; unlockCode: string } | undefined;
    const meanwhile = async () => {
      other = await payInStore('2');
      await graphql(PARTNER, 'mutation($input: ReversePaymentInput!) { reversePayment(input: $input) { id } }', {
        input: { paymentId: other.id, reason: 'entered on the wrong order' },
      });
    };
    const claimed = await recordInStorePayment(
      afterFirstRead(fixture.database.db, meanwhile),
      {
        partnerId: '1',
        merchantId: DEMO_MERCHANT_ID,
        clerkId: DEMO_CLERK_ID,
        financeOrderId: '4000004',
        amount: '2',
        currency: 'USD',
        idempotencyKey: null,
      },
      new Date(),
      TEST_UNLOCK_KEYS,
    );
    expect(other).toBeDefined();
    // Two codes, two counters: the reversed payment's (1) and this one's (2), each taken once.
    expect(other!.unlockCode.slice(0, 2)).toBe('01');
    expect(claimed.receipt.unlockCode!.slice(0, 2)).toBe('02');
    expect(phone.type(other!.unlockCode)).toBe('ACCEPTED');
    expect(phone.type(claimed.receipt.unlockCode!)).toBe('ACCEPTED');
  });
});

/**
 * `db`, with `meanwhile` run once right after the first in-store payment read on it (inStore.ts's
 * facts) gives its connection back: what another request did between that payment's read and write.
 */
function afterFirstRead(db: Db, meanwhile: () => Promise<unknown>): Db {
  type Client = Record<string, (...args: unknown[]) => unknown>;
  const real = db.client as unknown as Client;
  const client = Object.create(real) as Client;
  let pending: (() => Promise<unknown>) | undefined = meanwhile;
  let due = false;
  for (const method of ['acquireConnection', 'emit']) client[method] = (...args: unknown[]) => real[method]!(...args);
  client.query = async (connection: unknown, query: unknown) => {
    if (pending && /^with facts as materialized/.test((query as { sql: string }).sql)) due = true;
    return real.query!(connection, query);
  };
  client.releaseConnection = async (connection: unknown) => {
    await real.releaseConnection!(connection);
    if (!due || !pending) return;
    const run = pending;
    pending = undefined;
    await run();
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'client') return client;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
