import type { Knex } from 'knex';
import { type JoinedRow, joinedRow, sourcesOf } from '../../db/joinedRows.js';
import type { DbOrTrx } from '../../db/knex.js';
import { prepared } from '../../db/prepared.js';
import { isDecimalText } from '../../money.js';
import { COLUMNS as CLERK_COLUMNS } from '../clerks/queries.js';
import { deviceSources } from '../devices/queries.js';
import { COLUMNS as ORDER_COLUMNS } from '../financeOrders/queries.js';
import { COLUMNS as MERCHANT_COLUMNS } from '../merchants/queries.js';
import { COLUMNS as PAYMENT_COLUMNS } from '../payments/queries.js';
import { type TenantKey, whereTenantKeys } from '../tenancy.js';
import { decimalSql, type FilterTerm } from './filters.js';
import type { AdjustmentRow, ListedTransactionRow, TransactionLink, TransactionLinks, TransactionRow } from './rows.js';

export const COLUMNS = [
  'partner_id',
  'id',
  'type',
  'amount_minor',
  'currency',
  'occurred_at',
  'merchant_id',
  'finance_order_id',
  'payment_id',
  'clerk_id',
  'adjustment_id',
] as const;
export const ADJUSTMENT_COLUMNS = [
  'partner_id',
  'id',
  'kind',
  'amount_minor',
  'currency',
  'notes',
  'merchant_id',
  'finance_order_id',
  'operator_id',
  'created_at',
] as const;

export interface TransactionWindow {
  partnerId: string;
  start: Date;
  end: Date;
  filters: readonly FilterTerm[];
  /** Exclusive keyset position: (time in microseconds since the epoch, id). */
  after?: { timeUs: string; id: string };
  /** At most this many rows; all of the window when absent. */
  limit?: number;
  /** The rows each transaction links to that are read in the same statement (see TransactionLinks). */
  links?: ReadonlySet<TransactionLink>;
}

/** Each tenant row a transaction links to: its table, alias, and the (partner, id) columns that name it. */
const LINK_TABLES: Record<TransactionLink, { table: string; alias: string; by: readonly [string, string] }> = {
  merchant: { table: 'merchants', alias: 'm', by: ['t.partner_id', 't.merchant_id'] },
  clerk: { table: 'clerks', alias: 'c', by: ['t.partner_id', 't.clerk_id'] },
  order: { table: 'finance_orders', alias: 'o', by: ['t.partner_id', 't.finance_order_id'] },
  device: { table: 'devices', alias: 'd', by: ['o.partner_id', 'o.device_id'] },
  payment: { table: 'payments', alias: 'p', by: ['t.partner_id', 't.payment_id'] },
  adjustment: { table: 'adjustments', alias: 'a', by: ['t.partner_id', 't.adjustment_id'] },
};

/**
 * Joins one link by its key, as a LATERAL lookup of at most one row: an index probe per transaction
 * whatever the planner thinks of the table's size, so a page's cost follows the page, not the table
 * (a hash join would read every payment of the partner for a page of 300). A device's catalogue
 * model and family are small global tables, joined plainly.
 */
function joinFor(query: Knex.QueryBuilder, join: TransactionLink): void {
  const { table, alias, by } = LINK_TABLES[join];
  query.joinRaw(
    'left join lateral (select * from ?? as ?? where ??.partner_id = ?? and ??.id = ?? limit 1) as ?? on true',
    [table, alias, alias, by[0], alias, by[1], alias],
  );
  if (join === 'device') {
    query
      .leftJoin('device_models as dm', 'dm.id', 'd.model_id')
      .leftJoin('device_families as df', 'df.id', 'dm.family_id');
  }
}

/** Each link's row as the join aliases of joinFor name its sources, selected as link__field. */
const LINKED: Record<TransactionLink, JoinedRow<unknown>> = {
  merchant: joinedRow('merchant', sourcesOf('m', MERCHANT_COLUMNS)),
  clerk: joinedRow('clerk', sourcesOf('c', CLERK_COLUMNS)),
  order: joinedRow('order', sourcesOf('o', ORDER_COLUMNS)),
  device: joinedRow('device', deviceSources({ device: 'd', model: 'dm', family: 'df' })),
  payment: joinedRow('payment', sourcesOf('p', PAYMENT_COLUMNS)),
  adjustment: joinedRow('adjustment', sourcesOf('a', ADJUSTMENT_COLUMNS)),
};
/** The joins a link needs (a device is reached through its order). */
const LINK_JOINS: Record<TransactionLink, TransactionLink[]> = {
  merchant: ['merchant'],
  clerk: ['clerk'],
  order: ['order'],
  device: ['order', 'device'],
  payment: ['payment'],
  adjustment: ['adjustment'],
};
const JOIN_ORDER: TransactionLink[] = ['merchant', 'clerk', 'order', 'device', 'payment', 'adjustment'];

/** A result row as a listed transaction, its links taken out of their link__field columns (null: no such row). */
function withLinks(row: Record<string, unknown>, links: readonly TransactionLink[]): ListedTransactionRow {
  const transaction: Record<string, unknown> = { occurred_at_us: row.occurred_at_us };
  for (const column of COLUMNS) transaction[column] = row[column];
  const linked: Record<string, unknown> = {};
  for (const link of links) linked[link] = LINKED[link].take(row);
  transaction.links = linked as TransactionLinks;
  return transaction as unknown as ListedTransactionRow;
}

