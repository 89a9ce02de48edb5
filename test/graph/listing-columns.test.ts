// A transaction listing joins each link the request selects with only the columns its selected fields
// read (transactions/selection.ts, linkColumns.ts). Every field of every linked type, selected alone
// through the listing, must answer what the same field answers from the whole row (read by key through
// the loaders), and its statement must select that field's columns and no others. A request that
// selects a link's fields the legacy operation does not, beside one that selects the legacy's, answers
// both right: partial rows are answered to their own fields and never reach a loader.
import {
  type GraphQLField,
  type GraphQLOutputType,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { LINK_FIELD_COLUMNS } from '../../src/modules/transactions/linkColumns.js';
import type { TransactionLink } from '../../src/modules/transactions/rows.js';
import { buildSchema } from '../../src/pipeline/schema.js';
import { useSeededService } from '../support/fixtures.js';
import { statementsDuring } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
/** Demo Retail's last 366 days: every kind of transaction. */
const WINDOW = { start: 1749513600, end: 1781136000 };
const schema = buildSchema();
const fixture = useSeededService({ now: NOW });

/** A GraphQL answer, read by the names the test selects. */
type Answer = any;
const asKey = (key: string) => async (query: string, variables?: Record<string, unknown>) => {
  const { status, body } = await fixture.service.graphql(query, { 'x-api-key': key }, variables);
  expect([status, body.errors]).toEqual([200, undefined]);
  return body.data as Answer;
};
const partner = asKey('demo-partner-key');
const operator = asKey('demo-operator-key');

/** A field as a query selects it: its scalar subfields when it is an object, a short page of a list. */
function selectionOf(field: GraphQLField<unknown, unknown>): string {
  const args = field.args.some((arg) => arg.name === 'first') ? '(first: 3)' : '';
  return `${field.name}${args} ${subselection(field.type)}`;
}
function subselection(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (!isObjectType(named)) return '{ __typename }';
  const leaves = Object.values(named.getFields()).filter(
    (field) => isLeafType(getNamedType(field.type)) && field.args.every((arg) => !isNonNullType(arg.type)),
  );
  return `{ __typename ${leaves.map((field) => field.name).join(' ')} }`;
}
const fieldsOf = (typeName: string) => {
  const type = schema.getType(typeName);
  if (!isObjectType(type)) throw new Error(`${typeName} is no object type`);
  return Object.values(type.getFields());
};
const everyField = (typeName: string) => fieldsOf(typeName).map(selectionOf).join(' ');

interface Linked {
  link: TransactionLink;
  /** The graph type of the link, the transaction types that have it, and its field on them. */
  type: string;
  on: string[];
  field: string;
}
const LINKS: Linked[] = [
  { link: 'merchant', type: 'Merchant', on: ['FinanceTransaction', 'CashTransaction'], field: 'merchant' },
  { link: 'clerk', type: 'Clerk', on: ['FinanceTransaction', 'CashTransaction'], field: 'salesClerk' },
  { link: 'order', type: 'FinanceOrder', on: ['FinanceTransaction', 'CashTransaction'], field: 'financeOrder' },
  { link: 'device', type: 'Device', on: ['FinanceTransaction'], field: 'device' },
  { link: 'payment', type: 'Payment', on: ['CashTransaction', 'CommissionTransaction'], field: 'payment' },
  { link: 'adjustment', type: 'Adjustment', on: ['AdjustmentTransaction'], field: 'adjustment' },
];

/** Each listed transaction's links by id, with its order's id (a device and a payment are read through it). */
interface Listed {
  id: string;
  __typename: string;
  merchant: { id: string };
  financeOrder?: { id: string };
  salesClerk?: { id: string };
  device?: { id: string };
  payment?: { id: string };
  adjustment?: { id: string };
}
let listed: Listed[];
/** The adjustment the test records, every field as its mutation answers it from the whole row. */
let adjustment: Answer;

beforeAll(async () => {
  adjustment = (
    await operator(
      `mutation { createAdjustment(input: { partnerId: "1", kind: PAYMENT, amount: "-2.50", currency: "USD", notes: "columns", merchantId: "${DEMO_MERCHANT_ID}", financeOrderId: "${DEMO_ORDER_ID}" }) { ${everyField('Adjustment')} } }`,
    )
  ).createAdjustment;
  listed = (
    await partner(
      `query($start: Timestamp!, $end: Timestamp!) { transactions(start: $start, end: $end) { nodes { id __typename merchant { id }
        ... on FinanceTransaction { financeOrder { id } salesClerk { id } device { id } }
        ... on CashTransaction { financeOrder { id } salesClerk { id } payment { id } }
        ... on CommissionTransaction { financeOrder { id } payment { id } }
        ... on AdjustmentTransaction { adjustment { id } } } } }`,
      { start: WINDOW.start, end: NOW.getTime() / 1000 + 60 },
    )
  ).transactions.nodes;
});

/** The whole row's answer to every field of a listed transaction's link, read by key (the loaders). */
async function wholeRow(linked: Linked, transaction: Listed): Promise<Answer> {
  const every = everyField(linked.type);
  const orderId = transaction.financeOrder?.id;
  switch (linked.link) {
    case 'merchant':
      return (await partner(`{ merchant(id: "${transaction.merchant.id}") { ${every} } }`)).merchant;
    case 'clerk':
      return (await partner(`{ clerk(id: "${transaction.salesClerk!.id}") { ${every} } }`)).clerk;
    case 'order':
      return (await partner(`{ financeOrder(id: "${orderId}") { ${every} } }`)).financeOrder;
    case 'device':
      return (await partner(`{ financeOrder(id: "${orderId}") { device { ${every} } } }`)).financeOrder.device;
    case 'payment': {
      const { payments } = (await partner(`{ financeOrder(id: "${orderId}") { payments { id ${every} } } }`))
        .financeOrder;
      return payments.find((payment: { id: string }) => payment.id === transaction.payment!.id);
    }
    case 'adjustment':
      return transaction.adjustment!.id === adjustment.id ? adjustment : undefined;
  }
}

describe('a listing reads of each link only the columns its selected fields read', () => {
  it('lists every kind of link in the window (finance, cash, commission, and the recorded adjustment)', () => {
    expect(new Set(listed.map((transaction) => transaction.__typename))).toEqual(
      new Set(['FinanceTransaction', 'CashTransaction', 'CommissionTransaction', 'AdjustmentTransaction']),
    );
    expect(listed.some((transaction) => transaction.adjustment?.id === adjustment.id)).toBe(true);
  });

  for (const linked of LINKS) {
    it(`${linked.type}: each field alone answers as from the whole row, its statement selecting only its columns`, async () => {
      const wholes = new Map<string, Answer>();
      for (const transaction of listed) {
        if (!linked.on.includes(transaction.__typename)) continue;
        const whole = await wholeRow(linked, transaction);
        if (whole) wholes.set(transaction.id, whole);
      }
      expect(wholes.size).toBeGreaterThan(0);
      const fields = fieldsOf(linked.type);
      // Every field of the type is mapped (typechecked too), and only to columns of its row.
      expect(Object.keys(LINK_FIELD_COLUMNS[linked.link]).sort()).toEqual(fields.map((field) => field.name).sort());

      for (const field of fields) {
        const fragments = linked.on
          .map((type) => `... on ${type} { ${linked.field} { ${selectionOf(field)} } }`)
          .join(' ');
        const { result, statements } = await statementsDuring(fixture.database.db, () =>
          partner(
            `query($start: Timestamp!, $end: Timestamp!) { transactions(start: $start, end: $end, first: 50) { nodes { id ${fragments} } } }`,
            { start: WINDOW.start, end: NOW.getTime() / 1000 + 60 },
          ),
        );
        for (const node of result.transactions.nodes as Array<Record<string, Answer>>) {
          const whole = wholes.get(node.id);
          if (whole) expect([field.name, node[linked.field][field.name]]).toEqual([field.name, whole[field.name]]);
        }
        const listing = statements.find((statement) => /from "transactions"/.test(statement.sql))!.sql;
        const selected = [...listing.matchAll(new RegExp(`as "${linked.link}__([a-z0-9_]+)"`, 'g'))].map(
          (match) => match[1],
        );
        const expected = new Set(['id', ...LINK_FIELD_COLUMNS[linked.link][field.name]!]);
        expect([field.name, [...new Set(selected)].sort()]).toEqual([field.name, [...expected].sort()]);
      }
    });
  }
});

describe('links selected differently in one request', () => {
  it('the legacy fields in one listing, others in another, and the same rows by key: each answers right', async () => {
    const finance = listed.find((transaction) => transaction.__typename === 'FinanceTransaction')!;
    const cash = listed.find((transaction) => transaction.__typename === 'CashTransaction')!;
    const [merchant, clerk, order, device, payment] = await Promise.all([
      wholeRow(LINKS[0]!, finance),
      wholeRow(LINKS[1]!, finance),
      wholeRow(LINKS[2]!, finance),
      wholeRow(LINKS[3]!, finance),
      wholeRow(LINKS[4]!, cash),
    ]);
    const { result, statements } = await statementsDuring(fixture.database.db, () =>
      partner(
        `query($start: Timestamp!, $end: Timestamp!) {
          legacy: transactions(start: $start, end: $end, first: 50) { nodes { id merchant { id name }
            ... on FinanceTransaction { financeOrder { id months } salesClerk { id name } device { imei } }
            ... on CashTransaction { payment { id amount } } } }
          other: transactions(start: $start, end: $end, first: 50) { nodes { id merchant { phoneNumber address { city postalCode } }
            ... on FinanceTransaction { financeOrder { totalPaid secureStatus customer { id } } salesClerk { email } device { tag customer { id } } }
            ... on CashTransaction { payment { channel vendorReference time } } } }
          merchant(id: "${finance.merchant.id}") { id name phoneNumber address { street city } }
        }`,
        { start: WINDOW.start, end: WINDOW.end },
      ),
    );
    const byId = (nodes: Array<{ id: string }>) => new Map(nodes.map((node) => [node.id, node as Answer]));
    const legacy = byId(result.legacy.nodes);
    const other = byId(result.other.nodes);
    expect(legacy.get(finance.id)).toEqual({
      id: finance.id,
      merchant: { id: merchant.id, name: merchant.name },
      financeOrder: { id: order.id, months: order.months },
      salesClerk: { id: clerk.id, name: clerk.name },
      device: { imei: device.imei },
    });
    expect(other.get(finance.id)).toEqual({
      id: finance.id,
      merchant: {
        phoneNumber: merchant.phoneNumber,
        address: { city: merchant.address.city, postalCode: merchant.address.postalCode },
      },
      financeOrder: {
        totalPaid: order.totalPaid,
        secureStatus: order.secureStatus,
        customer: { id: order.customer.id },
      },
      salesClerk: { email: clerk.email },
      device: { tag: device.tag, customer: { id: device.customer.id } },
    });
    expect(legacy.get(cash.id).payment).toEqual({ id: payment.id, amount: payment.amount });
    expect(other.get(cash.id).payment).toEqual({
      channel: payment.channel,
      vendorReference: payment.vendorReference,
      time: payment.time,
    });
    // The merchant by key is the whole row: no listing's partial merchant stood in for it.
    expect(result.merchant).toEqual({
      id: merchant.id,
      name: merchant.name,
      phoneNumber: merchant.phoneNumber,
      address: { street: merchant.address.street, city: merchant.address.city },
    });
    // Two listings, each its own shape: the legacy one reads no merchant phone, the other no merchant name.
    const listings = statements.filter((statement) => /from "transactions"/.test(statement.sql)).map((s) => s.sql);
    expect(listings).toHaveLength(2);
    expect(listings.filter((sql) => sql.includes('"merchant__name"'))).toHaveLength(1);
    expect(listings.filter((sql) => sql.includes('"merchant__phone_number"'))).toHaveLength(1);
  });

  it('one link selected twice under one response key reads the union of the columns', async () => {
    const { result, statements } = await statementsDuring(fixture.database.db, () =>
      partner(
        `query($start: Timestamp!, $end: Timestamp!) {
          transactions(start: $start, end: $end) { nodes { id merchant { name } } }
          transactions(start: $start, end: $end) { nodes { id merchant { phoneNumber } } } }`,
        { start: WINDOW.start, end: WINDOW.end },
      ),
    );
    const merchant = (await partner(`{ merchant(id: "${listed[0]!.merchant.id}") { name phoneNumber } }`)).merchant;
    const node = result.transactions.nodes.find((candidate: Listed) => candidate.id === listed[0]!.id);
    expect(node.merchant).toEqual(merchant);
    const listing = statements.filter((statement) => /from "transactions"/.test(statement.sql));
    expect(listing).toHaveLength(1);
    expect(listing[0]!.sql).toContain('"merchant__name"');
    expect(listing[0]!.sql).toContain('"merchant__phone_number"');
  });
});
