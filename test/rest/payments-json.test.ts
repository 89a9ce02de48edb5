// Payments bodies read losslessly (decisions.md 4): a JSON number reaches the money rules as
// written, one rule of sameness decides a replay on both doors, and a member name given twice is
// refused before anything is read from the body.
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { checkLedger } from '../../src/ledger/check.js';
import { issueAccessToken } from '../../src/modules/auth/tokens.js';
import { useSeededService } from '../support/fixtures.js';
import { ledgerSnapshot } from '../support/ledger.js';
import { TEST_TOKENS } from '../support/service.js';

const fixture = useSeededService();
afterAll(async () => {
  expect((await checkLedger(fixture.database.db)).problems).toEqual([]);
});

const token = () => issueAccessToken(TEST_TOKENS, '5', new Date()).token;
/** A notification for demo-vendor paying device DTSTBBD (order 4000012, 240.00 USD to pay), `amount` as raw JSON text. */
const notificationText = (reference: string, amount: string) =>
  `{"paymentVendor":"demo-vendor","amount":${amount},"currency":"USD","reference":"${reference}","deviceTag":"DTSTBBD"}`;
async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fixture.service.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    body: (await response.json()) as any,
  };
}
const notify = (body: string) => post('/payments/v1/notification', body, { authorization: `Bearer ${token()}` });
const balance = async () =>
  (await fixture.database.db('finance_orders').where({ id: 4000012 }).first()).total_paid_minor as string;

describe('money text in a notification', () => {
  it('18.999999999999999 is refused as too many decimals for USD, not credited as 19.00; nothing written', async () => {
    const before = await ledgerSnapshot(fixture.database.db);
    const answer = await notify(notificationText('JSON-MONEY-1', '18.999999999999999'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: {
        code: 'INVALID_PAYMENT_AMOUNT',
        message:
          'the payment amount is not acceptable: USD amounts have at most 2 decimal places, got "18.999999999999999"',
      },
    });
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
  });

  it('19 after "19.00" with the same reference replays; 19.01 is a conflict', async () => {
    const paid = await balance();
    const first = await notify(notificationText('JSON-MONEY-2', '"19.00"'));
    expect(first.status).toBe(200);
    expect(first.replayed).toBeNull();
    const again = await notify(notificationText('JSON-MONEY-2', '19'));
    expect(again.status).toBe(200);
    expect(again.replayed).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = await notify(notificationText('JSON-MONEY-2', '19.01'));
    expect(other.status).toBe(409);
    expect(other.body.error.message).toMatch(/JSON-MONEY-2/);
    expect(BigInt(await balance()) - BigInt(paid)).toBe(1900n);
  });

  it('5, "5.00" and "5" are one payment under one reference (a replay, not a conflict)', async () => {
    const before = await ledgerSnapshot(fixture.database.db);
    const answers = [];
    for (const amount of ['5', '"5.00"', '"5"', '5.0'])
      answers.push(await notify(notificationText('JSON-MONEY-3', amount)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((answer) => answer.replayed)).toEqual([null, 'true', 'true', 'true']);
    expect((await ledgerSnapshot(fixture.database.db)).payments).toBe(before.payments + 1);
  });

  it('a number in exponent form is its exact amount: 1.25e1 is 12.50', async () => {
    const paid = await balance();
    const answer = await notify(notificationText('JSON-MONEY-4', '1.25e1'));
    expect(answer.status).toBe(200);
    expect(answer.body.data.message).toMatch(/^payment of 12\.50 USD/);
    expect(BigInt(await balance()) - BigInt(paid)).toBe(1250n);
  });

  it('a reference stored before fingerprints (hash of the body as JSON.parse read it) still replays', async () => {
    const body = notificationText('JSON-MONEY-5', '7.5');
    expect((await notify(body)).status).toBe(200);
    // What the service stored before: sha256 of the body with sorted keys and JSON.parse's numbers.
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const sorted = `{${Object.keys(parsed)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${JSON.stringify(parsed[key])}`)
      .join(',')}}`;
    await fixture.database
      .db('vendor_notifications')
      .where({ reference: 'JSON-MONEY-5' })
      .update({ request_hash: createHash('sha256').update(sorted).digest('hex') });
    const again = await notify(body);
    expect(again.status).toBe(200);
    expect(again.replayed).toBe('true');
  });
});

describe('one rule of sameness on the in-store door', () => {
  it('18 and 18.00 with one Idempotency-Key are the same payment; 18.01 is a conflict', async () => {
    const path = (amount: string) =>
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=${amount}&currency=USD`;
    const before = await ledgerSnapshot(fixture.database.db);
    const send = (amount: string) =>
      fixture.service.request(path(amount), { headers: { 'idempotency-key': 'json-instore-1' } });
    const first = await send('18');
    const again = await send('18.00');
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect((await send('18.01')).status).toBe(409);
    expect((await ledgerSnapshot(fixture.database.db)).payments).toBe(before.payments + 1);
  });
});

