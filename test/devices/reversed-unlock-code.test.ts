// A device offline when its payment is reversed (docs/decisions.md 44), played by the guide's agent
// (test/support/deviceAgent.ts) and a device that checks codes as decisions.md 21 says
// (test/support/offlineDevice.ts): every check-in answer carries unlockCodesThrough, the greatest code
// counter issued when it was made; the agent raises L to it, so a reversed payment's code not typed by
// then is refused, while a code printed after the answer is still taken. The answer's lockAt holds
// only the payments that stand.
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { DeviceAgent } from '../support/deviceAgent.js';
import { useSeededService } from '../support/fixtures.js';
import { OfflineDevice } from '../support/offlineDevice.js';

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
});
