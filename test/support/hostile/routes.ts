// The partner query interface's routes with a valid value for every parameter, and the hostile values
// each parameter may take (test/rest/hostile-properties.test.ts); a key of each kind, plausible ids.
import fc from 'fast-check';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../../src/fixtures/demoIds.js';
import { endpoint, expectSafeAnswer, hostileService, refusalWritesNothing, type Sent } from './answers.js';
import { hostileText, shortHostile } from './values.js';

export const now = Math.floor(Date.now() / 1000);
/** Each partner route with a valid value for every parameter (in order); key first. */
export const PARTNER_ROUTES: Array<{ path: string; valid: Array<[string, string]> }> = [
  { path: '/v1/list-clerks.php', valid: [['key', 'demo-partner-key']] },
  { path: '/v1/list-merchants.php', valid: [['key', 'demo-retail-key']] },
  {
    path: '/v1/lookup-customer.php',
    valid: [
      ['key', 'demo-partner-key'],
      ['customerLocator', '14084930580'],
      ['fields', 'device.description'],
    ],
  },
  {
    path: '/v1/lookup-cart.php',
    valid: [
      ['key', 'demo-partner-key'],
      ['cartTag', DEMO_CART_TAG],
      ['fields', 'customer.name,device.description'],
    ],
  },
  {
    path: '/v1/list-transactions.php',
    valid: [
      ['key', 'demo-partner-key'],
      ['starttime', String(now - 30 * 86_400)],
      ['endtime', String(now + 60)],
      ['filter', 'type:cash'],
    ],
  },
  {
    path: '/v1/record-customer-payment.php',
    valid: [
      ['key', 'demo-retail-key'],
      ['merchantId', DEMO_MERCHANT_ID],
      ['salesClerkId', DEMO_CLERK_ID],
      ['financeOrderId', DEMO_ORDER_ID],
      ['amount', '0.01'],
      ['currency', 'USD'],
    ],
  },
];
export const DEMO_KEYS = [
  'demo-partner-key',
  'demo-retail-key',
  'other-partner-key',
  'other-retail-key',
  'demo-vendor-key',
  'other-vendor-key',
  'demo-operator-key',
];
export const IDS = [
  '1',
  '2000001',
  '6001',
  '5000002',
  '4000010',
  DEMO_MERCHANT_ID,
  DEMO_CLERK_ID,
  '999999999999999999',
  '9223372036854775807',
];
/** Weird but well-formed values: they may legitimately succeed, find nothing, or be another tenant's. */
export const PLAUSIBLE: Record<string, readonly string[]> = {
  key: DEMO_KEYS,
  customerLocator: [
    DEMO_DEVICE_IMEI,
    '1234567890123470',
    DEMO_DEVICE_TAG,
    'dtstbbb',
    '4000005',
    '5512345679',
    'DTSTBBE',
    '5215550000001',
    '0',
    '+14084930580',
  ],
  cartTag: ['CART-OTHER-1', 'cart-demo-1', `${DEMO_CART_TAG} `, 'CART-DEMO-%'],
  fields: [
    'device.description,device.description',
    ' customer.name , ',
    ',,,',
    'customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description',
  ],
  starttime: ['0', '253402300799', '99999999999', String(now), String(now - 366 * 86_400)],
  endtime: [
    '0',
    '253402300799',
    '99999999999',
    String(now - 30 * 86_400),
    String(now - 30 * 86_400 + 366 * 86_400 + 1),
  ],
  filter: [
    'type:CASH',
    'amount:-18',
    'amount:-18.000',
    `financeOrder.id:${DEMO_ORDER_ID}`,
    'time:0',
    'merchant.name:DEMO',
    `device.imei:${DEMO_DEVICE_IMEI}`,
  ],
  merchantId: IDS,
  salesClerkId: IDS,
  financeOrderId: IDS,
  amount: ['00.01', '1.0', '0', '-0.01', '0.001', '198.01', '99999999999999999999', '18446744073709551616'],
  currency: ['MXN', 'JPY', 'KWD', 'EUR', 'XXX', 'usd', 'USD '],
};

/** The values one parameter is given: null leaves it out; two or more repeat it. */
export const attackOn = (name: string, valid: string): fc.Arbitrary<string[] | null> =>
  fc.oneof(
    { weight: 7, arbitrary: hostileText(valid).map((value) => [value]) },
    { weight: 3, arbitrary: fc.constantFrom(...(PLAUSIBLE[name] ?? [valid])).map((value) => [value]) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constant<string[]>([valid, valid]) },
    { weight: 2, arbitrary: shortHostile.map((value) => [valid, value]) },
    { weight: 1, arbitrary: fc.array(shortHostile, { minLength: 2, maxLength: 4 }) },
  );
/** Unknown parameters (ignored by the contract), with hostile names and values. */
export const unknownParams = fc.array(fc.tuple(shortHostile, shortHostile), { maxLength: 2 });

export async function sendPartner(
  path: string,
  query: Array<[string, string]>,
  raw = '',
  headers: Record<string, string> = {},
) {
  const route = endpoint(path, 'GET');
  const search = new URLSearchParams(query).toString();
  const url = `${path}?${[search, raw].filter(Boolean).join('&')}`;
  // As the service reads them: a raw piece may carry a second key, or values only decoding shows.
  const read = [...new URL(url, 'http://localhost').searchParams];
  const echoes = [...read.filter(([name]) => name !== 'key').flat(), ...Object.values(headers)];
  const sent: Sent = {
    label: `${url} ${JSON.stringify(headers)}`,
    echoes,
    secrets: read.filter(([name]) => name === 'key').map(([, value]) => value),
  };
  const send = async () => expectSafeAnswer(route, await hostileService().request(url, { headers }), sent);
  return path.includes('record-customer-payment') ? refusalWritesNothing(send) : send();
}
