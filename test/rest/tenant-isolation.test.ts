// Tenant isolation, proven by a walk: with partner A's keys (partner and retail key), every REST
// endpoint of the partner interface and every GraphQL root field and mutation a partner key can call
// is asked for partner B's records (merchant, clerk, customer by phone, IMEI, tag and id, order, cart,
// partner id, transactions, payments, adjustments), and the nested paths reachable from A's own objects
// are walked to the end. Every answer must be 404 / null / empty / FORBIDDEN, byte for byte the answer
// to an id that does not exist at all (so nothing can be probed), and no response text may contain
// any of B's identifying values (taken from the database, not a hand-kept list): ids, names, phone
// numbers, tags, IMEIs, emails, cart tags, notes, currency. Then the same the other way round.
//
// The root Query and Mutation fields are read from the schema: a field the walk does not cover fails
// the suite, so a new field cannot be added without being checked here. Vendor notifications
// legitimately reach any partner's device and are not part of the walk.
import {
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLObjectType,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  Kind,
  parse,
  print,
  visit,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { buildSchema } from '../../src/pipeline/schema.js';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const db = () => fixture.database.db;
const DAY = 86_400;
const nowSeconds = Math.floor(NOW.getTime() / 1000);
const WINDOW = { start: nowSeconds - 365 * DAY, end: nowSeconds + DAY };

// ---------------------------------------------------------------------------------------------------
// The two tenants, and what identifies each.

interface Tenant {
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

interface Known {
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
  /** Every customer's phone number and every device's tag: the tenant's own lookups. */
  locators: string[];
  /** Identifying text values (4 characters or more), found anywhere in a response. */
  texts: string[];
  /** Record ids by table, found as the id of an object of that type. */
  ids: Record<string, Set<string>>;
}

const DEMO: Tenant = {
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
const OTHER: Tenant = {
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
const GHOST = {
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
};
type Values = Partial<Record<keyof typeof GHOST, string>>;

/** The columns that identify a tenant's records. */
const IDENTIFYING_COLUMNS: Record<string, string[]> = {
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
};

async function valuesOf(partnerId: string): Promise<{ texts: Set<string>; ids: Record<string, Set<string>> }> {
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
// Asking, and checking an answer.

interface Answer {
  status: number;
  text: string;
  json: any;
  /** Everything the request said: a value it sent may come back (an echo is not a leak). */
  request: string;
}

async function rest(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fixture.service.request(path, { headers });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text), request: `${path} ${JSON.stringify(headers)}` };
}

/** Adds __typename to every selection set, so each object of an answer says what record it is. */
function withTypenames(query: string): string {
  return print(
    visit(parse(query), {
      SelectionSet: {
        leave(node, _key, parent) {
          if (parent && !Array.isArray(parent) && (parent as { kind?: string }).kind === Kind.OPERATION_DEFINITION)
            return undefined;
          if (
            node.selections.some((selection) => selection.kind === Kind.FIELD && selection.name.value === '__typename')
          )
            return undefined;
          return {
            ...node,
            selections: [...node.selections, { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } }],
          };
        },
      },
    }),
  );
}

async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const document = withTypenames(query);
  const response = await fixture.service.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ query: document, variables }),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text), request: `${document} ${JSON.stringify(variables)}` };
}

const TYPE_TABLES: Record<string, string> = {
  Partner: 'partners',
  Merchant: 'merchants',
  Clerk: 'clerks',
  Customer: 'customers',
  Device: 'devices',
  Cart: 'carts',
  FinanceOrder: 'finance_orders',
  Payment: 'payments',
  Adjustment: 'adjustments',
  ApiKey: 'api_keys',
  FinanceTransaction: 'transactions',
  CashTransaction: 'transactions',
  CommissionTransaction: 'transactions',
  AdjustmentTransaction: 'transactions',
  WebhookEndpoint: 'webhook_endpoints',
  WebhookDelivery: 'webhook_deliveries',
  Event: 'events',
  DeviceCommand: 'device_commands',
};
// The legacy bodies carry no __typename: the key an object sits under says what it is.
const LEGACY_KEY_TABLES: Record<string, string> = {
  clerks: 'clerks',
  salesClerk: 'clerks',
  merchants: 'merchants',
  merchant: 'merchants',
  customer: 'customers',
  financeOrder: 'finance_orders',
  payment: 'payments',
  adjustment: 'adjustments',
  cart: 'carts',
};

/** The victim's records an answer holds, as "table:id". */
function recordsIn(json: unknown, victim: Tenant, under = ''): string[] {
  if (Array.isArray(json)) return json.flatMap((item) => recordsIn(item, victim, under));
  if (!json || typeof json !== 'object') return [];
  const node = json as Record<string, unknown>;
  const table = typeof node.__typename === 'string' ? TYPE_TABLES[node.__typename] : LEGACY_KEY_TABLES[under];
  const found =
    table && node.id != null && victim.known.ids[table]?.has(String(node.id)) ? [`${table}:${String(node.id)}`] : [];
  return [...found, ...Object.entries(node).flatMap(([key, value]) => recordsIn(value, victim, key))];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mentions = (text: string, value: string) =>
  new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(value)}(?![A-Za-z0-9])`).test(text);

/** No record of the victim's, and none of its identifying values the request did not itself send. */
function expectNothingOf(victim: Tenant, answer: Answer, what: string): void {
  const texts = victim.known.texts.filter((value) => !answer.request.includes(value) && mentions(answer.text, value));
  expect({ what, records: recordsIn(answer.json, victim), texts }).toEqual({ what, records: [], texts: [] });
}

/** Everything a tenant-scoped read or write could leave behind. */
const WRITTEN_TABLES = [
  'partners',
  'merchants',
  'clerks',
  'customers',
  'device_families',
  'device_models',
  'devices',
  'device_directory',
  'device_credentials',
  'carts',
  'finance_orders',
  'payments',
  'transactions',
  'adjustments',
  'api_keys',
  'payment_vendors',
  'idempotency_keys',
  'vendor_notifications',
  'payment_references',
  'device_commands',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
];
async function snapshot(): Promise<Record<string, unknown>> {
  const counts: Record<string, unknown> = {};
  for (const table of WRITTEN_TABLES) counts[table] = Number((await db()(table).count({ n: '*' }).first())?.n);
  counts.totals = (await db()('finance_orders').select('id', 'total_paid_minor').orderBy('id')).map(
    (row) => `${row.id}:${row.total_paid_minor}`,
  );
  counts.endpoints = (await db()('webhook_endpoints').select('id', 'enabled', 'secret').orderBy('id')).map(
    (row) => `${row.id}:${row.enabled}:${row.secret}`,
  );
  counts.references = (await db()('payment_references').select('code', 'status').orderBy('id')).map(
    (row) => `${row.code}:${row.status}`,
  );
  counts.revoked = (await db()('api_keys').whereNotNull('revoked_at').select('id').orderBy('id')).map((row) =>
    String(row.id),
  );
  return counts;
}

/**
 * The answer with each value replaced by its name wherever a string of it holds the value standing
 * alone (an echo in a message); numbers, such as an error's line and column, are left as they are.
 */
function normalise(json: unknown, values: Values): string {
  const replace = (text: string) =>
    Object.entries(values)
      .sort(([, a], [, b]) => b!.length - a!.length)
      .reduce(
        (result, [name, value]) =>
          result.replace(new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(value!)}(?![A-Za-z0-9])`, 'g'), `<${name}>`),
        text,
      );
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return replace(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object')
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
    return node;
  };
  return JSON.stringify(walk(json));
}

/**
 * Asks with the victim's values and with ghost values of the same shape: the two answers must be the
 * same once each value is replaced by its name, and neither may have written anything.
 */
