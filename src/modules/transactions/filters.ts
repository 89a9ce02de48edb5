// filter=<path>:<value> on list-transactions (decisions.md 7): each path of the legacy transaction
// shape maps to one SQL expression, and to the transaction types that carry that field, so a term
// matches only transactions that have the field at all.
import { invalidArgument } from '../../kernel/errors.js';
import { minorUnitsOf, SUPPORTED_CURRENCIES } from '../../kernel/money.js';
import type { TransactionLink as Join, TransactionType } from './rows.js';

interface FilterPath {
  /** SQL of the field's value; for amounts, in minor units of the currency `currencySql` names. */
  sql: string;
  joins: Join[];
  types?: TransactionType[];
  /** An amount: compared as an exact decimal ("-18" matches -18.00), not as text. */
  currencySql?: string;
  /** Turns the filter's text into the value compared. */
  value?: (text: string) => string;
}

const FINANCE_CASH_COMMISSION: TransactionType[] = ['finance', 'cash', 'commission'];
const FINANCE = { types: ['finance'] as TransactionType[] };
const DEVICE = { joins: ['order', 'device'] as Join[], ...FINANCE };
const ORDER_AMOUNT = (column: string): FilterPath => ({
  sql: column,
  currencySql: 'o.currency',
  joins: ['order'],
  ...FINANCE,
});
const PAYMENT = { joins: ['payment'] as Join[], types: ['cash', 'commission'] as TransactionType[] };
const lower = (text: string) => text.toLowerCase();
const epochSeconds = (column: string) => `floor(extract(epoch from ${column}))::int8::text`;

export const FILTER_PATHS: Readonly<Record<string, FilterPath>> = {
  type: { sql: 't.type', joins: [], value: lower },
  time: { sql: epochSeconds('t.occurred_at'), joins: [] },
  amount: { sql: 't.amount_minor', currencySql: 't.currency', joins: [] },
  currency: { sql: 't.currency', joins: [] },
  'merchant.id': { sql: 't.merchant_id::text', joins: [] },
  'merchant.name': { sql: 'm.name', joins: ['merchant'] },
  'financeOrder.id': { sql: 't.finance_order_id::text', joins: [], types: FINANCE_CASH_COMMISSION },
  'financeOrder.purchaseAmount': ORDER_AMOUNT('o.purchase_minor'),
  'financeOrder.financeAmount': ORDER_AMOUNT('(o.purchase_minor - o.down_payment_minor)'),
  'financeOrder.downPayment': ORDER_AMOUNT('o.down_payment_minor'),
  'financeOrder.pricePreTax': ORDER_AMOUNT('o.price_pre_tax_minor'),
  'financeOrder.monthlyCost': ORDER_AMOUNT('o.monthly_cost_minor'),
  'financeOrder.weeklyCost': ORDER_AMOUNT('o.weekly_cost_minor'),
  'financeOrder.months': { sql: 'o.months::text', joins: ['order'], ...FINANCE },
  'salesClerk.id': { sql: 't.clerk_id::text', joins: [], types: ['finance', 'cash'] },
  'salesClerk.name': { sql: 'c.name', joins: ['clerk'], types: ['finance', 'cash'] },
  'payment.id': { sql: 't.payment_id::text', joins: [], types: ['cash', 'commission'] },
  'payment.timestamp': { sql: epochSeconds('p.received_at'), ...PAYMENT },
  'payment.amount': { sql: 'p.amount_minor', currencySql: 'p.currency', ...PAYMENT },
  'adjustment.id': { sql: 't.adjustment_id::text', joins: [], types: ['adjustment'] },
  'adjustment.type': { sql: 'a.kind', joins: ['adjustment'], types: ['adjustment'], value: lower },
  'adjustment.notes': { sql: 'a.notes', joins: ['adjustment'], types: ['adjustment'] },
  'device.imei': { sql: 'd.imei', ...DEVICE },
  'device.phoneNumber': { sql: 'd.phone_number', ...DEVICE },
  'device.simNumber': { sql: 'd.sim_number', ...DEVICE },
  'device.family.id': { sql: 'dm.family_id::text', ...DEVICE },
  'device.family.name': { sql: 'df.name', ...DEVICE },
  'device.model.id': { sql: 'd.model_id::text', ...DEVICE },
  'device.model.makeModel': { sql: 'dm.make_model', ...DEVICE },
  'device.model.name': { sql: 'dm.name', ...DEVICE },
};

export interface FilterTerm {
  path: string;
  value: string;
  field: FilterPath;
}

/** Parses "path:value" terms; an unknown path or a term without a colon is INVALID_ARGUMENT. */
export function parseFilterTerms(terms: readonly string[]): FilterTerm[] {
  return terms.map((term) => {
    const colon = term.indexOf(':');
    if (colon <= 0)
      throw invalidArgument('filter', `term "${term.slice(0, 80)}" must be <field path>:<value>, e.g. type:cash`);
    const path = term.slice(0, colon);
    const field = FILTER_PATHS[path];
    if (!field) {
      throw invalidArgument(
        'filter',
        `names an unknown field path "${path.slice(0, 80)}"; known paths: ${Object.keys(FILTER_PATHS).join(', ')}`,
      );
    }
    const raw = term.slice(colon + 1);
    return { path, field, value: field.value ? field.value(raw) : raw };
  });
}

/** SQL giving an amount in minor units as an exact decimal of its currency's places. */
export function decimalSql(minorSql: string, currencySql: string): string {
  const cases = SUPPORTED_CURRENCIES.map((code) => `when '${code}' then ${minorUnitsOf(code)}`).join(' ');
  return `(${minorSql}::numeric / power(10::numeric, case ${currencySql} ${cases} end))`;
}
