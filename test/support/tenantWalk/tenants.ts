// Tenant isolation's two tenants (Demo Retail and Other Retail), what identifies each (read from the
// database, not a hand-kept list), the records each is given before the walk, and the walk both ways.
import { beforeAll, describe, expect } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../../src/fixtures/demoIds.js';
import { appendEvents } from '../../../src/modules/events/queries.js';
import { type Answer, db, gql, rest, service, useTenantService } from './answers.js';

export const NOW = new Date('2026-06-10T15:30:00Z');
export const DAY = 86_400;
export const nowSeconds = Math.floor(NOW.getTime() / 1000);
export const WINDOW = { start: nowSeconds - 365 * DAY, end: nowSeconds + DAY };

// ---------------------------------------------------------------------------------------------------
// The two tenants, and what identifies each.

export interface Tenant {
  name: string;
  partnerKey: string;
  retailKey: string;
  merchantId: string;
  clerkId: string;
  customerId: string;
  phone: string;
  deviceTag: string;
  imei: string;
  orderId: string;
  cartTag: string;
  currency: string;
  /** Filled in beforeAll. */
  known: Known;
}

export interface Known {
  partnerId: string;
  partnerKeyId: string;
  merchantName: string;
  clerkName: string;
  paymentIds: string[];
  adjustmentId: string;
  adjustmentNotes: string;
  deviceSim: string | null;
  devicePhone: string | null;
  /** A webhook endpoint of the tenant (created by an operator) and one of its events. */
  endpointId: string;
  eventId: string;
  /** A payment reference of the tenant's order (made with its partner key). */
  referenceCode: string;
  /** The tenant's device (its deviceTag's), which its partner key sent a command. */
  deviceId: string;
  /** A report run its partner key asked for (decisions.md 45). */
  reportRunId: string;
  /** Every customer's phone number and every device's tag: the tenant's own lookups. */
  locators: string[];
  /** Identifying text values (4 characters or more), found anywhere in a response. */
  texts: string[];
  /** Record ids by table, found as the id of an object of that type. */
  ids: Record<string, Set<string>>;
}

export const DEMO: Tenant = {
  name: 'Demo Retail',
  partnerKey: 'demo-partner-key',
  retailKey: 'demo-retail-key',
  merchantId: DEMO_MERCHANT_ID,
  clerkId: DEMO_CLERK_ID,
  customerId: '4000005',
  phone: '14084930580',
  deviceTag: DEMO_DEVICE_TAG,
  imei: DEMO_DEVICE_IMEI,
  orderId: DEMO_ORDER_ID,
  cartTag: DEMO_CART_TAG,
  currency: 'USD',
  known: {} as Known,
};
export const OTHER: Tenant = {
  name: 'Other Retail',
  partnerKey: 'other-partner-key',
  retailKey: 'other-retail-key',
  merchantId: '2000001',
  clerkId: '6001',
  customerId: '5000001',
  phone: '5215550000001',
  deviceTag: 'DTSTBBE',
  imei: '123456789012370',
  orderId: '5000002',
  cartTag: 'CART-OTHER-1',
  currency: 'MXN',
  known: {} as Known,
};

/** Values of the same shape that name nothing at all: what B's values must be indistinguishable from. */
export const GHOST = {
  partnerId: '987654',
  partnerKeyId: '987654',
  merchantId: '9000001',
  merchantName: 'GHOSTSTORE',
  clerkId: '9009',
  clerkName: 'GhostClerk',
  customerId: '9000002',
  phone: '5215559999999',
  deviceTag: 'DTGHOST',
  imei: '490154203237591',
  orderId: '9000003',
  cartTag: 'CART-GHOST-1',
  paymentId: '9000004',
  adjustmentId: '987654',
  adjustmentNotes: 'no such notes',
  deviceSim: '99999999999999999999',
  devicePhone: '19999999999',
  deviceId: '9000006',
  endpointId: '987650',
  eventId: 'evt_0000000000GHOSTGHOSTGHOST1',
  // A code of the right form, its check character right, that no reference has.
  referenceCode: 'GH0STC0DE',
  reportRunId: '987653',
};
export type Values = Partial<Record<keyof typeof GHOST, string>>;