async function asGhost(
  victim: Tenant,
  values: Values,
  ask: (values: Values) => Promise<Answer>,
  what: string,
): Promise<Answer> {
  const ghostValues = Object.fromEntries(
    Object.keys(values).map((name) => [name, GHOST[name as keyof typeof GHOST]]),
  ) as Values;
  const before = await snapshot();
  const real = await ask(values);
  const ghost = await ask(ghostValues);
  expect(await snapshot(), `${what} wrote nothing`).toEqual(before);
  expect({ what, status: real.status, body: normalise(real.json, values) }).toEqual({
    what,
    status: ghost.status,
    body: normalise(ghost.json, ghostValues),
  });
  expectNothingOf(victim, real, what);
  return real;
}

const errorCode = (answer: Answer) => answer.json.errors?.[0]?.extensions?.code;

// ---------------------------------------------------------------------------------------------------
// GraphQL selections generated from the schema: from a type, every field, and every object field
// followed as deep as it goes without meeting a type already on the path. A new field in the schema
// is walked without anyone writing it here.

const schema = buildSchema();

type Composite = GraphQLObjectType | GraphQLInterfaceType;
interface Selection {
  scalars: string[];
  fields: Array<{ text: string; list: boolean; selection: Selection }>;
  fragments: Array<{ on: string; selection: Selection }>;
}

/** At most this many list fields nested along one path (each multiplies the estimated cost by 10). */
const MAX_NESTED_LISTS = 2;
/**
 * At most this many object types along one path: the service's depth limit (12 selection sets) less the
 * two levels of the deepest root (`transactions { nodes`). A connection takes two levels (edges or nodes,
 * then the node), so a walk through one stops sooner than through a plain list.
 */
const MAX_WALK_PATH = 10;
/**
 * A walk's query stays under this estimate, which counts every field and a list as 10 items: above the
 * service's own count of objects (a list at its first of 10; the unsliced ones, such as an order's
 * schedule of up to 120 instalments, at most 12 times that), so 48,000 stays under its limit of 50,000.
 */
const COST_BUDGET = 4000;
/** Nested fields the walk could not ask for (a required argument it cannot invent): must stay empty. */
const unwalkable = new Set<string>();
/**
 * Fields the walk leaves out on purpose, each with why no tenant's data can pass through it:
 * daysBoughtBy computes on the order already answered, and refuses every amount on a paid-off order.
 */
const NOT_WALKED: Readonly<Record<string, string>> = {
  'Repayment.daysBoughtBy': "a figure of the order's own terms (test/timeline/repayment.test.ts)",
};

/**
 * A field's arguments: personal data is asked for with reveal: true; a list a page of 10 (first), as
 * the cost estimate below counts it; null when one is required and unknown.
 */
function argumentsOf(field: GraphQLField<unknown, unknown>): string | null {
  const given: string[] = [];
  for (const argument of field.args) {
    if (argument.name === 'reveal') given.push('reveal: true');
    else if (argument.name === 'first') given.push('first: 10');
    else if (isNonNullType(argument.type) && argument.defaultValue === undefined) return null;
  }
  return given.length ? `(${given.join(', ')})` : '';
}

function selectionOf(type: Composite, path: string[], lists: number, deep: boolean): Selection {
  const selection: Selection = { scalars: [], fields: [], fragments: [] };
  const add = (into: Selection, owner: Composite, field: GraphQLField<unknown, unknown>) => {
    if (`${owner.name}.${field.name}` in NOT_WALKED) return;
    const args = argumentsOf(field);
    if (args === null) return void unwalkable.add(`${owner.name}.${field.name}`);
    const target = getNamedType(field.type);
    if (isLeafType(target)) return void into.scalars.push(`${field.name}${args}`);
    const list = isListType(getNullableType(field.type));
    if (!deep || path.includes(target.name) || lists + (list ? 1 : 0) > MAX_NESTED_LISTS) return;
    if (path.length >= MAX_WALK_PATH) return;
    const next = selectionOf(target as Composite, [...path, target.name], lists + (list ? 1 : 0), true);
    into.fields.push({ text: `${field.name}${args}`, list, selection: next });
  };
  for (const field of Object.values(type.getFields())) add(selection, type, field);
  if (isInterfaceType(type)) {
    for (const implementation of schema.getPossibleTypes(type)) {
      const own: Selection = { scalars: [], fields: [], fragments: [] };
      for (const field of Object.values(implementation.getFields()))
        if (!(field.name in type.getFields())) add(own, implementation, field);
      selection.fragments.push({ on: implementation.name, selection: own });
    }
  }
  return selection;
}

/** The walk's own cost estimate: 1 a field, a list's selection counted 10 times. */
const costOf = (selection: Selection): number =>
  selection.scalars.length +
  selection.fields.reduce((sum, field) => sum + 1 + (field.list ? 10 : 1) * costOf(field.selection), 0) +
  selection.fragments.reduce((sum, fragment) => sum + costOf(fragment.selection), 0);

/** Splits a selection into pieces that each fit `budget`: every piece keeps the scalars, with one branch. */
function split(selection: Selection, budget: number): Selection[] {
  if (costOf(selection) <= budget) return [selection];
  const base: Selection = { scalars: selection.scalars, fields: [], fragments: [] };
  const room = budget - selection.scalars.length - 1;
  return [
    base,
    ...selection.fields.flatMap((field) =>
      split(field.selection, room / (field.list ? 10 : 1)).map((part) => ({
        ...base,
        fields: [{ ...field, selection: part }],
      })),
    ),
    ...selection.fragments.flatMap((fragment) =>
      split(fragment.selection, room).map((part) => ({ ...base, fragments: [{ ...fragment, selection: part }] })),
    ),
  ];
}

const printSelection = (selection: Selection): string =>
  `{ __typename ${selection.scalars.join(' ')} ${selection.fields.map((field) => `${field.text} ${printSelection(field.selection)}`).join(' ')} ${selection.fragments
    .map((fragment) => `... on ${fragment.on} ${printSelection(fragment.selection)}`)
    .join(' ')} }`;

const typeNamed = (name: string) => schema.getType(name) as Composite;

/** Every scalar field of a type (a probe whose answer must be null needs no depth). */
const scalarsOf = (typeName: string) => printSelection(selectionOf(typeNamed(typeName), [typeName], 0, false));

/**
 * The queries that walk everything reachable from `root` (e.g. "customer(locator: $l)"), each within
 * the cost budget; `rootIsList` when the root field returns a list.
 */
function walkQueries(header: string, root: string, typeName: string, rootIsList: boolean): string[] {
  const selection = selectionOf(typeNamed(typeName), [typeName], rootIsList ? 1 : 0, true);
  return split(selection, (COST_BUDGET - 1) / (rootIsList ? 10 : 1)).map(
    (piece) => `${header} { ${root} ${printSelection(piece)} }`,
  );
}

const QUERY_FIELDS = Object.keys(schema.getQueryType()!.getFields()).sort();
const MUTATION_FIELDS = Object.keys(schema.getMutationType()!.getFields()).sort();