/**
 * One partner's transactions with start <= time < end, in (time, id) order, one statement: the
 * window's page is chosen first (the (partner_id, occurred_at, id) index, joining only what the
 * filters need), then the rows each transaction links to are joined to that page alone, by key.
 */
export function transactionsInWindowQuery(db: DbOrTrx, window: TransactionWindow): Knex.QueryBuilder {
  const page = db('transactions as t')
    .select(
      ...COLUMNS.map((column) => `t.${column}`),
      db.raw('(extract(epoch from t.occurred_at) * 1000000)::int8 as occurred_at_us'),
    )
    .where('t.partner_id', window.partnerId)
    .where('t.occurred_at', '>=', window.start)
    .where('t.occurred_at', '<', window.end)
    .orderBy(['t.occurred_at', 't.id']);
  const filterJoins = new Set<TransactionLink>(window.filters.flatMap((term) => term.field.joins));
  for (const join of JOIN_ORDER) if (filterJoins.has(join)) joinFor(page, join);
  for (const term of window.filters) {
    if (term.field.currencySql) {
      // An amount compares as a number ("-18" matches -18.00); text that is no number matches nothing.
      if (!isDecimalText(term.value)) page.whereRaw('false');
      else page.whereRaw(`${decimalSql(term.field.sql, term.field.currencySql)} = ?::numeric`, [term.value]);
    } else {
      page.whereRaw(`${term.field.sql} = ?`, [term.value]);
    }
    if (term.field.types) page.whereIn('t.type', term.field.types);
  }
  if (window.after) {
    page.whereRaw(`(t.occurred_at, t.id) > (timestamptz 'epoch' + ?::int8 * interval '1 microsecond', ?::int8)`, [
      window.after.timeUs,
      window.after.id,
    ]);
  }
  if (window.limit !== undefined) page.limit(window.limit);

  // An unfiltered listing has a handful of SQL texts (links selected, paged or not): prepared. Filters
  // make texts without bound, so a filtered one is planned each time.
  const hot = (query: Knex.QueryBuilder) => (window.filters.length ? query : prepared(query));
  const links = linksOf(window);
  if (!links.length) return hot(page);
  const query = db.select('t.*').from(page.as('t')).orderBy(['t.occurred_at', 't.id']);
  for (const link of links) query.select(LINKED[link].select);
  const linkJoins = new Set<TransactionLink>(links.flatMap((link) => LINK_JOINS[link]));
  for (const join of JOIN_ORDER) if (linkJoins.has(join)) joinFor(query, join);
  return hot(query);
}

const linksOf = (window: TransactionWindow) => JOIN_ORDER.filter((link) => window.links?.has(link));

export async function transactionsInWindow(db: DbOrTrx, window: TransactionWindow): Promise<ListedTransactionRow[]> {
  const rows = (await transactionsInWindowQuery(db, window)) as Array<Record<string, unknown>>;
  const links = linksOf(window);
  return links.length ? rows.map((row) => withLinks(row, links)) : (rows as unknown as ListedTransactionRow[]);
}

export async function insertTransactions(
  trx: DbOrTrx,
  rows: Array<Omit<TransactionRow, 'id'>>,
): Promise<TransactionRow[]> {
  if (rows.length === 0) return [];
  return (await trx('transactions')
    .insert(rows)
    .returning([...COLUMNS])) as TransactionRow[];
}

export function adjustmentsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<AdjustmentRow[]> {
  return whereTenantKeys(db<AdjustmentRow>('adjustments').select(...ADJUSTMENT_COLUMNS), ['partner_id', 'id'], keys);
}

export async function insertAdjustment(trx: DbOrTrx, row: Omit<AdjustmentRow, 'id'>): Promise<AdjustmentRow> {
  const [inserted] = await trx<AdjustmentRow>('adjustments')
    .insert(row)
    .returning([...ADJUSTMENT_COLUMNS]);
  return inserted as AdjustmentRow;
}

/**
 * A partner's transactions named by id or by payment, each with every row it links to, in one
 * statement (id order): what the transaction.created events are made of, read in the change's
 * transaction.
 */
export async function transactionsWithLinks(
  db: DbOrTrx,
  partnerId: string,
  by: { column: 'id' | 'payment_id'; values: readonly string[] },
): Promise<TransactionRow[]> {
  if (by.values.length === 0) return [];
  const page = db('transactions as t')
    .select(...COLUMNS.map((column) => `t.${column}`), db.raw('0 as occurred_at_us'))
    .where('t.partner_id', partnerId)
    .whereIn(`t.${by.column}`, [...by.values]);
  const query = db.select('t.*').from(page.as('t')).orderBy('t.id');
  for (const link of JOIN_ORDER) query.select(LINKED[link].select);
  for (const join of JOIN_ORDER) joinFor(query, join);
  const rows = (await query) as Array<Record<string, unknown>>;
  return rows.map((row) => withLinks(row, JOIN_ORDER));
}
