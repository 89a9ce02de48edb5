// Offline unlock codes, checked the way a device checks them: the device below is written from
// docs/decisions.md 21 alone (its own HMAC, truncation, check digit and counter rule; nothing of
// src/modules/unlockCodes), and types codes from real payment receipts, in store through the graph
// and through a vendor's notification.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';
import { EPOCH, luhnValid, OfflineDevice } from '../support/offlineDevice.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });

// --- The service's side -----------------------------------------------------------------------------

/**
 * A live credential for a device, issued by issueDeviceCredential (its unlock key stored sealed,
 * decisions.md 35; a new one ends the device's previous one), and the device that holds it.
 */
async function giveCredential(tag: string): Promise<{ credential: string; device: OfflineDevice }> {
  const row = await fixture.database.db('devices').where({ tag }).first();
  const { body } = await fixture.service.graphql(
    'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }',
    { 'x-api-key': 'demo-operator-key' },
    { id: String(row.id) },
  );
  expect(body.errors).toBeUndefined();
  const credential: string = body.data.issueDeviceCredential.credential;
  return { credential, device: new OfflineDevice(credential, tag) };
}

/** The credential's row, found by its hash (only the hash is stored). */
const credentialRow = (credential: string) =>
  fixture.database
    .db('device_credentials')
    .where({ key_hash: createHash('sha256').update(credential).digest('hex') })
    .first();

const RECORD = `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) {
  deviceTag nextPayment fullyPaid replayed unlockCode } }`;

async function payInStore(amount: string, idempotencyKey?: string, financeOrderId = DEMO_ORDER_ID) {
  const { body } = await fixture.service.graphql(
    RECORD,
    { 'x-api-key': 'demo-retail-key' },
    {
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId,
        amount,
        currency: 'USD',
        ...(idempotencyKey ? { idempotencyKey } : {}),
      },
    },
  );
  expect(body.errors).toBeUndefined();
  return body.data.recordInStorePayment as {
    deviceTag: string;
    nextPayment: number | null;
    fullyPaid: boolean;
    replayed: boolean;
    unlockCode: string | null;
  };
}

let accessToken: string | undefined;
async function notify(deviceTag: string, amount: string, reference: string) {
  if (!accessToken) {
    const token = await fixture.service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    accessToken = ((await token.json()) as any).data.access_token as string;
  }
  const response = await fixture.service.request('/payments/v1/notification', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ paymentVendor: 'demo-vendor', amount, currency: 'USD', reference, deviceTag }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as any).data as Record<string, unknown>;
}

async function lockAtOfDemoOrder(): Promise<number | null> {
  const { body } = await fixture.service.graphql(`{ financeOrder(id: "${DEMO_ORDER_ID}") { lockAt } }`, {
    'x-api-key': 'demo-partner-key',
  });
  return body.data.financeOrder.lockAt;
}

/** The deadline a code for `lockAt` carries: rounded up to the hour from the epoch. */
const roundedUp = (lockAt: number) => EPOCH + Math.ceil((lockAt - EPOCH) / 3600) * 3600;

/** The code with its digit at `index` changed, and the check digit made right again (so only the MAC can refuse it). */
function tampered(code: string, index: number): string {
  const digits = code.slice(0, 14).split('');
  digits[index] = String((Number(digits[index]) + 1) % 10);
  const body = digits.join('');
  for (let check = 0; check <= 9; check++) if (luhnValid(body + check)) return body + check;
  throw new Error('no check digit');
}

