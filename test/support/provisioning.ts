// The operator's provisioning through GraphQL (test/graph/graph-provisioning*.test.ts): a caller per key,
// the checks of an answer, a refusal that must write nothing, and the operations' texts.
import { expect } from 'vitest';
import { type ServiceFixture, useSeededService } from './fixtures.js';

let fixture: ServiceFixture | undefined;

/** The seeded service of the test file that calls it, once at its top level: every caller here asks it. */
export function useProvisioningService(): ServiceFixture {
  fixture = useSeededService();
  return fixture;
}

export const OPERATOR_KEY = 'demo-operator-key';
export const DAY = 86_400;

export type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };

/** A GraphQL caller presenting `key` as X-Api-Key; answers the response body. */
export const as =
  (key: string) =>
  (query: string, variables?: Record<string, unknown>): Promise<Body> =>
    fixture!.service.graphql(query, { 'x-api-key': key }, variables).then((result) => result.body as Body);
export const operator = as(OPERATOR_KEY);

/** The data of a response that must have succeeded. */
export function ok(body: Body): any {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

/** The code of a response that must have failed (its data null). */
export function failure(body: Body): string | undefined {
  expect(body.errors, 'expected an error').toBeDefined();
  expect(body.data ?? null).toBeNull();
  return body.errors?.[0]?.extensions?.code;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

// Rows in every table a provisioning mutation, a payment or an adjustment can write.
export const WRITTEN_TABLES = [
  'partners',
  'merchants',
  'clerks',
  'customers',
  'device_families',
  'device_models',
  'devices',
  'device_directory',
  'carts',
  'finance_orders',
  'payments',
  'transactions',
  'adjustments',
  'api_keys',
  'payment_vendors',
  'idempotency_keys',
  'vendor_notifications',
  'operators',
] as const;

export async function tableCounts(): Promise<Record<string, number>> {
  const db = fixture!.database.db;
  const counts: Record<string, number> = {};
  for (const table of WRITTEN_TABLES) {
    const row = await db(table).count({ n: '*' }).first();
    counts[table] = Number(row?.n);
  }
  return counts;
}

/** Runs a request that must be refused with `code`, and checks that it wrote nothing at all. */
export async function expectRefusedWithoutWriting(code: string, request: () => Promise<Body>): Promise<Body> {
  const before = await tableCounts();
  const body = await request();
  expect(failure(body), JSON.stringify(body.errors)).toBe(code);
  expect(await tableCounts()).toEqual(before);
  return body;
}

// ---------------------------------------------------------------------------------------------------
// Operations

export const CREATE_PARTNER = `mutation($input: CreatePartnerInput!) {
  createPartner(input: $input) { id name commissionRateBasisPoints merchants { id } clerks { id } createdAt }
}`;
export const CREATE_MERCHANT = `mutation($input: CreateMerchantInput!) {
  createMerchant(input: $input) { id name phoneNumber address { street street2 city state postalCode country } }
}`;
export const CREATE_CLERK = `mutation($input: CreateClerkInput!) {
  createClerk(input: $input) { id personUuid name phoneNumber email }
}`;
export const CREATE_CUSTOMER = `mutation($input: CreateCustomerInput!) {
  createCustomer(input: $input) { id name phoneNumber email address nationalId financeOrder { id } financeOrders { nodes { id } } devices { nodes { id } } }
}`;
export const CREATE_FAMILY = `mutation($name: String!) { createDeviceFamily(name: $name) { id name models { nodes { id } } } }`;
export const CREATE_MODEL = `mutation($input: CreateDeviceModelInput!) {
  createDeviceModel(input: $input) { id makeModel name family { id name } }
}`;
export const CREATE_DEVICE = `mutation($input: CreateDeviceInput!) {
  createDevice(input: $input) {
    id tag imei simNumber phoneNumber description model { id } family { id } customer { id }
    financeOrder { id } validThrough secureStatus
  }
}`;
export const CREATE_CART = `mutation($input: CreateCartInput!) {
  createCart(input: $input) {
    id cartTag currency purchaseAmount downPayment financeAmount pricePreTax monthlyCost weeklyCost months
    deviceDescription customer { id } merchant { id } salesClerk { id } deviceModel { id } financeOrder { id }
  }
}`;
export const ORDER_FIELDS = `
  id currency purchaseAmount downPayment financeAmount pricePreTax monthlyCost weeklyCost months
  repayableTotal totalPaid remainingBalance time paidThrough nextPayment fullyPaid secureStatus
  paymentOptions { type amount currency }
  payments { id amount currency channel time merchant { id } salesClerk { id } paymentVendor { id } vendorReference }
  schedule { number dueAt amount paid status }
  customer { id } merchant { id } salesClerk { id } cart { cartTag }
  device { id tag validThrough secureStatus }
`;
export const FINANCE_CART = `mutation($input: FinanceCartInput!) { financeCart(input: $input) { ${ORDER_FIELDS} } }`;
export const FINANCE_ORDER = `query($id: ID!) { financeOrder(id: $id) { ${ORDER_FIELDS} } }`;
export const CREATE_API_KEY = `mutation($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    secret
    apiKey { id kind displayPrefix label partner { id } paymentVendor { id } operatorId createdAt expiresAt revokedAt active }
  }
}`;
export const API_KEYS = `query($partnerId: ID) {
  apiKeys(partnerId: $partnerId) { id kind displayPrefix label partner { id name } createdAt expiresAt revokedAt active }
}`;
export const RECORD_PAYMENT = `mutation($input: RecordInStorePaymentInput!) {
  recordInStorePayment(input: $input) {
    time deviceTag remainingBalance currency nextPayment fullyPaid replayed
    payment { id amount currency channel time merchant { id } salesClerk { id } financeOrder { id } }
  }
}`;
export const TRANSACTIONS = `query($start: Timestamp!, $end: Timestamp!, $partnerId: ID, $filter: [String!]) {
  transactions(start: $start, end: $end, partnerId: $partnerId, filter: $filter) {
    nodes {
      __typename id type time amount currency merchant { id }
      ... on FinanceTransaction { financeOrder { id } salesClerk { id } device { tag } }
      ... on CashTransaction { payment { id amount } financeOrder { id } salesClerk { id } }
      ... on CommissionTransaction { payment { id amount } financeOrder { id } }
      ... on AdjustmentTransaction { adjustment { id kind amount currency notes financeOrder { id } merchant { id } } }
    }
  }
}`;
export const CREATE_ADJUSTMENT = `mutation($input: CreateAdjustmentInput!) {
  createAdjustment(input: $input) { id kind amount currency notes time merchant { id } financeOrder { id } }
}`;
export const VIEWER = '{ viewer { kind keyKind partner { id name } } }';

/** The rule of decisions.md 5, on whole cents: 30 days + floor(totalPaid * 30 / monthlyCost) days. */
export const paidThroughDays = (totalPaidCents: number, monthlyCents: number) =>
  30 + Math.floor((totalPaidCents * 30) / monthlyCents);
export const cents = (decimal: string) => Math.round(Number(decimal) * 100);
