// filter=<path>:<value> on list-transactions (decisions.md 7): each path of the legacy transaction
// shape maps to one SQL expression, and to the transaction types that carry that field, so a term
// matches only transactions that have the field at all.
import { invalidArgument } from '../../errors.js';
import { minorUnitsOf, SUPPORTED_CURRENCIES } from '../../money.js';
import type { TransactionType } from './rows.js';

type Join = 'merchant' | 'clerk' | 'order' | 'device' | 'adjustment';

interface FilterPath {
  sql: string;
  joins: Join[];
  types?: TransactionType[];
  /** Turns the filter's text into the value compared; throws for a value the field can never have. */
  value?: (text: string) => string;
}

const FINANCE_CASH_COMMISSION: TransactionType[] = ['finance', 'cash', 'commission'];
const DEVICE = { joins: ['order', 'device'] as Join[], types: ['finance'] as TransactionType[] };

export const FILTER_PATHS: Readonly<Record<string, FilterPath>> = {
  type: { sql: 't.type', joins: [], value: (text) => text.toLowerCase() },
  time: { sql: 'floor(extract(epoch from t.occurred_at))::int8::text', joins: [] },
  amount: { sql: 'amount_decimal', joins: [] },
  currency: { sql: 't.currency', joins: [] },
  'merchant.id': { sql: 't.merchant_id::text', joins: [] },
  'merchant.name': { sql: 'm.name', joins: ['merchant'] },
  'financeOrder.id': { sql: 't.finance_order_id::text', joins: [], types: FINANCE_CASH_COMMISSION },
  'salesClerk.id': { sql: 't.clerk_id::text', joins: [], types: ['finance', 'cash'] },
  'salesClerk.name': { sql: 'c.name', joins: ['clerk'], types: ['finance', 'cash'] },
  'payment.id': { sql: 't.payment_id::text', joins: [], types: ['cash', 'commission'] },
  'adjustment.id': { sql: 't.adjustment_id::text', joins: [], types: ['adjustment'] },
  'adjustment.type': { sql: 'a.kind', joins: ['adjustment'], types: ['adjustment'], value: (text) => text.toLowerCase() },
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
    if (colon <= 0) throw invalidArgument('filter', `term "${term.slice(0, 80)}" must be <field path>:<value>, e.g. type:cash`);
    const path = term.slice(0, colon);
    const field = FILTER_PATHS[path];
    if (!field) {
      throw invalidArgument('filter', `names an unknown field path "${path.slice(0, 80)}"; known paths: ${Object.keys(FILTER_PATHS).join(', ')}`);
    }
    const raw = term.slice(colon + 1);
    return { path, field, value: field.value ? field.value(raw) : raw };
  });
}

/** SQL that gives a transaction's amount as an exact decimal of its currency's places. */
export function amountDecimalSql(): string {
  const cases = SUPPORTED_CURRENCIES.map((code) => `when '${code}' then ${minorUnitsOf(code)}`).join(' ');
  return `(t.amount_minor::numeric / power(10::numeric, case t.currency ${cases} end))`;
}