describe('offline unlock codes', () => {
  it("the device takes decisions.md 21's worked example", () => {
    const device = new OfflineDevice('dvc_example_credential', 'DTSTBBB');
    expect(device.unlockKey.toString('hex')).toBe('bae434ad4a5b0047bcff0ad2535c083f26a77554e60a55f66f9b3793e0d8aa96');
    expect(device.type('07004 69115 90667')).toBe('ACCEPTED');
    expect(device.unlockedUntil).toBe(Date.parse('2026-07-15T11:00:00Z') / 1000);
    expect(device.lastCounter).toBe(7);
    expect(device.type('089999990967470')).toBe('ACCEPTED');
    expect(device.unlockedUntil).toBe('FOR_GOOD');
  });

  it('a device without a credential gets no code, and the notification answers as it always did', async () => {
    const receipt = await payInStore('1.00');
    expect(receipt.unlockCode).toBeNull();
    const data = await notify('DTSTBBD', '1.00', 'unlock-none-1');
    expect(Object.keys(data)).toEqual(['message', 'paymentId', 'remainingBalance', 'currency', 'fullyPaid']);
  });

  it('plays the device: codes from real receipts unlock until their lockAt, once each, in order', async () => {
    const { credential: issued, device } = await giveCredential(DEMO_DEVICE_TAG);
    const stranger = new OfflineDevice(issued, 'DTSTBBC');

    // In store, through the graph.
    const first = await payInStore('9.00', 'unlock-codes-1');
    expect(first.unlockCode).toMatch(/^[0-9]{15}$/);
    expect(first.nextPayment).not.toBeNull();
    expect(stranger.type(first.unlockCode!)).toBe('REFUSED'); // another device's tag
    expect(device.type(first.unlockCode!.replace(/(\d{5})(?=\d)/g, '$1 '))).toBe('ACCEPTED');
    expect(device.lastCounter).toBe(1);
    expect(device.unlockedUntil).toBe(roundedUp(first.nextPayment!));
    expect(device.unlockedUntil as number).toBeGreaterThanOrEqual(first.nextPayment!);
    expect(device.unlockedUntil as number).toBeLessThan(first.nextPayment! + 3600);
    // Typed again: refused, and the deadline stays.
    expect(device.type(first.unlockCode!)).toBe('REFUSED');
    expect(device.unlockedUntil).toBe(roundedUp(first.nextPayment!));
    // The request repeated with its Idempotency-Key answers the same code, which is spent.
    const replay = await payInStore('9.00', 'unlock-codes-1');
    expect(replay).toMatchObject({ replayed: true, unlockCode: first.unlockCode });
    expect(device.type(replay.unlockCode!)).toBe('REFUSED');

    // Through a vendor's notification.
    const data = await notify(DEMO_DEVICE_TAG, '20.00', 'unlock-codes-vendor-1');
    const code = data.unlockCode as string;
    expect(code).toMatch(/^[0-9]{15}$/);
    const lockAt = await lockAtOfDemoOrder();
    expect(lockAt).toBeGreaterThan(first.nextPayment!);
    // A mistyped digit is caught by the check digit; a digit changed with a right check digit by the MAC.
    const misTyped = `${code.slice(0, 5)}${(Number(code[5]) + 1) % 10}${code.slice(6)}`;
    expect(device.type(misTyped)).toBe('MISTYPED');
    expect(device.type(tampered(code, 7))).toBe('REFUSED'); // another deadline
    expect(device.type(tampered(code, 1))).toBe('REFUSED'); // another counter
    expect(device.type(tampered(code, 12))).toBe('REFUSED'); // the MAC itself
    expect(device.unlockedUntil).toBe(roundedUp(first.nextPayment!));
    // The real code still works: refused attempts spent nothing.
    expect(device.type(code)).toBe('ACCEPTED');
    expect(device.lastCounter).toBe(2);
    expect(device.unlockedUntil).toBe(roundedUp(lockAt!));
    // The notification repeated answers the same code, spent; the older in-store code stays refused.
    const again = await notify(DEMO_DEVICE_TAG, '20.00', 'unlock-codes-vendor-1');
    expect(again.unlockCode).toBe(code);
    expect(device.type(code)).toBe('REFUSED');
    expect(device.type(first.unlockCode!)).toBe('REFUSED');
    expect(device.unlockedUntil).toBe(roundedUp(lockAt!));

    // A code skipped (never typed) does not stop the next one.
    const skipped = await payInStore('2.00');
    const later = await payInStore('2.00');
    expect(later.nextPayment).toBeGreaterThanOrEqual(skipped.nextPayment!);
    expect(device.type(later.unlockCode!)).toBe('ACCEPTED');
    expect(device.lastCounter).toBe(4);
    expect(device.type(skipped.unlockCode!)).toBe('REFUSED');

    // Paying the order off inside its reversal window (72 hours, decisions.md 44): a code until
    // releaseAt, the payment's time + 72 hours, in whole hours rounded up; not for good.
    const { body } = await fixture.service.graphql(`{ financeOrder(id: "${DEMO_ORDER_ID}") { remainingBalance } }`, {
      'x-api-key': 'demo-partner-key',
    });
    const payoff = await payInStore(body.data.financeOrder.remainingBalance);
    expect(payoff).toMatchObject({ fullyPaid: true, nextPayment: null });
    expect(device.type(payoff.unlockCode!)).toBe('ACCEPTED');
    expect(device.unlockedUntil).toBe(Date.parse('2026-06-13T16:00:00Z') / 1000);

    // The service counted one code per payment under the credential, replays none.
    expect((await credentialRow(issued)).unlock_code_counter).toBe(5);
  });

  it('a new credential is a new key: its codes count from 1, and the old key takes none of them', async () => {
    const { credential: first, device: old } = await giveCredential('DTSTBBD');
    const data = await notify('DTSTBBD', '2.00', 'unlock-codes-vendor-2');
    expect(old.type(data.unlockCode as string)).toBe('ACCEPTED');
    expect(old.lastCounter).toBe(1);
    // Issuing a new credential ends the old one (the device door's rule).
    const { device: renewed } = await giveCredential('DTSTBBD');
    expect((await credentialRow(first)).ended_at).not.toBeNull();
    const next = await notify('DTSTBBD', '2.00', 'unlock-codes-vendor-3');
    expect(old.type(next.unlockCode as string)).toBe('REFUSED');
    expect(renewed.type(next.unlockCode as string)).toBe('ACCEPTED');
    expect(renewed.lastCounter).toBe(1);

    // Payments at once, in store and through the vendor: each code takes its own counter, none lost.
    const codes = await Promise.all([
      ...[1, 2, 3].map(async (n) => (await notify('DTSTBBD', '1.00', `unlock-codes-race-${n}`)).unlockCode as string),
      ...[1, 2, 3].map(async () => (await payInStore('1.00', undefined, '4000012')).unlockCode!),
    ]);
    codes.sort();
    expect(codes.map((code) => code.slice(0, 2))).toEqual(['02', '03', '04', '05', '06', '07']);
    for (const code of codes) expect(renewed.type(code)).toBe('ACCEPTED');
    expect(renewed.lastCounter).toBe(7);
  });
});
