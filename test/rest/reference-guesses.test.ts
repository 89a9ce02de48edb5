// Refused payment references are counted per API key (decisions.md 36), on PGlite and on Postgres:
// a vendor key whose notifications quoted PAYMENT_REFERENCE_FAILURE_LIMIT unknown or mismatched
// references is refused the next one quoting a reference, even the right code with the right amount
// (429 with Retry-After on the payments door, a field error on /graphql beside the other aliases'
// data), nothing written; paid references and notifications without one count nothing; another key
// of the same vendor is not held. The window is an hour here, so no count below can straddle one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import type { LimitSettings } from '../../src/kernel/limitSettings.js';
import { newCode } from '../../src/modules/paymentReferences/code.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { startTestService, TEST_LIMITS, type TestService } from '../support/service.js';

const LIMIT = 3;
const WINDOW_SECONDS = 3600;
const LIMITS: LimitSettings = {
  ...TEST_LIMITS,
  paymentReferenceFailures: { limit: LIMIT, windowSeconds: WINDOW_SECONDS },
};
const PARTNER = { 'x-api-key': 'demo-partner-key' };
const OPERATOR = { 'x-api-key': 'demo-operator-key' };

interface Fixture {
  database: TestDatabase;
  service: TestService;
}

/** A seeded database of its own (the counts start at nothing) and a service with the limit of 3 an hour. */
function useGuessService(): Fixture {
  const fixture = {} as Fixture;
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.service = await startTestService(fixture.database.db, { limits: LIMITS });
  });
  afterAll(async () => {
    await fixture.service?.close();
    await fixture.database?.destroy();
  });
  return fixture;
}