describe('a member name given twice', () => {
  const refusedBodies: Array<[string, string, string]> = [
    [
      'notification',
      '{"paymentVendor":"demo-vendor","amount":"1.00","amount":"3.00","currency":"USD","reference":"JSON-DUP-1","deviceTag":"DTSTBBD"}',
      'amount',
    ],
    [
      'notification',
      '{"paymentVendor":"demo-vendor","amount":"1.00","currency":"USD","reference":"JSON-DUP-2","deviceTag":"DTSTBBD","paymentVendor":"other-vendor"}',
      'paymentVendor',
    ],
    // The same value twice is refused too: a body means one thing to every reader, or is refused.
    [
      'notification',
      '{"paymentVendor":"demo-vendor","amount":"1.00","currency":"USD","reference":"JSON-DUP-3","reference":"JSON-DUP-3","deviceTag":"DTSTBBD"}',
      'reference',
    ],
    // Nested, and spelt with an escape: "\u0061" is "a".
    [
      'notification',
      '{"paymentVendor":"demo-vendor","amount":"1.00","currency":"USD","reference":"JSON-DUP-4","deviceTag":"DTSTBBD","extra":[{"a":1,"\\u0061":2}]}',
      'a',
    ],
    ['token', '{"apiKey":"no-such-key","apiKey":"demo-vendor-key"}', 'apiKey'],
    ['token', '{"apiKey":"demo-vendor-key","apiKey":"demo-vendor-key"}', 'apiKey'],
  ];

  it.each(refusedBodies)(
    '%s: %s is 400 INVALID_REQUEST_BODY naming the member, nothing written',
    async (route, body, member) => {
      const before = await ledgerSnapshot(fixture.database.db);
      const answer = route === 'token' ? await post('/payments/v1/token', body) : await notify(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        error: {
          code: 'INVALID_REQUEST_BODY',
          message: `the request body names the member "${member}" more than once in one object`,
        },
      });
      expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
    },
  );

  it('the same name in two different objects is no repeat', async () => {
    const answer = await notify(
      '{"paymentVendor":"demo-vendor","amount":"1.00","currency":"USD","reference":"JSON-DUP-5","deviceTag":"DTSTBBD","extra":[{"a":1},{"a":1}],"more":{"amount":2}}',
    );
    expect(answer.status).toBe(200);
  });
});

describe('the body is UTF-8 JSON', () => {
  it('bytes that are not UTF-8, or another declared charset, are 400 and write nothing', async () => {
    const before = await ledgerSnapshot(fixture.database.db);
    const valid = Buffer.from(notificationText('JSON-UTF8-1', '"1.00"'));
    // Inside the reference, where a reader that replaces bad bytes (as express.json did) would take them.
    const at = valid.indexOf('JSON-UTF8-1') + 4;
    const broken = Buffer.concat([valid.subarray(0, at), Buffer.from([0xff, 0xfe]), valid.subarray(at)]);
    for (const [body, contentType] of [
      [broken, 'application/json'],
      [valid, 'application/json; charset=utf-16'],
    ] as const) {
      const response = await fixture.service.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': contentType, authorization: `Bearer ${token()}` },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: { code: 'INVALID_REQUEST_BODY', message: 'the request body must be UTF-8 JSON, not compressed' },
      });
    }
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
    // Declared as UTF-8 (any spelling) it is read.
    const accepted = await fixture.service.request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json;charset=UTF-8', authorization: `Bearer ${token()}` },
      body: valid,
    });
    expect(accepted.status).toBe(200);
  });
});
