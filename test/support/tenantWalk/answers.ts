// Tenant isolation's walk (test/rest/tenant-isolation.test.ts, test/graph/tenant-isolation-*.test.ts):
// asking the service as a key of one tenant, and checking that an answer holds nothing of the other's
// records or identifying values, and is byte for byte the answer to values that name nothing at all.
import { Kind, parse, print, visit } from 'graphql';
import { expect } from 'vitest';
import { type ServiceFixture, useSeededService } from '../fixtures.js';
import { GHOST, type Tenant, type Values } from './tenants.js';

let fixture: ServiceFixture | undefined;

/** The seeded service of the test file that calls it, once at its top level: every helper here asks it. */
export function useTenantService(now: Date): ServiceFixture {
  fixture = useSeededService({ now });
  return fixture;
}

export const db = () => fixture!.database.db;
export const service = () => fixture!.service;

// ---------------------------------------------------------------------------------------------------
// Asking, and checking an answer.

export interface Answer {
  status: number;
  text: string;
  json: any;
  /** Everything the request said: a value it sent may come back (an echo is not a leak). */
  request: string;
}

export async function rest(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await service().request(path, { headers });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text), request: `${path} ${JSON.stringify(headers)}` };
}

/** Adds __typename to every selection set, so each object of an answer says what record it is. */
export function withTypenames(query: string): string {
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

export async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const document = withTypenames(query);
  const response = await service().request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ query: document, variables }),
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text), request: `${document} ${JSON.stringify(variables)}` };
}

export const TYPE_TABLES: Record<string, string> = {
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
  ReportRun: 'report_runs',
};
// The legacy bodies carry no __typename: the key an object sits under says what it is.
export const LEGACY_KEY_TABLES: Record<string, string> = {
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
export function recordsIn(json: unknown, victim: Tenant, under = ''): string[] {
  if (Array.isArray(json)) return json.flatMap((item) => recordsIn(item, victim, under));
  if (!json || typeof json !== 'object') return [];
  const node = json as Record<string, unknown>;
  const table = typeof node.__typename === 'string' ? TYPE_TABLES[node.__typename] : LEGACY_KEY_TABLES[under];
  const found =
    table && node.id != null && victim.known.ids[table]?.has(String(node.id)) ? [`${table}:${String(node.id)}`] : [];
  return [...found, ...Object.entries(node).flatMap(([key, value]) => recordsIn(value, victim, key))];
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const mentions = (text: string, value: string) =>
  new RegExp(`(?<![A-Za-z0-9])${escapeRegExp(value)}(?![A-Za-z0-9])`).test(text);

/** No record of the victim's, and none of its identifying values the request did not itself send. */
export function expectNothingOf(victim: Tenant, answer: Answer, what: string): void {
  const texts = victim.known.texts.filter((value) => !answer.request.includes(value) && mentions(answer.text, value));
  expect({ what, records: recordsIn(answer.json, victim), texts }).toEqual({ what, records: [], texts: [] });
}

/** Everything a tenant-scoped read or write could leave behind. */
export const WRITTEN_TABLES = [
  'partners',
  'report_runs',
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
  'payment_reversals',
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
  'report_runs',
  'report_file_chunks',
  'portfolio_snapshots',
];
export async function snapshot(): Promise<Record<string, unknown>> {
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
export function normalise(json: unknown, values: Values): string {
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
export async function asGhost(
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

export const errorCode = (answer: Answer) => answer.json.errors?.[0]?.extensions?.code;