/** The columns that identify a tenant's records. */
export const IDENTIFYING_COLUMNS: Record<string, string[]> = {
  merchants: ['id', 'name', 'street', 'street2', 'city', 'postal_code', 'phone_number'],
  clerks: ['id', 'person_uuid', 'name', 'phone_number', 'email'],
  customers: ['id', 'name', 'phone_number', 'email', 'address', 'national_id'],
  devices: ['id', 'tag', 'imei', 'sim_number', 'phone_number', 'description'],
  carts: ['id', 'cart_tag', 'device_description'],
  finance_orders: ['id', 'currency'],
  payments: ['id', 'vendor_reference'],
  transactions: ['id'],
  adjustments: ['id', 'notes'],
  idempotency_keys: ['idempotency_key'],
  webhook_endpoints: ['id', 'url'],
  webhook_deliveries: ['id'],
  events: ['id'],
  payment_references: ['id', 'code'],
  device_commands: ['id', 'message'],
  report_runs: ['id'],
};

export async function valuesOf(partnerId: string): Promise<{ texts: Set<string>; ids: Record<string, Set<string>> }> {
  const partner = await db()('partners').where({ id: partnerId }).first();
  const texts = new Set<string>([String(partner.name)]);
  const ids: Record<string, Set<string>> = { partners: new Set([partnerId]) };
  for (const [table, columns] of Object.entries(IDENTIFYING_COLUMNS)) {
    for (const row of await db()(table).where({ partner_id: partnerId }).select(columns)) {
      if (columns.includes('id')) {
        ids[table] ??= new Set();
        ids[table].add(String(row.id));
      }
      for (const column of columns) if (row[column] != null && row[column] !== '') texts.add(String(row[column]));
    }
  }
  ids.api_keys = new Set(
    (await db()('api_keys').where({ partner_id: partnerId }).select('id')).map((row) => String(row.id)),
  );
  return { texts, ids };
}

// ---------------------------------------------------------------------------------------------------
// Data for both tenants: payments in store (with one idempotency key both use), through vendors, and
// adjustments, so each has records of every kind to be probed for.

export const SHARED_IDEMPOTENCY_KEY = 'pos-receipt-shared-1';
export const sharedKeyAnswers: Record<string, Answer> = {};

