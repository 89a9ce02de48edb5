// Tenant isolation's GraphQL selections, generated from the schema (every field, and every object field
// followed as deep as it goes without meeting a type already on the path: a new field in the schema is
// walked without anyone writing it here), and how the walk covers every root field.
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
} from 'graphql';
import { buildSchema } from '../../../src/pipeline/schema.js';

export const schema = buildSchema();

export type Composite = GraphQLObjectType | GraphQLInterfaceType;
export interface Selection {
  scalars: string[];
  fields: Array<{ text: string; list: boolean; selection: Selection }>;
  fragments: Array<{ on: string; selection: Selection }>;
}

/** At most this many list fields nested along one path (each multiplies the estimated cost by 10). */
export const MAX_NESTED_LISTS = 2;
/**
 * At most this many object types along one path: the service's depth limit (12 selection sets) less the
 * two levels of the deepest root (`transactions { nodes`). A connection takes two levels (edges or nodes,
 * then the node), so a walk through one stops sooner than through a plain list.
 */
export const MAX_WALK_PATH = 10;
/**
 * A walk's query stays under this estimate, which counts every field and a list as 10 items: above the
 * service's own count of objects (a list at its first of 10; the unsliced ones, such as an order's
 * schedule of up to 120 instalments, at most 12 times that), so 48,000 stays under its limit of 50,000.
 */
export const COST_BUDGET = 4000;
/** Nested fields the walk could not ask for (a required argument it cannot invent): must stay empty. */
export const unwalkable = new Set<string>();
/**
 * Fields the walk leaves out on purpose, each with why no tenant's data can pass through it:
 * daysBoughtBy computes on the order already answered, and refuses every amount on a paid-off order.
 */
export const NOT_WALKED: Readonly<Record<string, string>> = {
  'Repayment.daysBoughtBy': "a figure of the order's own terms (test/timeline/repayment.test.ts)",
};

/**
 * A field's arguments: personal data is asked for with reveal: true; a list a page of 10 (first), as
 * the cost estimate below counts it; null when one is required and unknown.
 */
export function argumentsOf(field: GraphQLField<unknown, unknown>): string | null {
  const given: string[] = [];
  for (const argument of field.args) {
    if (argument.name === 'reveal') given.push('reveal: true');
    else if (argument.name === 'first') given.push('first: 10');
    else if (isNonNullType(argument.type) && argument.defaultValue === undefined) return null;
  }
  return given.length ? `(${given.join(', ')})` : '';
}

export function selectionOf(type: Composite, path: string[], lists: number, deep: boolean): Selection {
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
export const costOf = (selection: Selection): number =>
  selection.scalars.length +
  selection.fields.reduce((sum, field) => sum + 1 + (field.list ? 10 : 1) * costOf(field.selection), 0) +
  selection.fragments.reduce((sum, fragment) => sum + costOf(fragment.selection), 0);

/** Splits a selection into pieces that each fit `budget`: every piece keeps the scalars, with one branch. */
export function split(selection: Selection, budget: number): Selection[] {
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

export const printSelection = (selection: Selection): string =>
  `{ __typename ${selection.scalars.join(' ')} ${selection.fields.map((field) => `${field.text} ${printSelection(field.selection)}`).join(' ')} ${selection.fragments
    .map((fragment) => `... on ${fragment.on} ${printSelection(fragment.selection)}`)
    .join(' ')} }`;

export const typeNamed = (name: string) => schema.getType(name) as Composite;

/** Every scalar field of a type (a probe whose answer must be null needs no depth). */
export const scalarsOf = (typeName: string) => printSelection(selectionOf(typeNamed(typeName), [typeName], 0, false));

/**
 * The queries that walk everything reachable from `root` (e.g. "customer(locator: $l)"), each within
 * the cost budget; `rootIsList` when the root field returns a list.
 */
export function walkQueries(header: string, root: string, typeName: string, rootIsList: boolean): string[] {
  const selection = selectionOf(typeNamed(typeName), [typeName], rootIsList ? 1 : 0, true);
  return split(selection, (COST_BUDGET - 1) / (rootIsList ? 10 : 1)).map(
    (piece) => `${header} { ${root} ${printSelection(piece)} }`,
  );
}

export const QUERY_FIELDS = Object.keys(schema.getQueryType()!.getFields()).sort();
export const MUTATION_FIELDS = Object.keys(schema.getMutationType()!.getFields()).sort();

/** Every root field, with how the walk reaches it; walk() registers probes for each. */
export const QUERY_COVERAGE: Record<string, string> = {
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
  reportRun: "test/reports/report-isolation.test.ts: B's run id null; retail keys FORBIDDEN",
  reportRuns: "test/reports/report-isolation.test.ts: B's partnerId gives A's own runs only",
  events: "B's partnerId: empty; a cursor from B's log: A's events only; A's own walked; retail key: FORBIDDEN",
  event: "B's event id: null; retail key: FORBIDDEN",
  deviceRepayment: "vendor tokens only: a partner or retail key naming B's device tag is FORBIDDEN",
  paymentReference: "B's code: null; A's own references walked with A's orders",
  devices:
    "B's partnerId: empty; every silence: A's own only; a cursor from B's listing: A's rows only; retail key: FORBIDDEN",
  device: "B's device id or tag: null (partner and retail keys)",
  portfolioMetrics: "B's partnerId: FORBIDDEN, as for a partner that does not exist (partner and retail keys)",
  portfolioAgeing: "B's partnerId: FORBIDDEN, as for a partner that does not exist (partner and retail keys)",
  portfolioHistory: "B's partnerId: FORBIDDEN, as for a partner that does not exist (partner and retail keys)",
};
export const MUTATION_COVERAGE: Record<string, string> = {
  recordInStorePayment:
    "retail key with B's merchant, clerk or order: RESOURCE_NOT_FOUND, nothing written; partner key: FORBIDDEN",
  createAccessToken: "with B's partner key: refused, nothing of B's in the answer",
  createPaymentNotification: "vendor tokens only: a partner key naming B's device is refused, nothing written",
  reversePayment:
    "B's payment ids: RESOURCE_NOT_FOUND with a partner key, FORBIDDEN with a retail key, nothing written",
  reverseVendorPayment: 'vendor tokens only: FORBIDDEN with a partner or retail key, nothing written',
  createPartner: 'operators only',
  updatePartnerSettings: 'operators only',
  setSandboxClock:
    "partner key naming B's partnerId: FORBIDDEN as for a partner that does not exist, nothing written; retail: FORBIDDEN",
  resetSandboxClock:
    "partner key naming B's partnerId: FORBIDDEN as for a partner that does not exist, nothing written; retail: FORBIDDEN",
  createMerchant: 'operators only',
  createClerk: 'operators only',
  createCustomer: 'operators only',
  createDeviceFamily: 'operators only',
  createDeviceModel: 'operators only',
  createDevice: 'operators only',
  createCart: 'operators only',
  financeCart: 'operators only',
  createAdjustment: 'operators only',
  closeFinanceOrder: 'operators only',
  createPaymentVendor: 'operators only',
  updatePaymentVendor: 'operators only',
  createApiKey: 'operators only',
  revokeApiKey: "operators only (B's key id)",
  createWebhookEndpoint: "partner key naming B's partnerId: RESOURCE_NOT_FOUND, nothing written; retail: FORBIDDEN",
  createReportRun:
    "test/reports/report-isolation.test.ts: naming B's partnerId FORBIDDEN as for no partner, nothing written",
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