async function tokenOf(service: TestService, apiKey: string): Promise<string> {
  const response = await service.request('/payments/v1/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

/** A second API key of demo-vendor (an operator's), so the count can be told per key from per vendor. */
async function secondVendorKey(fixture: Fixture): Promise<string> {
  const vendor = await fixture.database.db('payment_vendors').where({ name: 'demo-vendor' }).first();
  const { body } = await fixture.service.graphql(
    'mutation($v: ID!) { createApiKey(input: { kind: VENDOR, paymentVendorId: $v }) { secret } }',
    OPERATOR,
    { v: String(vendor.id) },
  );
  expect(body.errors).toBeUndefined();
  return body.data.createApiKey.secret as string;
}

async function newReference(fixture: Fixture, amount: string): Promise<string> {
  const { body } = await fixture.service.graphql(
    'mutation($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { code } }',
    PARTNER,
    { input: { financeOrderId: DEMO_ORDER_ID, amount } },
  );
  expect(body.errors).toBeUndefined();
  return body.data.createPaymentReference.code as string;
}

let vendorReferences = 0;
/** demo-vendor's notification body (its schema asks for a device locator). */
const notificationBody = (fields: Record<string, unknown>) => ({
  paymentVendor: 'demo-vendor',
  currency: 'USD',
  reference: `GUESS-${++vendorReferences}`,
  deviceTag: DEMO_DEVICE_TAG,
  ...fields,
});

async function notify(fixture: Fixture, token: string, fields: Record<string, unknown>) {
  const response = await fixture.service.request('/payments/v1/notification', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(notificationBody(fields)),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const countOf = async (fixture: Fixture, table: string) =>
  Number((await fixture.database.db(table).count({ n: '*' }))[0]!.n);

/** Everything a notification could write. */
async function written(fixture: Fixture) {
  const db = fixture.database.db;
  return {
    payments: await countOf(fixture, 'payments'),
    notifications: await countOf(fixture, 'vendor_notifications'),
    events: await countOf(fixture, 'events'),
    references: await db('payment_references').select('code', 'status', 'payment_id').orderBy('id'),
  };
}

describe('the payments door counts refused references per API key', () => {
  const fixture = useGuessService();

  it('counts unknown and mismatched references, not paid ones; past the limit it refuses even the right code, writing nothing', async () => {
    const token = await tokenOf(fixture.service, 'demo-vendor-key');
    const otherKeyToken = await tokenOf(fixture.service, await secondVendorKey(fixture));
    const open = await newReference(fixture, '5.00');
    const paid = await newReference(fixture, '1.00');
    // Paid by the other key: a good payment counts nothing.
    expect((await notify(fixture, otherKeyToken, { amount: '1.00', paymentReference: paid })).status).toBe(200);

    const refusals = [
      [{ amount: '5.00', paymentReference: newCode() }, 404, 'PAYMENT_REFERENCE_NOT_FOUND'],
      // A paid reference is a hit, not a miss: refused, not counted.
      [{ amount: '1.00', paymentReference: paid }, 409, 'PAYMENT_REFERENCE_ALREADY_PAID'],
      [{ amount: '4.99', paymentReference: open }, 400, 'AMOUNT_MISMATCH'],
      [{ amount: '5.00', paymentReference: 'not-a-code' }, 404, 'PAYMENT_REFERENCE_NOT_FOUND'],
    ] as const;
    for (const [fields, status, code] of refusals) {
      const answer = await notify(fixture, token, fields);
      expect([answer.status, answer.body.error?.code], JSON.stringify(answer.body)).toEqual([status, code]);
    }

    // Three refusals counted: the right code with its amount is refused before it is read.
    const before = await written(fixture);
    const refused = await notify(fixture, token, { amount: '5.00', paymentReference: open });
    expect(refused.status, JSON.stringify(refused.body)).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.message).toMatch(/3 payment references refused/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(await written(fixture)).toEqual(before);

    // A notification quoting no reference is not held by it.
    expect((await notify(fixture, token, { amount: '1.00' })).status).toBe(200);
    // Another key of the same vendor is not held either: it pays the reference.
    const other = await notify(fixture, otherKeyToken, { amount: '5.00', paymentReference: open });
    expect(other.status, JSON.stringify(other.body)).toBe(200);

    if (!onPostgres) return;
    // On Postgres the counts are in the database: another instance refuses the key too.
    const second = await startTestService(fixture.database.db, { limits: LIMITS });
    try {
      const response = await second.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(notificationBody({ amount: '5.00', paymentReference: newCode() })),
      });
      expect(response.status).toBe(429);
    } finally {
      await second.close();
    }
  });
});

describe('on /graphql the limit is a field error beside the other aliases', () => {
  const fixture = useGuessService();
  const NOTIFY = `mutation($a: JSON!, $b: JSON!) {
    a: createPaymentNotification(notification: $a) { receipt { payment { id } } }
    b: createPaymentNotification(notification: $b) { receipt { payment { id } } }
  }`;

  it('answers 200: the notification without a reference recorded and answered, the one quoting a reference refused RATE_LIMITED with retryAfter', async () => {
    const vendor = { authorization: `Bearer ${await tokenOf(fixture.service, 'demo-vendor-key')}` };
    // Three unknown codes, counted through this door as through the payments door.
    for (let n = 0; n < LIMIT; n++) {
      const { status, body } = await fixture.service.graphql(
        'mutation($n: JSON!) { createPaymentNotification(notification: $n) { message } }',
        vendor,
        { n: notificationBody({ amount: '5.00', paymentReference: newCode() }) },
      );
      expect(status).toBe(200);
      expect(body.errors.map((error: any) => error.extensions.code)).toEqual(['PAYMENT_REFERENCE_NOT_FOUND']);
    }
    const open = await newReference(fixture, '5.00');
    const paymentsBefore = await countOf(fixture, 'payments');
    const { status, body } = await fixture.service.graphql(NOTIFY, vendor, {
      a: notificationBody({ amount: '1.00' }),
      b: notificationBody({ amount: '5.00', paymentReference: open }),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data.a.receipt.payment.id).toEqual(expect.any(String));
    expect(body.data.b).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatchObject({ path: ['b'], extensions: { code: 'RATE_LIMITED' } });
    expect(body.errors[0].extensions.retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.errors[0].extensions.retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    // Only the first alias wrote: one payment, and the reference is still open.
    expect(await countOf(fixture, 'payments')).toBe(paymentsBefore + 1);
    const reference = await fixture.database.db('payment_references').where({ code: open }).first();
    expect(reference.status).toBe('OPEN');
  });
});
