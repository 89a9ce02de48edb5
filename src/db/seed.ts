// The demo (sandbox) data set of shared/spec/demo-data.md, written as the project's own seed. Times
// are relative to T, the start of the UTC day on which the seed runs; keys are stored hashed like any
// other key. Never loaded in production mode.
import type { Knex } from 'knex';
import { parseAmount, subtractMinor } from '../money.js';
import { displayPrefix, hashApiKey } from '../modules/auth/keys.js';
import { fingerprintPaymentRequest } from '../modules/payments/idempotency.js';
import type { PaymentReceiptSnapshot } from '../modules/payments/rows.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** T: the seed moment truncated to the start of its UTC day. */
export function demoEpoch(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

export const DEMO_KEYS = [
  { key: 'demo-partner-key', kind: 'partner', owner: 'Demo Retail' },
  { key: 'demo-retail-key', kind: 'retail', owner: 'Demo Retail' },
  { key: 'other-partner-key', kind: 'partner', owner: 'Other Retail' },
  { key: 'other-retail-key', kind: 'retail', owner: 'Other Retail' },
  { key: 'demo-vendor-key', kind: 'vendor', owner: 'demo-vendor' },
  { key: 'other-vendor-key', kind: 'vendor', owner: 'other-vendor' },
  { key: 'demo-operator-key', kind: 'operator', owner: 'Operations' },
] as const;

const DEVICE_LOCATOR = ['deviceTag', 'imei', 'phoneNumber', 'financeOrderId'] as const;
const VENDOR_BASE_PROPERTIES = {
  paymentVendor: { type: 'string' },
  amount: {
    oneOf: [
      { type: 'number', exclusiveMinimum: 0 },
      { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' },
    ],
  },
  currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  reference: { type: 'string', minLength: 1, maxLength: 255 },
  deviceTag: { type: 'string', minLength: 1, maxLength: 64 },
  imei: { type: 'string', pattern: '^[0-9]{15,16}$' },
  phoneNumber: { type: 'string', minLength: 1, maxLength: 32 },
  financeOrderId: { oneOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^[0-9]+$' }] },
};

// demo-vendor: amount, currency, reference, and exactly one way to find the device.
export const DEMO_VENDOR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: VENDOR_BASE_PROPERTIES,
  required: ['paymentVendor', 'amount', 'currency', 'reference'],
  oneOf: DEVICE_LOCATOR.map((field) => ({
    required: [field],
    not: { anyOf: DEVICE_LOCATOR.filter((other) => other !== field).map((other) => ({ required: [other] })) },
  })),
};

// other-vendor: amount, currency, reference and deviceTag, all required.
const OTHER_VENDOR_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: VENDOR_BASE_PROPERTIES,
  required: ['paymentVendor', 'amount', 'currency', 'reference', 'deviceTag'],
};

/** Tables whose rows mean "this database holds data": the seed refuses to write into any of them. */
const OWNED_TABLES = ['partners', 'operators', 'payment_vendors', 'api_keys', 'device_families'] as const;

export async function databaseHoldsData(db: Knex | Knex.Transaction): Promise<boolean> {
  for (const table of OWNED_TABLES) {
    if (await db(table).first(db.raw('1 as present'))) return true;
  }
  return false;
}

/** Tables with a serial id; their sequences move past the demo's fixed ids after seeding. */
const SERIAL_TABLES = [
  'partners', 'operators', 'payment_vendors', 'api_keys', 'device_families', 'device_models', 'merchants',
  'clerks', 'customers', 'devices', 'carts', 'finance_orders', 'payments', 'adjustments', 'transactions',
] as const;

export class SeedRefused extends Error {
  override name = 'SeedRefused';
}

/**
 * Loads the demo data set into an empty database, in one transaction: all of it or none of it.
 * Refuses in production mode and on a database that already holds data.
 */
export async function seedDemoData(db: Knex, options: { now?: Date; production: boolean }): Promise<void> {
  if (options.production) throw new SeedRefused('the demo data set is never loaded in production mode (NODE_ENV=production)');
  const T = demoEpoch(options.now ?? new Date());
  const at = (days: number) => new Date(T.getTime() + days * DAY_MS);
  const usd = (text: string) => parseAmount(text, 'USD').toString();
  const mxn = (text: string) => parseAmount(text, 'MXN').toString();

  await db.transaction(async (trx) => {
    // Lock out a concurrent seed, then check emptiness inside the same transaction.
    await trx.raw('lock table partners in exclusive mode');
    if (await databaseHoldsData(trx)) throw new SeedRefused('the database already holds data; the demo data set is only loaded into an empty database');

    const [demoRetail] = await trx('partners').insert({ name: 'Demo Retail', commission_rate_bps: 500 }).returning('id');
    const [otherRetail] = await trx('partners').insert({ name: 'Other Retail', commission_rate_bps: 0 }).returning('id');
    const [operations] = await trx('operators').insert({ name: 'Operations' }).returning('id');
    const [demoVendor] = await trx('payment_vendors')
      .insert({ name: 'demo-vendor', display_name: 'Demo Vendor', request_schema: JSON.stringify(DEMO_VENDOR_SCHEMA) })
      .returning('id');
    const [otherVendor] = await trx('payment_vendors')
      .insert({ name: 'other-vendor', display_name: 'Other Vendor', request_schema: JSON.stringify(OTHER_VENDOR_SCHEMA) })
      .returning('id');
    const demo = demoRetail!.id as string;
    const other = otherRetail!.id as string;

    const owners: Record<string, Record<string, string>> = {
      'Demo Retail': { partner_id: demo },
      'Other Retail': { partner_id: other },
      'demo-vendor': { vendor_id: demoVendor!.id },
      'other-vendor': { vendor_id: otherVendor!.id },
      Operations: { operator_id: operations!.id },
    };
    await trx('api_keys').insert(
      DEMO_KEYS.map(({ key, kind, owner }) => ({
        key_hash: hashApiKey(key),
        display_prefix: displayPrefix(key),
        kind,
        label: `demo ${kind} key`,
        ...owners[owner],
      })),
    );

    await trx('device_families').insert([
      { id: 3, name: 'Galaxy S6' },
      { id: 7, name: 'Moto G' },
    ]);
    await trx('device_models').insert([
      { id: 3, family_id: 3, make_model: 'SAMSUNG SM-G920P', name: 'Samsung Galaxy S6 (Boost/Sprint)' },
      { id: 12, family_id: 7, make_model: 'motorola moto g(8)', name: 'Motorola Moto G8' },
    ]);

    await trx('merchants').insert([
      { partner_id: demo, id: 851005, name: 'DEMO', street: '679 3rd St', street2: null, city: 'Tallahassee', state: 'FL', postal_code: '', country: 'US', phone_number: '555-555-5555' },
      { partner_id: demo, id: 999888, name: 'DEMO1', street: '55 E 3rd Ave', street2: null, city: 'San Mateo', state: 'CA', postal_code: '94401', country: 'US', phone_number: '505-505-5055' },
      { partner_id: demo, id: 1000201, name: 'DEMO2', street: '679 3rd St', street2: null, city: 'San Francisco', state: 'CA', postal_code: '94107', country: 'US', phone_number: '555-555-5555' },
      { partner_id: other, id: 2000001, name: 'OTHER', street: '1 Main St', street2: null, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US', phone_number: '512-555-0100' },
    ]);
    await trx('clerks').insert([
      { partner_id: demo, id: 5335, person_uuid: 'c1e4a9b2-5335-4f6e-8a1d-3b7c9e205335', name: 'DemoClerk1', phone_number: '16178994187', email: 'demo1@clerk.com' },
      { partner_id: demo, id: 5334, person_uuid: 'a7d2f0c8-5334-4b9a-9e3f-6c1d8b405334', name: 'DemoClerk', phone_number: '16178994187', email: 'test1@clerk.com' },
      { partner_id: demo, id: 5320, person_uuid: 'e3b8c6d1-5320-4a7f-b2c9-8f4e1a605320', name: 'Demo InstallClark', phone_number: '16178994187', email: 'demo1@clerk.com' },
      { partner_id: other, id: 6001, person_uuid: '4f9a2e7c-6001-4d3b-a8e6-2c5b9d706001', name: 'OtherClerk', phone_number: '15125550100', email: 'clerk@other.example' },
    ]);

    await trx('customers').insert([
      { partner_id: demo, id: 4000005, name: 'API User', phone_number: '14084930580', email: 'api.user@example.com', address: '679 3rd St, Tallahassee, FL, US', national_id: 'ID-4000005' },
      { partner_id: demo, id: 4000006, name: 'Paid Off', phone_number: '5512345679' },
      { partner_id: demo, id: 4000007, name: 'Late Payer', phone_number: '5512345680' },
      { partner_id: other, id: 5000001, name: 'Other Customer', phone_number: '5215550000001' },
    ]);

    const devices = [
      { partner_id: demo, customer_id: 4000005, model_id: 3, tag: 'DTSTBBB', imei: '123456789012347', sim_number: '12345678901774567891', phone_number: '15052111315', description: 'Black, 32 GB', last_seen_at: at(-1) },
      { partner_id: demo, customer_id: 4000006, model_id: 3, tag: 'DTSTBBC', imei: '123456789012354' },
      { partner_id: demo, customer_id: 4000007, model_id: 12, tag: 'DTSTBBD', imei: '123456789012362' },
      { partner_id: other, customer_id: 5000001, model_id: 12, tag: 'DTSTBBE', imei: '123456789012370' },
    ];
    const deviceRows: Array<{ id: string; partner_id: string; tag: string; imei: string }> = await trx('devices')
      .insert(devices)
      .returning(['id', 'partner_id', 'tag', 'imei']);
    await trx('device_directory').insert(
      deviceRows.map((row) => ({ imei: row.imei, tag: row.tag, partner_id: row.partner_id, device_id: row.id })),
    );
    const deviceId = (tag: string) => deviceRows.find((row) => row.tag === tag)!.id;

    const orders = [
      { partner_id: demo, id: 4000004, customer_id: 4000005, device_id: deviceId('DTSTBBB'), merchant_id: 851005, clerk_id: 5335, currency: 'USD', purchase_minor: usd('300'), down_payment_minor: usd('100'), price_pre_tax_minor: usd('300'), monthly_cost_minor: usd('18'), weekly_cost_minor: usd('4'), months: 12, total_paid_minor: usd('18.00'), ordered_at: at(-40) },
      { partner_id: demo, id: 4000010, customer_id: 4000006, device_id: deviceId('DTSTBBC'), merchant_id: 999888, clerk_id: 5334, currency: 'USD', purchase_minor: usd('400'), down_payment_minor: usd('100'), price_pre_tax_minor: usd('400'), monthly_cost_minor: usd('35'), weekly_cost_minor: usd('9'), months: 12, total_paid_minor: usd('420.00'), ordered_at: at(-400) },
      { partner_id: demo, id: 4000012, customer_id: 4000007, device_id: deviceId('DTSTBBD'), merchant_id: 1000201, clerk_id: 5320, currency: 'USD', purchase_minor: usd('250'), down_payment_minor: usd('50'), price_pre_tax_minor: usd('250'), monthly_cost_minor: usd('20'), weekly_cost_minor: usd('5'), months: 12, total_paid_minor: '0', ordered_at: at(-100) },
      { partner_id: other, id: 5000002, customer_id: 5000001, device_id: deviceId('DTSTBBE'), merchant_id: 2000001, clerk_id: 6001, currency: 'MXN', purchase_minor: mxn('200'), down_payment_minor: mxn('40'), price_pre_tax_minor: mxn('200'), monthly_cost_minor: mxn('16'), weekly_cost_minor: mxn('4'), months: 12, total_paid_minor: '0', ordered_at: at(-20) },
    ];
    await trx('finance_orders').insert(orders);

    await trx('carts').insert([
      { partner_id: demo, cart_tag: 'CART-DEMO-1', customer_id: 4000005, merchant_id: 851005, clerk_id: 5335, device_model_id: 3, device_description: 'Black, 32 GB', currency: 'USD', purchase_minor: usd('300.00'), down_payment_minor: usd('100.00'), price_pre_tax_minor: usd('300'), monthly_cost_minor: usd('18.00'), weekly_cost_minor: usd('4.00'), months: 12 },
      { partner_id: other, cart_tag: 'CART-OTHER-1', customer_id: 5000001, merchant_id: 2000001, clerk_id: 6001, device_model_id: 12, device_description: null, currency: 'MXN', purchase_minor: mxn('200.00'), down_payment_minor: mxn('40.00'), price_pre_tax_minor: mxn('200'), monthly_cost_minor: mxn('16.00'), weekly_cost_minor: mxn('4.00'), months: 12 },
    ]);

    await trx('payments').insert([
      { partner_id: demo, id: 4000008, finance_order_id: 4000004, channel: 'in_store', amount_minor: usd('18.00'), currency: 'USD', merchant_id: 851005, clerk_id: 5335, received_at: at(-10) },
    ]);
    // The vendor payment that paid off 4000010, with the notification record a real one leaves, so a
    // vendor repeating that reference gets the replay, not a second payment.
    const vendorNotification = { paymentVendor: 'demo-vendor', amount: '420.00', currency: 'USD', reference: 'DEMO-VENDOR-4000010-1', deviceTag: 'DTSTBBC' };
    const [vendorPayment] = await trx('payments')
      .insert({ partner_id: demo, finance_order_id: 4000010, channel: 'vendor', amount_minor: usd(vendorNotification.amount), currency: 'USD', vendor_id: demoVendor!.id, vendor_reference: vendorNotification.reference, received_at: at(-200) })
      .returning('id');
    const receipt: PaymentReceiptSnapshot = {
      partnerId: demo, paymentId: vendorPayment!.id, amountMinor: usd(vendorNotification.amount), time: Math.floor(at(-200).getTime() / 1000), deviceTag: 'DTSTBBC',
      remainingMinor: '0', currency: 'USD', nextPayment: null, fullyPaid: true,
    };
    await trx('vendor_notifications').insert({
      vendor_id: demoVendor!.id, reference: vendorNotification.reference, request_hash: fingerprintPaymentRequest(vendorNotification, vendorNotification).hash,
      partner_id: demo, payment_id: vendorPayment!.id, response_body: JSON.stringify(receipt), created_at: at(-200),
    });

    const [adjustment] = await trx('adjustments')
      .insert({ partner_id: demo, kind: 'commission', amount_minor: usd('-0.10'), currency: 'USD', notes: 'commission correction for financeOrder 4000004', merchant_id: 851005, finance_order_id: 4000004, operator_id: operations!.id, created_at: at(-5) })
      .returning('id');

    // A finance transaction for each order at its time, carrying +financeAmount (purchase - down).
    const financeTransactions = orders.map((order) => ({
      partner_id: order.partner_id,
      type: 'finance',
      amount_minor: subtractMinor(order.purchase_minor, order.down_payment_minor).toString(),
      currency: order.currency,
      occurred_at: order.ordered_at,
      merchant_id: order.merchant_id,
      clerk_id: order.clerk_id,
      finance_order_id: order.id,
    }));
    await trx('transactions').insert([
      ...financeTransactions,
      { partner_id: demo, type: 'cash', amount_minor: usd('-18.00'), currency: 'USD', occurred_at: at(-10), merchant_id: 851005, clerk_id: 5335, finance_order_id: 4000004, payment_id: 4000008 },
      { partner_id: demo, type: 'commission', amount_minor: usd('0.90'), currency: 'USD', occurred_at: at(-10), merchant_id: 851005, finance_order_id: 4000004, payment_id: 4000008 },
      { partner_id: demo, type: 'adjustment', amount_minor: usd('-0.10'), currency: 'USD', occurred_at: at(-5), merchant_id: 851005, finance_order_id: 4000004, adjustment_id: adjustment!.id },
    ]);

    // Rows given fixed ids above do not move the sequences; move them past the highest id so the
    // next row created through the service cannot collide with a demo row.
    for (const table of SERIAL_TABLES) {
      await trx.raw(`select setval(pg_get_serial_sequence(?, 'id'), greatest((select max(id) from ??), 1))`, [table, table]);
    }
  });
}

/** The demo keys that are present and active in this database, to print at start. */
export async function activeDemoKeys(db: Knex): Promise<Array<(typeof DEMO_KEYS)[number]>> {
  const rows: Array<{ key_hash: string }> = await db('api_keys')
    .select('key_hash')
    .whereIn('key_hash', DEMO_KEYS.map(({ key }) => hashApiKey(key)))
    .whereNull('revoked_at');
  const present = new Set(rows.map((row) => row.key_hash));
  return DEMO_KEYS.filter(({ key }) => present.has(hashApiKey(key)));
}