/** Every root field, with how the walk reaches it; walk() registers probes for each. */
const QUERY_COVERAGE: Record<string, string> = {
  partner: "B's partner id: null; A's own partner walked to its merchants and clerks",
  partners: 'operators only: FORBIDDEN',
  merchant: "B's merchant id: null",
  merchants: "A's own only",
  clerk: "B's clerk id: null",
  clerks: "A's own only",
  customer: "B's phone, IMEI, device tag and customer id: null; A's own customers walked to the end",
  cart: "B's cart tag, with and without B's partnerId: null (retail key: FORBIDDEN); A's own cart walked",
  financeOrder: "B's order id: null; A's own orders walked",
  financeOrders:
    "B's partnerId or B's store: empty; every status and window: A's own only; a cursor from B's listing: A's rows only",
  customers:
    "B's partnerId or B's store: empty; every status and window: A's own only; a cursor from B's listing: A's rows only",
  transactions:
    "B's partnerId: empty; filters naming B's records: empty; a cursor from B's ledger: A's rows only; A's own walked",
  viewer: "A's own partner only, walked",
  deviceFamilies: "the global catalogue: holds nothing of B's",
  paymentVendors: 'operators only: FORBIDDEN',
  apiKeys: "operators only: FORBIDDEN, also with B's partnerId",
  auditEvents: "operators only: FORBIDDEN, also with B's partnerId",
  webhookEndpoints: "B's partnerId: empty; A's own list holds nothing of B's; retail keys: FORBIDDEN",
  events: "B's partnerId: empty; a cursor from B's log: A's events only; A's own walked; retail key: FORBIDDEN",
  event: "B's event id: null; retail key: FORBIDDEN",
  deviceRepayment: "vendor tokens only: a partner or retail key naming B's device tag is FORBIDDEN",
  paymentReference: "B's code: null; A's own references walked with A's orders",
  devices:
    "B's partnerId: empty; every silence: A's own only; a cursor from B's listing: A's rows only; retail key: FORBIDDEN",
  device: "B's device id or tag: null (partner and retail keys)",
};
const MUTATION_COVERAGE: Record<string, string> = {
  recordInStorePayment:
    "retail key with B's merchant, clerk or order: RESOURCE_NOT_FOUND, nothing written; partner key: FORBIDDEN",
  createAccessToken: "with B's partner key: refused, nothing of B's in the answer",
  createPaymentNotification: "vendor tokens only: a partner key naming B's device is refused, nothing written",
  createPartner: 'operators only',
  updatePartnerSettings: 'operators only',
  setSandboxClock: 'operators only',
  resetSandboxClock: 'operators only',
  createMerchant: 'operators only',
  createClerk: 'operators only',
  createCustomer: 'operators only',
  createDeviceFamily: 'operators only',
  createDeviceModel: 'operators only',
  createDevice: 'operators only',
  createCart: 'operators only',
  financeCart: 'operators only',
  createAdjustment: 'operators only',
  createPaymentVendor: 'operators only',
  updatePaymentVendor: 'operators only',
  createApiKey: 'operators only',
  revokeApiKey: "operators only (B's key id)",
  createWebhookEndpoint: "partner key naming B's partnerId: RESOURCE_NOT_FOUND, nothing written; retail: FORBIDDEN",
  updateWebhookEndpoint: "B's endpoint id: RESOURCE_NOT_FOUND, nothing written; retail: FORBIDDEN",
  rotateWebhookSecret: "B's endpoint id: RESOURCE_NOT_FOUND, nothing written; retail: FORBIDDEN",
  deleteWebhookEndpoint: "B's endpoint id: RESOURCE_NOT_FOUND, nothing written; retail: FORBIDDEN",
  sendTestWebhook: "B's endpoint id: RESOURCE_NOT_FOUND, nothing queued; retail: FORBIDDEN",
  redeliverEvent: "B's event or B's endpoint: RESOURCE_NOT_FOUND, nothing written; retail: FORBIDDEN",
  createPaymentReference: "B's order: RESOURCE_NOT_FOUND, nothing written (partner and retail keys)",
  cancelPaymentReference: "B's code: PAYMENT_REFERENCE_NOT_FOUND, nothing written (partner and retail keys)",
  sendDeviceCommand: "B's device id: RESOURCE_NOT_FOUND, nothing written; retail: FORBIDDEN",
  issueDeviceCredential: "B's device id: RESOURCE_NOT_FOUND, nothing written (partner and retail keys)",
  revokeDeviceCredential: "B's device id: RESOURCE_NOT_FOUND, nothing written (partner and retail keys)",
};