/** Gives each tenant records of every kind, then reads what identifies them. */
export async function seedTenants(): Promise<void> {
  for (const tenant of [OTHER, DEMO]) {
    const paid = await rest(
      `/v1/record-customer-payment.php?key=${tenant.retailKey}&merchantId=${tenant.merchantId}&salesClerkId=${tenant.clerkId}&financeOrderId=${tenant.orderId}&amount=2.00&currency=${tenant.currency}`,
      { 'idempotency-key': SHARED_IDEMPOTENCY_KEY },
    );
    sharedKeyAnswers[tenant.name] = paid;
  }
  // Through vendors: other-vendor pays Other Retail's device, demo-vendor Demo Retail's.
  for (const [vendorKey, vendor, tag, currency] of [
    ['other-vendor-key', 'other-vendor', OTHER.deviceTag, 'MXN'],
    ['demo-vendor-key', 'demo-vendor', 'DTSTBBD', 'USD'],
  ] as const) {
    const token = (
      (await (
        await service().request('/payments/v1/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey: vendorKey }),
        })
      ).json()) as any
    ).data.access_token;
    const notified = await service().request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        paymentVendor: vendor,
        amount: '3.00',
        currency,
        reference: `ISO-${vendor}-1`,
        deviceTag: tag,
      }),
    });
    expect(notified.status).toBe(200);
  }
  for (const tenant of [DEMO, OTHER]) {
    const partnerId = String((await db()('partners').where({ name: tenant.name }).first()).id);
    const adjusted = await gql(
      'demo-operator-key',
      'mutation($input: CreateAdjustmentInput!) { createAdjustment(input: $input) { id } }',
      {
        input: {
          partnerId,
          kind: 'PAYMENT',
          amount: '-0.25',
          currency: tenant.currency,
          notes: `isolation walk correction for ${tenant.name}`,
          merchantId: tenant.merchantId,
          financeOrderId: tenant.orderId,
        },
      },
    );
    expect(adjusted.json.errors).toBeUndefined();
    const endpoint = await gql(
      'demo-operator-key',
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }',
      {
        input: {
          partnerId,
          url: `http://127.0.0.1:9/isolation-hook-${tenant.partnerKey}`,
          eventTypes: ['PAYMENT_RECORDED'],
        },
      },
    );
    expect(endpoint.json.errors).toBeUndefined();
    const [event] = await appendEvents(db(), partnerId, [
      { type: 'payment.recorded', occurredAt: new Date(), data: { isolation: tenant.partnerKey } },
    ]);
    const reference = await gql(
      tenant.partnerKey,
      'mutation($input: CreatePaymentReferenceInput!) { createPaymentReference(input: $input) { code } }',
      { input: { financeOrderId: tenant.orderId, amount: '1.00' } },
    );
    expect(reference.json.errors).toBeUndefined();
    const ownDevice = await db()('devices').where({ tag: tenant.deviceTag }).first();
    const command = await gql(
      tenant.partnerKey,
      'mutation($input: SendDeviceCommandInput!) { sendDeviceCommand(input: $input) { id } }',
      {
        input: { deviceId: String(ownDevice.id), type: 'SHOW_MESSAGE', message: `isolation notice for ${tenant.name}` },
      },
    );
    expect(command.json.errors).toBeUndefined();
    const report = await gql(
      tenant.partnerKey,
      'mutation($input: CreateReportRunInput!) { createReportRun(input: $input) { id } }',
      { input: { partnerId, type: 'AGEING' } },
    );
    expect(report.json.errors).toBeUndefined();
    const { texts, ids } = await valuesOf(partnerId);
    const adjustment = await db()('adjustments').where({ id: adjusted.json.data.createAdjustment.id }).first();
    const device = await db()('devices').where({ tag: tenant.deviceTag }).first();
    const customers = await db()('customers').where({ partner_id: partnerId }).select('phone_number');
    const devices = await db()('devices').where({ partner_id: partnerId }).select('tag');
    const partnerKey = await db()('api_keys').where({ partner_id: partnerId, kind: 'partner' }).orderBy('id').first();
    tenant.known = {
      partnerId,
      partnerKeyId: String(partnerKey.id),
      merchantName: String(
        (await db()('merchants').where({ partner_id: partnerId, id: tenant.merchantId }).first()).name,
      ),
      clerkName: String((await db()('clerks').where({ partner_id: partnerId, id: tenant.clerkId }).first()).name),
      paymentIds: (await db()('payments').where({ partner_id: partnerId }).select('id').orderBy('id')).map((row) =>
        String(row.id),
      ),
      adjustmentId: String(adjustment.id),
      endpointId: String(endpoint.json.data.createWebhookEndpoint.endpoint.id),
      eventId: event!.id,
      referenceCode: String(reference.json.data.createPaymentReference.code),
      deviceId: String(ownDevice.id),
      reportRunId: String(report.json.data.createReportRun.id),
      adjustmentNotes: adjustment.notes,
      deviceSim: device.sim_number,
      devicePhone: device.phone_number,
      locators: [...customers.map((row) => String(row.phone_number)), ...devices.map((row) => String(row.tag))],
      texts: [...texts],
      ids,
    };
  }
  // A value both tenants hold (the shared idempotency key, a city) identifies neither; short values
  // (a state, a small id) are checked as record ids only.
  const demoTexts = new Set(DEMO.known.texts);
  const otherTexts = new Set(OTHER.known.texts);
  // The currency of the orders is kept although short: a refusal naming B's currency would tell A
  // that B's order exists.
  const identifying = (tenant: Tenant, others: Set<string>) =>
    tenant.known.texts.filter((value) => (value.length >= 4 || value === tenant.currency) && !others.has(value));
  DEMO.known.texts = identifying(DEMO, otherTexts);
  OTHER.known.texts = identifying(OTHER, demoTexts);
}

/** The seeded service, with both tenants' records, for the test file that calls it (once, at its top level). */
export function useTenantWalk(): void {
  useTenantService(NOW);
  beforeAll(seedTenants);
}

/** Registers `probes` twice: Demo Retail (A) asking for Other Retail's (B) records, then the other way round. */
export function walkBothWays(probes: (self: () => Tenant, victim: () => Tenant) => void): void {
  describe("Demo Retail (A) asks for Other Retail's (B) records", () =>
    probes(
      () => DEMO,
      () => OTHER,
    ));
  describe("Other Retail (A) asks for Demo Retail's (B) records", () =>
    probes(
      () => OTHER,
      () => DEMO,
    ));
}
