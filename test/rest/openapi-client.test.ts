// The typed client an integrator generates from openapi.json: openapi-typescript's types
// (src/__generated__/openapi-types.ts, npm run openapi:types) and openapi-fetch, calling every
// endpoint of the legacy contract on the real service, with the demo keys.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import createClient, { type Middleware } from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import type { paths } from '../../src/__generated__/openapi-types.js';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The partner interface's key travels as the key query parameter (security schemes partnerKey, retailKey). */
const queryKey = (key: string): Middleware => ({
  onRequest({ request }) {
    const url = new URL(request.url);
    url.searchParams.set('key', key);
    return new Request(url, request);
  },
});

type NotificationBody = paths['/payments/v1/notification']['post']['requestBody']['content']['application/json'];

const fixture = useSeededService();
const clients = () => {
  const baseUrl = fixture.service.baseUrl;
  const payments = createClient<paths>({ baseUrl });
  const partner = createClient<paths>({ baseUrl });
  partner.use(queryKey('demo-partner-key'));
  const retail = createClient<paths>({ baseUrl });
  retail.use(queryKey('demo-retail-key'));
  return { payments, partner, retail };
};
const NOW = () => Math.floor(Date.now() / 1000);

describe('the generated types', () => {
  it('are what openapi-typescript makes of openapi.json now (npm run openapi:types rewrites them)', () => {
    const check = spawnSync('npm', ['run', '--silent', 'check', '--workspace=tools/openapi-types'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
  });
});

describe('openapi-fetch with the generated types, against the service', () => {
  it('payments interface: a vendor buys a token and notifies a payment; a misspelt field is a type error', async () => {
    const { payments } = clients();
    const token = await payments.POST('/payments/v1/token', { body: { apiKey: 'demo-vendor-key' } });
    expect(token.response.status).toBe(200);
    expect(token.data?.data).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const headers = { Authorization: `Bearer ${token.data!.data.access_token}` };

    const body: NotificationBody = {
      paymentVendor: 'demo-vendor',
      amount: '20.00',
      currency: 'USD',
      reference: 'TYPED-CLIENT-1',
      deviceTag: 'DTSTBBD',
    };
    const notified = await payments.POST('/payments/v1/notification', { headers, body });
    expect(notified.response.status).toBe(200);
    expect(notified.data?.data).toMatchObject({ remainingBalance: 220, currency: 'USD', fullyPaid: false });

    // A typo in a field name fails the type check (npm run typecheck): without the directive, TS2561.
    const misspelt: NotificationBody = {
      paymentVendor: 'demo-vendor',
      // @ts-expect-error amout is no field of the notification body (amount is, and it is required)
      amout: '20.00',
      currency: 'USD',
      reference: 'T2',
    };
    const refused = await payments.POST('/payments/v1/notification', {
      headers,
      body: { ...misspelt, deviceTag: 'DTSTBBD' },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error).toEqual({
      code: 'INVALID_NOTIFICATION',
      message: 'the notification is not valid: amount is a required field',
    });
  });

  it('partner query interface: clerks, merchants, a customer, a cart, transactions, an in-store payment', async () => {
    const { partner, retail } = clients();

    const clerks = await partner.GET('/v1/list-clerks.php');
    expect(clerks.data?.clerks.map((clerk) => clerk.id)).toEqual(['5320', '5334', DEMO_CLERK_ID]);

    const merchants = await retail.GET('/v1/list-merchants.php');
    expect(merchants.data?.merchants.map((merchant) => merchant.name)).toEqual(['DEMO', 'DEMO1', 'DEMO2']);

    const customer = await retail.GET('/v1/lookup-customer.php', {
      params: { query: { customerLocator: DEMO_DEVICE_IMEI, fields: 'device.description' } },
    });
    expect(customer.data).toMatchObject({
      valid: true,
      customer: { id: 4000005 },
      device: { imei: DEMO_DEVICE_IMEI, description: 'Black, 32 GB' },
      financeOrder: { id: Number(DEMO_ORDER_ID), remainingBalance: 198 },
    });

    const cart = await partner.GET('/v1/lookup-cart.php', {
      params: { query: { cartTag: DEMO_CART_TAG, fields: 'customer.name' } },
    });
    expect(cart.data).toMatchObject({ valid: true, customer: { name: 'API User' }, cart: { cartTag: DEMO_CART_TAG } });

    const recorded = await retail.GET('/v1/record-customer-payment.php', {
      params: {
        query: {
          merchantId: Number(DEMO_MERCHANT_ID),
          salesClerkId: Number(DEMO_CLERK_ID),
          financeOrderId: Number(DEMO_ORDER_ID),
          amount: '18.00',
          currency: 'USD',
        },
        header: { 'Idempotency-Key': 'typed-client-1' },
      },
    });
    expect(recorded.response.headers.get('cache-control')).toBe('no-store');
    expect(recorded.data?.payment).toMatchObject({ remainingBalance: 180, currency: 'USD', fullyPaid: false });

    const transactions = await partner.GET('/v1/list-transactions.php', {
      params: { query: { starttime: NOW() - 30 * 86_400, endtime: NOW() + 60, filter: ['type:cash'] } },
    });
    const cash = transactions.data?.transactions ?? [];
    expect(cash.map((transaction) => [transaction.type, transaction.amount])).toEqual([
      ['cash', -18],
      ['cash', -18],
    ]);
  });

  it('an error answer is typed too: a retail key on the cart lookup is 403 FORBIDDEN', async () => {
    const { retail } = clients();
    const forbidden = await retail.GET('/v1/lookup-cart.php', { params: { query: { cartTag: DEMO_CART_TAG } } });
    expect(forbidden.response.status).toBe(403);
    expect(forbidden.data).toBeUndefined();
    expect(forbidden.error).toMatchObject({ valid: false, error: { code: 'FORBIDDEN' } });
  });
});