describe('the walk covers the whole graph', () => {
  it('every root Query field of the schema is covered by the walk', () => {
    expect(QUERY_FIELDS.filter((field) => !(field in QUERY_COVERAGE))).toEqual([]);
  });
  it('every root Mutation field of the schema is covered by the walk', () => {
    expect(MUTATION_FIELDS.filter((field) => !(field in MUTATION_COVERAGE))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Data for both tenants: payments in store (with one idempotency key both use), through vendors, and
// adjustments, so each has records of every kind to be probed for.

const SHARED_IDEMPOTENCY_KEY = 'pos-receipt-shared-1';
const sharedKeyAnswers: Record<string, Answer> = {};

beforeAll(async () => {
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
        await fixture.service.request('/payments/v1/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey: vendorKey }),
        })
      ).json()) as any
    ).data.access_token;
    const notified = await fixture.service.request('/payments/v1/notification', {
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
});

it('an idempotency key belongs to its partner: the same key used by another partner records a new payment, not a replay of the first', () => {
  const other = sharedKeyAnswers[OTHER.name]!;
  const demo = sharedKeyAnswers[DEMO.name]!;
  expect([other.status, demo.status], demo.text).toEqual([200, 200]);
  expect(demo.json.payment.remainingBalance).toBe(196);
  expect(demo.json.payment.id).not.toBe(other.json.payment.id);
  expect(demo.json.payment.currency).toBe('USD');
  expectNothingOf(OTHER, demo, "Demo Retail's payment with Other Retail's idempotency key");
});

// ---------------------------------------------------------------------------------------------------

function walk(selfOf: () => Tenant, victimOf: () => Tenant, title: string): void {
  describe(title, () => {
    const self = () => selfOf();
    const victim = () => victimOf();
    const v = () => victim().known;

    describe("the partner interface (REST), with both of A's keys", () => {
      it("list-clerks and list-merchants: A's own only", async () => {
        for (const key of [self().partnerKey, self().retailKey]) {
          const clerks = await rest(`/v1/list-clerks.php?key=${key}`);
          const merchants = await rest(`/v1/list-merchants.php?key=${key}`);
          expect(clerks.json.clerks.map((clerk: { id: string }) => clerk.id).sort()).toEqual(
            [...self().known.ids.clerks!].sort(),
          );
          expect(merchants.json.merchants.map((merchant: { id: string }) => merchant.id).sort()).toEqual(
            [...self().known.ids.merchants!].sort(),
          );
          expectNothingOf(victim(), clerks, 'list-clerks');
          expectNothingOf(victim(), merchants, 'list-merchants');
        }
      });

      it("lookup-customer with B's phone, IMEI, device tag and customer id: 404, as for a customer that does not exist", async () => {
        for (const key of [self().partnerKey, self().retailKey]) {
          for (const locator of ['phone', 'imei', 'deviceTag', 'customerId'] as const) {
            for (const fields of ['', '&fields=device.description']) {
              const answer = await asGhost(
                victim(),
                { [locator]: victim()[locator] },
                (values) => rest(`/v1/lookup-customer.php?key=${key}&customerLocator=${values[locator]}${fields}`),
                `lookup-customer by ${locator}`,
              );
              expect(answer.status).toBe(404);
            }
          }
        }
      });

      it("lookup-cart with B's cart tag: 404 (retail key: 403), as for a cart that does not exist", async () => {
        const asPartner = await asGhost(
          victim(),
          { cartTag: victim().cartTag },
          (values) =>
            rest(
              `/v1/lookup-cart.php?key=${self().partnerKey}&cartTag=${values.cartTag}&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description`,
            ),
          'lookup-cart',
        );
        expect(asPartner.status).toBe(404);
        const asRetail = await asGhost(
          victim(),
          { cartTag: victim().cartTag },
          (values) => rest(`/v1/lookup-cart.php?key=${self().retailKey}&cartTag=${values.cartTag}`),
          'lookup-cart, retail key',
        );
        expect(asRetail.status).toBe(403);
      });

      it("list-transactions: A's own window holds none of B's; every filter naming B's records is empty", async () => {
        const window = `starttime=${WINDOW.start}&endtime=${WINDOW.end}`;
        const own = await rest(`/v1/list-transactions.php?key=${self().partnerKey}&${window}`);
        expect(own.status).toBe(200);
        expect(own.json.transactions.length).toBeGreaterThan(0);
        expectNothingOf(victim(), own, 'list-transactions');
        const filters: Array<[string, keyof typeof GHOST, string | null]> = [
          ['merchant.id', 'merchantId', victim().merchantId],
          ['merchant.name', 'merchantName', v().merchantName],
          ['salesClerk.id', 'clerkId', victim().clerkId],
          ['salesClerk.name', 'clerkName', v().clerkName],
          ['financeOrder.id', 'orderId', victim().orderId],
          ['payment.id', 'paymentId', v().paymentIds[0]!],
          ['adjustment.id', 'adjustmentId', v().adjustmentId],
          ['adjustment.notes', 'adjustmentNotes', v().adjustmentNotes],
          ['device.imei', 'imei', victim().imei],
          ['device.simNumber', 'deviceSim', v().deviceSim],
          ['device.phoneNumber', 'devicePhone', v().devicePhone],
        ];
        for (const [path, name, value] of filters) {
          if (value === null) continue;
          const answer = await asGhost(
            victim(),
            { [name]: value },
            (values) =>
              rest(
                `/v1/list-transactions.php?key=${self().partnerKey}&${window}&filter=${encodeURIComponent(`${path}:${values[name]}`)}`,
              ),
            `filter ${path}`,
          );
          expect(answer.json).toEqual({ valid: true, transactions: [] });
        }
        const asRetail = await asGhost(
          victim(),
          { orderId: victim().orderId },
          (values) =>
            rest(
              `/v1/list-transactions.php?key=${self().retailKey}&${window}&filter=financeOrder.id:${values.orderId}`,
            ),
          'list-transactions, retail key',
        );
        expect(asRetail.status).toBe(403);
      });

      it("record-customer-payment with B's merchant, clerk or order: 404 and nothing written (partner key: 403)", async () => {
        const own = self();
        const them = victim();
        const combos: Array<{
          values: Values;
          merchant: string | null;
          clerk: string | null;
          order: string | null;
          currency: string;
        }> = [
          {
            values: { merchantId: them.merchantId },
            merchant: null,
            clerk: own.clerkId,
            order: own.orderId,
            currency: own.currency,
          },
          {
            values: { clerkId: them.clerkId },
            merchant: own.merchantId,
            clerk: null,
            order: own.orderId,
            currency: own.currency,
          },
          {
            values: { orderId: them.orderId },
            merchant: own.merchantId,
            clerk: own.clerkId,
            order: null,
            currency: own.currency,
          },
          {
            values: { orderId: them.orderId },
            merchant: own.merchantId,
            clerk: own.clerkId,
            order: null,
            currency: them.currency,
          },
          {
            values: { merchantId: them.merchantId, clerkId: them.clerkId, orderId: them.orderId },
            merchant: null,
            clerk: null,
            order: null,
            currency: them.currency,
          },
        ];
        for (const combo of combos) {
          for (const [key, status] of [
            [own.retailKey, 404],
            [own.partnerKey, 403],
          ] as const) {
            const answer = await asGhost(
              them,
              combo.values,
              (values) =>
                rest(
                  `/v1/record-customer-payment.php?key=${key}&merchantId=${combo.merchant ?? values.merchantId}&salesClerkId=${combo.clerk ?? values.clerkId}` +
                    `&financeOrderId=${combo.order ?? values.orderId}&amount=1.00&currency=${combo.currency}`,
                  { 'idempotency-key': `iso-${Object.keys(combo.values).join('-')}` },
                ),
              `record-customer-payment ${JSON.stringify(combo.values)}`,
            );
            expect(answer.status).toBe(status);
          }
        }
      });

      it("A's own lookups, walked: customers by every locator, its cart", async () => {
        for (const locator of self().known.locators) {
          const answer = await rest(
            `/v1/lookup-customer.php?key=${self().partnerKey}&customerLocator=${locator}&fields=device.description`,
          );
          expect(answer.status).toBe(200);
          expectNothingOf(victim(), answer, `own lookup-customer ${locator}`);
        }
        const cart = await rest(
          `/v1/lookup-cart.php?key=${self().partnerKey}&cartTag=${self().cartTag}&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description`,
        );
        expect(cart.status).toBe(200);
        expectNothingOf(victim(), cart, 'own lookup-cart');
      });
    });

    describe("GraphQL root fields, with both of A's keys", () => {
      const keys = () => [self().partnerKey, self().retailKey];

      it("partner(id: B's partner id) is null; partners is FORBIDDEN", async () => {
        for (const key of keys()) {
          const answer = await asGhost(
            victim(),
            { partnerId: v().partnerId },
            (values) =>
              gql(key, `query($id: ID!) { partner(id: $id) ${scalarsOf('Partner')} }`, { id: values.partnerId }),
            'partner',
          );
          expect(answer.json).toEqual({ data: { partner: null } });
          const all = await gql(key, `{ partners ${scalarsOf('Partner')} }`);
          expect(errorCode(all)).toBe('FORBIDDEN');
          expectNothingOf(victim(), all, 'partners');
        }
      });

      it("merchant(id), clerk(id) and financeOrder(id) with B's ids are null", async () => {
        for (const key of keys()) {
          for (const [field, name, type] of [
            ['merchant', 'merchantId', 'Merchant'],
            ['clerk', 'clerkId', 'Clerk'],
            ['financeOrder', 'orderId', 'FinanceOrder'],
          ] as const) {
            const answer = await asGhost(
              victim(),
              { [name]: victim()[name] },
              (values) => gql(key, `query($id: ID!) { ${field}(id: $id) ${scalarsOf(type)} }`, { id: values[name] }),
              field,
            );
            expect(answer.json).toEqual({ data: { [field]: null } });
          }
        }
      });

      it("paymentReference(code) with B's code is null; cancelling it or making one on B's order is not found, writing nothing", async () => {
        for (const key of keys()) {
          const read = await asGhost(
            victim(),
            { referenceCode: v().referenceCode },
            (values) =>
              gql(key, `query($c: String!) { paymentReference(code: $c) ${scalarsOf('PaymentReference')} }`, {
                c: values.referenceCode,
              }),
            'paymentReference(code)',
          );
          expect(read.json).toEqual({ data: { paymentReference: null } });
          const cancelled = await asGhost(
            victim(),
            { referenceCode: v().referenceCode },
            (values) =>
              gql(key, 'mutation($c: String!) { cancelPaymentReference(code: $c) { code status } }', {
                c: values.referenceCode,
              }),
            'cancelPaymentReference',
          );
          expect(errorCode(cancelled)).toBe('PAYMENT_REFERENCE_NOT_FOUND');
          const created = await asGhost(
            victim(),
            { orderId: victim().orderId },
            (values) =>
              gql(
                key,
                'mutation($o: ID!) { createPaymentReference(input: { financeOrderId: $o, amount: "1.00" }) { code } }',
                { o: values.orderId },
              ),
            'createPaymentReference',
          );
          expect(errorCode(created)).toBe('RESOURCE_NOT_FOUND');
        }
      });

      it("device(id) and device(tag) with B's device are null; issuing B's device a credential is not found, writing nothing", async () => {
        const victimDevice = await db()('devices').where({ tag: victim().deviceTag }).first('id');
        const deviceId = String(victimDevice!.id);
        for (const key of keys()) {
          const byId = await asGhost(
            victim(),
            { deviceId },
            (values) => gql(key, `query($id: ID!) { device(id: $id) ${scalarsOf('Device')} }`, { id: values.deviceId }),
            'device(id)',
          );
          expect(byId.json).toEqual({ data: { device: null } });
          const byTag = await asGhost(
            victim(),
            { deviceTag: victim().deviceTag },
            (values) =>
              gql(key, `query($t: String!) { device(tag: $t) ${scalarsOf('Device')} }`, { t: values.deviceTag }),
            'device(tag)',
          );
          expect(byTag.json).toEqual({ data: { device: null } });
          const issued = await asGhost(
            victim(),
            { deviceId },
            (values) =>
              gql(key, 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }', {
                id: values.deviceId,
              }),
            'issueDeviceCredential',
          );
          expect(errorCode(issued)).toBe('RESOURCE_NOT_FOUND');
          const revoked = await asGhost(
            victim(),
            { deviceId },
            (values) =>
              gql(key, 'mutation($id: ID!) { revokeDeviceCredential(deviceId: $id) { revoked } }', {
                id: values.deviceId,
              }),
            'revokeDeviceCredential',
          );
          expect(errorCode(revoked)).toBe('RESOURCE_NOT_FOUND');
        }
      });

      it("merchants and clerks are A's own only", async () => {
        for (const key of keys()) {
          const answer = await gql(key, `{ merchants ${scalarsOf('Merchant')} clerks ${scalarsOf('Clerk')} }`);
          expect(answer.json.data.merchants.map((merchant: { id: string }) => merchant.id).sort()).toEqual(
            [...self().known.ids.merchants!].sort(),
          );
          expect(answer.json.data.clerks.map((clerk: { id: string }) => clerk.id).sort()).toEqual(
            [...self().known.ids.clerks!].sort(),
          );
          expectNothingOf(victim(), answer, 'merchants and clerks');
        }
      });

      it("customer(locator) with B's phone, IMEI, device tag and customer id is null", async () => {
        for (const key of keys()) {
          for (const locator of ['phone', 'imei', 'deviceTag', 'customerId'] as const) {
            const answer = await asGhost(
              victim(),
              { [locator]: victim()[locator] },
              (values) =>
                gql(key, `query($l: String!) { customer(locator: $l) ${scalarsOf('Customer')} }`, {
                  l: values[locator],
                }),
              `customer by ${locator}`,
            );
            expect(answer.json).toEqual({ data: { customer: null } });
          }
        }
      });

      it("cart(cartTag) with B's tag, B's partnerId, or both is null; retail keys are FORBIDDEN", async () => {
        const cases: Array<[Values, (values: Values) => Record<string, unknown>]> = [
          [{ cartTag: victim().cartTag }, (values) => ({ tag: values.cartTag })],
          [
            { cartTag: victim().cartTag, partnerId: v().partnerId },
            (values) => ({ tag: values.cartTag, partnerId: values.partnerId }),
          ],
          [{ partnerId: v().partnerId }, (values) => ({ tag: self().cartTag, partnerId: values.partnerId })],
        ];
        const query = `query($tag: String!, $partnerId: ID) { cart(cartTag: $tag, partnerId: $partnerId) ${scalarsOf('Cart')} }`;
        for (const [values, variables] of cases) {
          const asPartner = await asGhost(
            victim(),
            values,
            (given) => gql(self().partnerKey, query, variables(given)),
            'cart',
          );
          expect(asPartner.json).toEqual({ data: { cart: null } });
          const asRetail = await asGhost(
            victim(),
            values,
            (given) => gql(self().retailKey, query, variables(given)),
            'cart, retail key',
          );
          expect(errorCode(asRetail)).toBe('FORBIDDEN');
        }
      });

      it("transactions: B's partnerId and every filter naming B's records give nothing; a cursor from B's ledger gives A's rows only", async () => {
        const query = `query($start: Timestamp!, $end: Timestamp!, $filter: [String!], $partnerId: ID, $after: String) {
          transactions(start: $start, end: $end, filter: $filter, partnerId: $partnerId, after: $after) {
            edges { cursor node { id } } nodes ${scalarsOf('Transaction')} pageInfo { hasNextPage endCursor }
          }
        }`;
        const empty = {
          data: {
            transactions: {
              __typename: 'TransactionConnection',
              edges: [],
              nodes: [],
              pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: null },
            },
          },
        };
        const byPartner = await asGhost(
          victim(),
          { partnerId: v().partnerId },
          (values) => gql(self().partnerKey, query, { ...WINDOW, partnerId: values.partnerId }),
          'transactions(partnerId)',
        );
        expect(byPartner.json).toEqual(empty);
        const filters: Array<[string, keyof typeof GHOST, string | null]> = [
          ['merchant.id', 'merchantId', victim().merchantId],
          ['merchant.name', 'merchantName', v().merchantName],
          ['salesClerk.id', 'clerkId', victim().clerkId],
          ['salesClerk.name', 'clerkName', v().clerkName],
          ['financeOrder.id', 'orderId', victim().orderId],
          ['payment.id', 'paymentId', v().paymentIds.at(-1)!],
          ['adjustment.id', 'adjustmentId', v().adjustmentId],
          ['adjustment.notes', 'adjustmentNotes', v().adjustmentNotes],
          ['device.imei', 'imei', victim().imei],
          ['device.simNumber', 'deviceSim', v().deviceSim],
          ['device.phoneNumber', 'devicePhone', v().devicePhone],
        ];
        for (const [path, name, value] of filters) {
          if (value === null) continue;
          const answer = await asGhost(
            victim(),
            { [name]: value },
            (values) => gql(self().partnerKey, query, { ...WINDOW, filter: [`${path}:${values[name]}`] }),
            `transactions filter ${path}`,
          );
          expect(answer.json).toEqual(empty);
        }
        // A cursor taken from B's own ledger (as an operator reads it) moves through A's rows only.
        const theirs = await gql(
          'demo-operator-key',
          'query($p: ID, $start: Timestamp!, $end: Timestamp!) { transactions(start: $start, end: $end, partnerId: $p, first: 1) { edges { cursor } } }',
          { ...WINDOW, p: v().partnerId },
        );
        const cursor = theirs.json.data.transactions.edges[0].cursor as string;
        const after = await gql(self().partnerKey, query, { ...WINDOW, after: cursor });
        expect(after.json.errors).toBeUndefined();
        expectNothingOf(victim(), after, "transactions after B's cursor");
        const asRetail = await asGhost(
          victim(),
          { partnerId: v().partnerId },
          (values) => gql(self().retailKey, query, { ...WINDOW, partnerId: values.partnerId }),
          'transactions, retail key',
        );
        expect(errorCode(asRetail)).toBe('FORBIDDEN');
      });

      it("customers and financeOrders: B's partnerId and B's store give nothing; every status A's own only; a cursor from B's listing A's rows only", async () => {
        for (const [field, type] of [
          ['customers', 'Customer'],
          ['financeOrders', 'FinanceOrder'],
        ] as const) {
          const query = `query($partnerId: ID, $merchantId: ID, $status: FinanceOrderStatus, $createdAfter: Timestamp, $after: String) {
            ${field}(partnerId: $partnerId, merchantId: $merchantId, status: $status, createdAfter: $createdAfter, after: $after) {
              edges { cursor node { id } } nodes ${scalarsOf(type)} pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            }
          }`;
          const empty = {
            data: {
              [field]: {
                __typename: `${type}Connection`,
                edges: [],
                nodes: [],
                pageInfo: {
                  __typename: 'PageInfo',
                  hasNextPage: false,
                  hasPreviousPage: false,
                  startCursor: null,
                  endCursor: null,
                },
              },
            },
          };
          const table = field === 'customers' ? 'customers' : 'finance_orders';
          const own = (await db()(table).where({ partner_id: self().known.partnerId }).select('id')).map((row) =>
            String(row.id),
          );
          for (const key of keys()) {
            for (const [name, variable, value] of [
              ['partnerId', 'partnerId', v().partnerId],
              ['merchantId', 'merchantId', victim().merchantId],
            ] as const) {
              const answer = await asGhost(
                victim(),
                { [name]: value },
                (values) => gql(key, query, { [variable]: values[name] }),
                `${field}(${variable})`,
              );
              expect(answer.json).toEqual(empty);
            }
            for (const variables of [
              {},
              { status: 'ACTIVE' },
              { status: 'LOCKED' },
              { status: 'PAID_OFF' },
              { createdAfter: 0 },
            ]) {
              const answer = await gql(key, query, variables);
              expect(answer.json.errors).toBeUndefined();
              const ids = answer.json.data[field].nodes.map((node: { id: string }) => node.id);
              expect(ids.filter((id: string) => !own.includes(id))).toEqual([]);
              expectNothingOf(victim(), answer, `${field} ${JSON.stringify(variables)}`);
            }
            // A cursor taken from B's own listing (as an operator reads it) moves through A's rows only.
            const theirs = await gql('demo-operator-key', query, { partnerId: v().partnerId });
            const cursor = theirs.json.data[field].edges[0].cursor as string;
            const after = await gql(key, query, { after: cursor });
            expect(after.json.errors).toBeUndefined();
            expectNothingOf(victim(), after, `${field} after B's cursor`);
          }
        }
      });

      it("devices: B's partnerId gives nothing; every silence A's own only; a cursor from B's listing A's rows only", async () => {
        const query = `query($partnerId: ID, $filter: DeviceFilter, $after: String) {
          devices(partnerId: $partnerId, filter: $filter, after: $after) {
            edges { cursor node { id } } nodes ${scalarsOf('Device')} pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          }
        }`;
        const own = (await db()('devices').where({ partner_id: self().known.partnerId }).select('id')).map((row) =>
          String(row.id),
        );
        const byPartner = await asGhost(
          victim(),
          { partnerId: v().partnerId },
          (values) => gql(self().partnerKey, query, { partnerId: values.partnerId }),
          'devices(partnerId)',
        );
        expect(byPartner.json.errors).toBeUndefined();
        expect(byPartner.json.data.devices.nodes).toEqual([]);
        for (const filter of [null, { silentForDays: 1 }, { silentForDays: 3650 }]) {
          const answer = await gql(self().partnerKey, query, { filter });
          expect(answer.json.errors).toBeUndefined();
          const ids = answer.json.data.devices.nodes.map((node: { id: string }) => node.id);
          expect(ids.filter((id: string) => !own.includes(id))).toEqual([]);
          expectNothingOf(victim(), answer, `devices ${JSON.stringify(filter)}`);
        }
        const theirs = await gql('demo-operator-key', query, { partnerId: v().partnerId });
        const cursor = theirs.json.data.devices.edges[0].cursor as string;
        const after = await gql(self().partnerKey, query, { after: cursor });
        expect(after.json.errors).toBeUndefined();
        expectNothingOf(victim(), after, "devices after B's cursor");
        expect(errorCode(await gql(self().retailKey, query, {}))).toBe('FORBIDDEN');
      });

      it("events and event: B's partnerId and B's event ids give nothing, a cursor from B's log A's events only", async () => {
        const query = `query($partnerId: ID, $after: String, $first: Int) {
          events(partnerId: $partnerId, after: $after, first: $first) {
            nodes { ${scalarsOf('Event').slice(1, -1)} partner { id } } pageInfo { hasNextPage endCursor }
          }
        }`;
        const byPartner = await asGhost(
          victim(),
          { partnerId: v().partnerId },
          (values) => gql(self().partnerKey, query, { partnerId: values.partnerId }),
          'events(partnerId)',
        );
        expect(byPartner.json.data.events.nodes).toEqual([]);
        // A's own log, walked to its end: A's events only, and the payments A recorded are in it.
        const own = await gql(self().partnerKey, query, { first: 500 });
        expect(own.json.errors).toBeUndefined();
        const nodes = own.json.data.events.nodes as Array<{ partner: { id: string }; type: string }>;
        expect(nodes.length).toBeGreaterThan(0);
        expect(new Set(nodes.map((node) => node.partner.id))).toEqual(new Set([self().known.partnerId]));
        expectNothingOf(victim(), own, 'own events');
        const theirs = await db()('events').where({ partner_id: v().partnerId }).orderBy('sequence', 'desc');
        for (const event of theirs.slice(0, 3)) {
          const one = await asGhost(
            victim(),
            { eventId: event.id },
            (values) =>
              gql(self().partnerKey, `query($id: ID!) { event(id: $id) ${scalarsOf('Event')} }`, {
                id: values.eventId,
              }),
            'event(id)',
          );
          expect(one.json.data.event).toBeNull();
        }
        // A cursor from B's log (as an operator reads it) moves through A's events only.
        const operatorPage = await gql('demo-operator-key', query, { partnerId: v().partnerId, first: 1 });
        const cursor = operatorPage.json.data.events.pageInfo.endCursor as string;
        const after = await gql(self().partnerKey, query, { after: cursor });
        expect(after.json.errors).toBeUndefined();
        expectNothingOf(victim(), after, "events after B's cursor");
        for (const [field, ask] of [
          ['events', (values: Values) => gql(self().retailKey, query, { partnerId: values.partnerId })],
          [
            'event',
            (values: Values) =>
              gql(self().retailKey, `query($id: ID!) { event(id: $id) ${scalarsOf('Event')} }`, { id: values.eventId }),
          ],
        ] as const) {
          const asRetail = await asGhost(
            victim(),
            { partnerId: v().partnerId, eventId: theirs[0].id },
            ask,
            `${field}, retail key`,
          );
          expect(errorCode(asRetail)).toBe('FORBIDDEN');
        }
      });

      it('operator-only reads are FORBIDDEN, also when they name B: paymentVendors, apiKeys, auditEvents', async () => {
        for (const key of keys()) {
          const vendors = await gql(key, `{ paymentVendors ${scalarsOf('PaymentVendor')} }`);
          expect(errorCode(vendors)).toBe('FORBIDDEN');
          expectNothingOf(victim(), vendors, 'paymentVendors');
          const apiKeys = await asGhost(
            victim(),
            { partnerId: v().partnerId },
            (values) =>
              gql(key, `query($p: ID) { apiKeys(partnerId: $p) ${scalarsOf('ApiKey')} }`, { p: values.partnerId }),
            'apiKeys',
          );
          expect(errorCode(apiKeys)).toBe('FORBIDDEN');
          if (QUERY_FIELDS.includes('auditEvents')) {
            const audit = await asGhost(
              victim(),
              { partnerId: v().partnerId },
              (values) =>
                gql(key, `query($p: ID) { auditEvents(partnerId: $p) { nodes ${scalarsOf('AuditEvent')} } }`, {
                  p: values.partnerId,
                }),
              'auditEvents',
            );
            expect(errorCode(audit)).toBe('FORBIDDEN');
          }
        }
      });

      it("a vendor's read is FORBIDDEN to partner and retail keys, also naming B's device: deviceRepayment", async () => {
        for (const key of keys()) {
          const repayment = await asGhost(
            victim(),
            { deviceTag: victim().deviceTag },
            (values) =>
              gql(key, 'query($t: String!) { deviceRepayment(deviceTag: $t) { financeOrderId currency } }', {
                t: values.deviceTag,
              }),
            'deviceRepayment',
          );
          expect(errorCode(repayment)).toBe('FORBIDDEN');
        }
      });
    });

    describe("nested paths from A's own objects, every field as deep as the schema goes", () => {
      /** Runs every query of a walk; each answer must hold A's data and nothing of B's. */
      async function walkAll(
        key: string,
        queries: string[],
        variables: Record<string, unknown>,
        what: string,
      ): Promise<void> {
        expect(queries.length).toBeGreaterThan(0);
        for (const query of queries) {
          const answer = await gql(key, query, variables);
          expect(answer.json.errors, `${what}: ${answer.text.slice(0, 300)}`).toBeUndefined();
          expectNothingOf(victim(), answer, what);
        }
      }

      it('the walk can ask for every nested field', () => {
        walkQueries('query', 'viewer', 'Viewer', false);
        expect([...unwalkable]).toEqual([]);
      });

      it('viewer, partner, merchants, clerks and the device catalogue', async () => {
        for (const key of [self().partnerKey, self().retailKey]) {
          const viewer = await gql(
            key,
            `{ viewer ${scalarsOf('Viewer')} partner(id: "${self().known.partnerId}") { id } }`,
          );
          expect(viewer.json.data.partner).toEqual({ __typename: 'Partner', id: self().known.partnerId });
          await walkAll(key, walkQueries('query', 'viewer', 'Viewer', false), {}, 'viewer');
          await walkAll(
            key,
            walkQueries('query($id: ID!)', 'partner(id: $id)', 'Partner', false),
            { id: self().known.partnerId },
            'own partner',
          );
          await walkAll(key, walkQueries('query', 'merchants', 'Merchant', true), {}, 'merchants');
          await walkAll(key, walkQueries('query', 'clerks', 'Clerk', true), {}, 'clerks');
          await walkAll(key, walkQueries('query', 'deviceFamilies', 'DeviceFamily', true), {}, 'deviceFamilies');
        }
      });

      it('every customer of A (by each of its locators), walked to the end', async () => {
        const queries = walkQueries('query($l: String!)', 'customer(locator: $l)', 'Customer', false);
        for (const key of [self().partnerKey, self().retailKey]) {
          for (const id of self().known.ids.customers!) await walkAll(key, queries, { l: id }, `own customer ${id}`);
          for (const locator of [...self().known.locators, self().imei]) {
            const found = await gql(key, 'query($l: String!) { customer(locator: $l) { id financeOrder { id } } }', {
              l: locator,
            });
            expect(found.json.data.customer, locator).not.toBeNull();
            expectNothingOf(victim(), found, `own customer by ${locator}`);
          }
        }
      });

      it('every order of A, walked to the end', async () => {
        const queries = walkQueries('query($id: ID!)', 'financeOrder(id: $id)', 'FinanceOrder', false);
        for (const key of [self().partnerKey, self().retailKey]) {
          for (const id of self().known.ids.finance_orders!) {
            const found = await gql(key, 'query($id: ID!) { financeOrder(id: $id) { id } }', { id });
            expect(found.json.data.financeOrder.id).toBe(id);
            await walkAll(key, queries, { id }, `own order ${id}`);
          }
        }
      });

      it("A's cart, walked to the end", async () => {
        const found = await gql(self().partnerKey, 'query($tag: String!) { cart(cartTag: $tag) { cartTag } }', {
          tag: self().cartTag,
        });
        expect(found.json.data.cart.cartTag).toBe(self().cartTag);
        await walkAll(
          self().partnerKey,
          walkQueries('query($tag: String!)', 'cart(cartTag: $tag)', 'Cart', false),
          { tag: self().cartTag },
          'own cart',
        );
      });

      it("A's whole ledger: every transaction type, walked to the end", async () => {
        const all = await gql(
          self().partnerKey,
          'query($start: Timestamp!, $end: Timestamp!) { transactions(start: $start, end: $end) { nodes { type } } }',
          WINDOW,
        );
        const types = new Set(all.json.data.transactions.nodes.map((node: { type: string }) => node.type));
        expect([...types].sort()).toEqual(
          self().name === DEMO.name
            ? ['ADJUSTMENT', 'CASH', 'COMMISSION', 'FINANCE']
            : ['ADJUSTMENT', 'CASH', 'FINANCE'],
        );
        const queries = walkQueries(
          'query($start: Timestamp!, $end: Timestamp!)',
          'transactions(start: $start, end: $end, first: 10) { nodes',
          'Transaction',
          true,
        ).map((query) => query.replace(/ \}$/, ' } }'));
        await walkAll(self().partnerKey, queries, WINDOW, 'own ledger');
      });
    });

    describe('mutations a partner key can call', () => {
      it("webhook endpoints: B's are never listed; each mutation naming B's endpoint, event or partner is RESOURCE_NOT_FOUND and writes nothing; retail keys: FORBIDDEN", async () => {
        const own = self();
        const them = victim();
        const listed = await asGhost(
          them,
          { partnerId: v().partnerId },
          (values) =>
            gql(
              own.partnerKey,
              `query($p: ID) { webhookEndpoints(partnerId: $p) { nodes ${scalarsOf('WebhookEndpoint')} } }`,
              {
                p: values.partnerId,
              },
            ),
          'webhookEndpoints(partnerId)',
        );
        expect(listed.json.data.webhookEndpoints.nodes).toEqual([]);
        const mine = await gql(
          own.partnerKey,
          '{ webhookEndpoints { nodes { id url deliveries { nodes { id event { id data } } } } } }',
        );
        expect(mine.json.data.webhookEndpoints.nodes.map((endpoint: { id: string }) => endpoint.id)).toEqual([
          own.known.endpointId,
        ]);
        expectNothingOf(them, mine, 'webhookEndpoints');
        const mutations: Array<[string, Values, (values: Values) => Record<string, unknown>]> = [
          [
            'mutation($p: ID) { createWebhookEndpoint(input: { partnerId: $p, url: "http://127.0.0.1:9/x", eventTypes: [PAYMENT_RECORDED] }) { secret } }',
            { partnerId: v().partnerId },
            (values) => ({ p: values.partnerId }),
          ],
          [
            'mutation($id: ID!) { updateWebhookEndpoint(input: { id: $id, enabled: false }) { id } }',
            { endpointId: v().endpointId },
            (values) => ({ id: values.endpointId }),
          ],
          [
            'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }',
            { endpointId: v().endpointId },
            (values) => ({ id: values.endpointId }),
          ],
          [
            'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }',
            { endpointId: v().endpointId },
            (values) => ({ id: values.endpointId }),
          ],
          [
            'mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id } }',
            { endpointId: v().endpointId },
            (values) => ({ id: values.endpointId }),
          ],
          [
            'mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { id } }',
            { eventId: v().eventId },
            (values) => ({ e: values.eventId, w: own.known.endpointId }),
          ],
          [
            'mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { id } }',
            { endpointId: v().endpointId },
            (values) => ({ e: own.known.eventId, w: values.endpointId }),
          ],
        ];
        for (const [mutation, values, variables] of mutations) {
          const asPartner = await asGhost(
            them,
            values,
            (given) => gql(own.partnerKey, mutation, variables(given)),
            mutation.slice(0, 60),
          );
          expect(errorCode(asPartner)).toBe('RESOURCE_NOT_FOUND');
          const asRetail = await asGhost(
            them,
            values,
            (given) => gql(own.retailKey, mutation, variables(given)),
            mutation.slice(0, 60),
          );
          expect(errorCode(asRetail)).toBe('FORBIDDEN');
        }
      });

      it("sendDeviceCommand naming B's device: RESOURCE_NOT_FOUND with a partner key, FORBIDDEN with a retail key, nothing written", async () => {
        const mutation =
          'mutation($id: ID!) { sendDeviceCommand(input: { deviceId: $id, type: LOCK_NOW }) { id status } }';
        for (const [key, code] of [
          [self().partnerKey, 'RESOURCE_NOT_FOUND'],
          [self().retailKey, 'FORBIDDEN'],
        ] as const) {
          const answer = await asGhost(
            victim(),
            { deviceId: v().deviceId },
            (values) => gql(key, mutation, { id: values.deviceId }),
            'sendDeviceCommand',
          );
          expect(errorCode(answer)).toBe(code);
        }
      });

      it("recordInStorePayment with B's merchant, clerk or order: RESOURCE_NOT_FOUND and nothing written; partner key: FORBIDDEN", async () => {
        const own = self();
        const them = victim();
        const mutation = `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) {
          time deviceTag remainingBalance currency nextPayment fullyPaid replayed payment { id financeOrder { id } merchant { id } salesClerk { id } } } }`;
        const combos: Array<[Values, (values: Values) => Record<string, string>]> = [
          [
            { merchantId: them.merchantId },
            (values) => ({
              merchantId: values.merchantId!,
              salesClerkId: own.clerkId,
              financeOrderId: own.orderId,
              currency: own.currency,
            }),
          ],
          [
            { clerkId: them.clerkId },
            (values) => ({
              merchantId: own.merchantId,
              salesClerkId: values.clerkId!,
              financeOrderId: own.orderId,
              currency: own.currency,
            }),
          ],
          [
            { orderId: them.orderId },
            (values) => ({
              merchantId: own.merchantId,
              salesClerkId: own.clerkId,
              financeOrderId: values.orderId!,
              currency: own.currency,
            }),
          ],
          [
            { orderId: them.orderId },
            (values) => ({
              merchantId: own.merchantId,
              salesClerkId: own.clerkId,
              financeOrderId: values.orderId!,
              currency: them.currency,
            }),
          ],
          [
            { merchantId: them.merchantId, clerkId: them.clerkId, orderId: them.orderId },
            (values) => ({
              merchantId: values.merchantId!,
              salesClerkId: values.clerkId!,
              financeOrderId: values.orderId!,
              currency: them.currency,
            }),
          ],
        ];
        for (const [values, input] of combos) {
          for (const [key, code] of [
            [own.retailKey, 'RESOURCE_NOT_FOUND'],
            [own.partnerKey, 'FORBIDDEN'],
          ] as const) {
            const answer = await asGhost(
              them,
              values,
              (given) =>
                gql(key, mutation, { input: { ...input(given), amount: '1.00', idempotencyKey: 'iso-graph-1' } }),
              `recordInStorePayment ${JSON.stringify(values)}`,
            );
            expect(errorCode(answer)).toBe(code);
            expect(answer.json.data).toBeNull();
          }
        }
      });

      it("createPaymentNotification naming B's device, with A's keys: refused, nothing written", async () => {
        const mutation =
          'mutation($n: JSON!) { createPaymentNotification(notification: $n) { message receipt { deviceTag payment { id } } } }';
        for (const key of [self().partnerKey, self().retailKey]) {
          for (const [name, field] of [
            ['deviceTag', 'deviceTag'],
            ['imei', 'imei'],
            ['orderId', 'financeOrderId'],
          ] as const) {
            const answer = await asGhost(
              victim(),
              { [name]: victim()[name] },
              (values) =>
                gql(key, mutation, {
                  n: {
                    paymentVendor: 'demo-vendor',
                    amount: '1.00',
                    currency: victim().currency,
                    reference: 'ISO-PARTNER-1',
                    [field]: values[name],
                  },
                }),
              `createPaymentNotification by ${field}`,
            );
            expect(errorCode(answer)).toBe('FORBIDDEN');
          }
        }
      });

      it("createAccessToken with B's partner key: refused, nothing of B's in the answer", async () => {
        for (const key of [self().partnerKey, self().retailKey]) {
          const answer = await gql(key, 'mutation($k: String!) { createAccessToken(apiKey: $k) { accessToken } }', {
            k: victim().partnerKey,
          });
          expect(errorCode(answer)).toBe('INVALID_API_KEY');
          expectNothingOf(victim(), answer, 'createAccessToken');
        }
      });

      it("every operator-only mutation naming B's records: FORBIDDEN, the same as for records that do not exist, nothing written", async () => {
        const them = victim();
        const mutations: Array<[string, Values, (values: Values) => Record<string, unknown>]> = [
          [
            'mutation($input: CreatePartnerInput!) { createPartner(input: $input) { id } }',
            {},
            () => ({ input: { name: 'Isolation Partner', commissionRateBasisPoints: 100 } }),
          ],
          [
            'mutation($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }',
            { partnerId: v().partnerId },
            (values) => ({ input: { partnerId: values.partnerId, lockGraceHours: 24 } }),
          ],
          [
            'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { partnerId now } }',
            { partnerId: v().partnerId },
            (values) => ({ input: { partnerId: values.partnerId, now: 4_000_000_000 } }),
          ],
          [
            'mutation($id: ID!) { resetSandboxClock(partnerId: $id) { partnerId now } }',
            { partnerId: v().partnerId },
            (values) => ({ id: values.partnerId }),
          ],
          [
            'mutation($input: CreateMerchantInput!) { createMerchant(input: $input) { id } }',
            { partnerId: v().partnerId },
            (values) => ({
              input: {
                partnerId: values.partnerId,
                name: 'X',
                phoneNumber: '1',
                address: { street: '1', city: '1', state: '1', country: 'US' },
              },
            }),
          ],
          [
            'mutation($input: CreateClerkInput!) { createClerk(input: $input) { id } }',
            { partnerId: v().partnerId },
            (values) => ({
              input: { partnerId: values.partnerId, name: 'X', phoneNumber: '1', email: 'x@example.com' },
            }),
          ],
          [
            'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }',
            { partnerId: v().partnerId },
            (values) => ({ input: { partnerId: values.partnerId, name: 'X', phoneNumber: '17755559999' } }),
          ],
          [
            'mutation($name: String!) { createDeviceFamily(name: $name) { id } }',
            {},
            () => ({ name: 'Isolation Family' }),
          ],
          [
            'mutation($input: CreateDeviceModelInput!) { createDeviceModel(input: $input) { id } }',
            {},
            () => ({ input: { familyId: '3', makeModel: 'ISO I1', name: 'I1' } }),
          ],
          [
            'mutation($input: CreateDeviceInput!) { createDevice(input: $input) { id } }',
            { partnerId: v().partnerId, customerId: them.customerId },
            (values) => ({
              input: {
                partnerId: values.partnerId,
                customerId: values.customerId,
                modelId: '12',
                tag: 'DTISO001',
                imei: '490154203237609',
              },
            }),
          ],
          [
            'mutation($input: CreateCartInput!) { createCart(input: $input) { id } }',
            {
              partnerId: v().partnerId,
              customerId: them.customerId,
              merchantId: them.merchantId,
              clerkId: them.clerkId,
            },
            (values) => ({
              input: {
                partnerId: values.partnerId,
                cartTag: 'CART-ISO',
                customerId: values.customerId,
                merchantId: values.merchantId,
                salesClerkId: values.clerkId,
                deviceModelId: '12',
                currency: them.currency,
                purchaseAmount: '10.00',
                downPayment: '1.00',
                pricePreTax: '10.00',
                monthlyCost: '1.00',
                weeklyCost: '0.25',
                months: 9,
              },
            }),
          ],
          [
            'mutation($input: FinanceCartInput!) { financeCart(input: $input) { id } }',
            { partnerId: v().partnerId, cartTag: them.cartTag },
            (values) => ({ input: { partnerId: values.partnerId, cartTag: values.cartTag, deviceId: '1' } }),
          ],
          [
            'mutation($input: CreateAdjustmentInput!) { createAdjustment(input: $input) { id } }',
            { partnerId: v().partnerId, merchantId: them.merchantId, orderId: them.orderId },
            (values) => ({
              input: {
                partnerId: values.partnerId,
                kind: 'PAYMENT',
                amount: '1.00',
                currency: them.currency,
                notes: 'x',
                merchantId: values.merchantId,
                financeOrderId: values.orderId,
              },
            }),
          ],
          [
            'mutation($input: CreatePaymentVendorInput!) { createPaymentVendor(input: $input) { id } }',
            {},
            () => ({ input: { name: 'iso-vendor', displayName: 'Iso', requestSchema: { type: 'object' } } }),
          ],
          [
            'mutation($input: UpdatePaymentVendorInput!) { updatePaymentVendor(input: $input) { id } }',
            {},
            () => ({ input: { id: '1', enabled: false } }),
          ],
          [
            'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }',
            { partnerId: v().partnerId },
            (values) => ({ input: { kind: 'RETAIL', partnerId: values.partnerId } }),
          ],
          [
            'mutation($id: ID!) { revokeApiKey(id: $id) { id partner { id name } } }',
            { partnerKeyId: v().partnerKeyId },
            (values) => ({ id: values.partnerKeyId }),
          ],
        ];
        const covered = new Set(mutations.map(([mutation]) => /\{\s*(\w+)\(/.exec(mutation)![1]!));
        expect(
          MUTATION_FIELDS.filter(
            (field) => MUTATION_COVERAGE[field]?.startsWith('operators only') && !covered.has(field),
          ),
        ).toEqual([]);
        for (const key of [self().partnerKey, self().retailKey]) {
          for (const [mutation, values, variables] of mutations) {
            const answer = await asGhost(
              them,
              values,
              (given) => gql(key, mutation, variables(given)),
              mutation.slice(0, 60),
            );
            expect(errorCode(answer)).toBe('FORBIDDEN');
          }
        }
      });
    });
  });
}

walk(
  () => DEMO,
  () => OTHER,
  "Demo Retail (A) asks for Other Retail's (B) records",
);
walk(
  () => OTHER,
  () => DEMO,
  "Other Retail (A) asks for Demo Retail's (B) records",
);
