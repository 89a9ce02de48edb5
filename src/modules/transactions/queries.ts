import type { Knex } from 'knex';
import {
  type ArrayRows,
  builtInArrays,
  type ComputedField,
  joinedRow,
  type RowReader,
  type RowSources,
  rowReader,
  sourcesOf,
} from '../../db/joinedRows.js';
import type { DbOrTrx } from '../../db/knex.js';
import { isDecimalText } from '../../kernel/money.js';
import { COLUMNS as CLERK_COLUMNS } from '../clerks/queries.js';
import { DEVICE_CATALOGUE } from '../devices/catalogue.js';
import { deviceSources } from '../devices/queries.js';
import { COLUMNS as ORDER_COLUMNS } from '../financeOrders/queries.js';
import { ORDER_AMOUNTS } from '../financeOrders/terms.js';
import { COLUMNS as MERCHANT_COLUMNS } from '../merchants/queries.js';
import { AMOUNT_FROM_MINOR } from '../payments/amount.js';
import { COLUMNS as PAYMENT_COLUMNS } from '../payments/queries.js';
import { decimalSql, type FilterTerm } from './filters.js';
import {
  type AdjustmentRow,
  EVERY_COLUMN,
  LISTED_LINK_AT,
  type LinkColumns,
  type ListedTransactionRow,
  type TransactionLink,
  type TransactionLinkRows,
  type TransactionRow,
} from './rows.js';

/** A transaction with every row it links to, whole. */
export type TransactionWithLinkRows = Omit<TransactionRow, 'links'> & { links: TransactionLinkRows };

const COLUMNS = [
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
const ADJUSTMENT_COLUMNS = [
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
  /**
   * A page read ahead: it starts at the row `skip` rows past `after` (or past the window's start),
   * that row included, found by the statement itself along the index (listing.ts).
   */
  skip?: number;
  /** At most this many rows; all of the window when absent. */
  limit?: number;
  /** The rows each transaction links to that are read in the same statement, and which of their columns. */
  links?: LinkColumns;
}

/** Each tenant row a transaction links to: its table, alias, and the (partner, id) columns that name it. */
const LINK_TABLES: Record<TransactionLink, { table: string; alias: string; by: string }> = {
  merchant: { table: 'merchants', alias: 'm', by: 't.merchant_id' },
  clerk: { table: 'clerks', alias: 'c', by: 't.clerk_id' },
  order: { table: 'finance_orders', alias: 'o', by: 't.finance_order_id' },
  device: { table: 'devices', alias: 'd', by: 'o.device_id' },
  payment: { table: 'payments', alias: 'p', by: 't.payment_id' },
  adjustment: { table: 'adjustments', alias: 'a', by: 't.adjustment_id' },
};

/**
 * Joins one link by its key, as a LATERAL lookup of at most one row: an index probe per transaction
 * whatever the planner thinks of the table's size, so a page's cost follows the page, not the table
 * (a hash join would read every payment of the partner for a page of 300). Its partner is the
 * listing's, bound as a value rather than read from the transaction: so Citus sees every table of the
 * statement pinned to one partner and runs it on that partner's shard (decisions.md 48). A device's
 * catalogue model and family are small global tables, joined plainly.
 */
function joinFor(query: Knex.QueryBuilder, join: TransactionLink, partnerId: string): void {
  const { table, alias, by } = LINK_TABLES[join];
  query.joinRaw(
    'left join lateral (select * from ?? as ?? where ??.partner_id = ? and ??.id = ?? limit 1) as ?? on true',
    [table, alias, alias, partnerId, alias, by, alias],
  );
  if (join === 'device') {
    query
      .leftJoin('device_models as dm', 'dm.id', 'd.model_id')
      .leftJoin('device_families as df', 'df.id', 'dm.family_id');
  }
}

/** Each link's row as the join aliases of joinFor name its sources (field -> column). */
const LINK_SOURCES: Record<TransactionLink, RowSources> = {
  merchant: sourcesOf('m', MERCHANT_COLUMNS),
  clerk: sourcesOf('c', CLERK_COLUMNS),
  order: sourcesOf('o', ORDER_COLUMNS),
  device: deviceSources({ device: 'd', model: 'dm', family: 'df' }),
  payment: sourcesOf('p', PAYMENT_COLUMNS),
  adjustment: sourcesOf('a', ADJUSTMENT_COLUMNS),
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
export const JOIN_ORDER: readonly TransactionLink[] = ['merchant', 'clerk', 'order', 'device', 'payment', 'adjustment'];

/**
 * The links joined and, of each, its id and the columns asked for, in the row's own column order
 * (the statement's text follows the set of columns, not the order a selection named them in).
 */
export function linksToRead(links: LinkColumns | undefined): Array<[TransactionLink, RowSources]> {
  return JOIN_ORDER.filter((link) => links?.[link]).map((link) => {
    const asked = new Set(links![link]);
    const sources = LINK_SOURCES[link];
    for (const column of asked) {
      if (column !== EVERY_COLUMN && !(column in sources)) throw new Error(`${link} has no column ${column}`);
    }
    const read = asked.has(EVERY_COLUMN)
      ? sources
      : Object.fromEntries(Object.entries(sources).filter(([field]) => field === 'id' || asked.has(field)));
    return [link, read];
  });
}

export type ListedRowReader = RowReader<ListedTransactionRow>;

/**
 * A listed transaction's amount as the graph answers it (Transaction.amount reads it as a column:
 * resolvers.ts), formatted once as the row is read: as a resolver it was a call per row, which on
 * jit costs closures and a resolve-info object (about 1.7 MB of a 5,000-row page's 21).
 */
const LISTED_AMOUNT = AMOUNT_FROM_MINOR;

/**
 * Result rows (as arrays: inArrays) as listed transactions, each link taken out of its link__field
 * columns (null: no such row; none read: no link), with the amount the graph answers.
 */
export function listedRowReader(links: ReadonlyArray<[TransactionLink, RowSources]>): ListedRowReader {
  return transactionRowReader<ListedTransactionRow>(
    links,
    [LISTED_AMOUNT],
    { order: ORDER_AMOUNTS, device: DEVICE_CATALOGUE, payment: [AMOUNT_FROM_MINOR] },
    LISTED_LINK_AT,
  );
}

/**
 * Transactions' rows with their links taken out of their link__field columns, and `computed` fields;
 * a link's own (`linkComputed`) where it reads their columns; each link at the row's top too, under
 * its name in `atTop`.
 */
const transactionRowReader = <Row>(
  links: ReadonlyArray<[TransactionLink, RowSources]>,
  computed: readonly ComputedField[] = [],
  linkComputed: Partial<Record<TransactionLink, readonly ComputedField[]>> = {},
  atTop: Partial<Record<TransactionLink, string>> = {},
): RowReader<Row> =>
  rowReader<Row>(
    [...COLUMNS, 'occurred_at_us'],
    links.map(([link, sources]) => ({
      prefix: link,
      fields: Object.keys(sources),
      computed: linkComputed[link],
      alsoAs: atTop[link],
    })),
    'links',
    computed,
  );

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
  for (const join of JOIN_ORDER) if (filterJoins.has(join)) joinFor(page, join, window.partnerId);
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
  if (window.skip !== undefined) {
    // The position `skip` rows on (after `after`, if any): only the index's columns are read to find it.
    const position = transactionsInWindowQuery(db, { ...window, skip: undefined, limit: 1, links: undefined })
      .clearSelect()
      .select('t.occurred_at', 't.id')
      .offset(window.skip);
    page.whereRaw('(t.occurred_at, t.id) >= (?)', [position]);
  } else if (window.after) {
    page.whereRaw(`(t.occurred_at, t.id) > (timestamptz 'epoch' + ?::int8 * interval '1 microsecond', ?::int8)`, [
      window.after.timeUs,
      window.after.id,
    ]);
  }
  if (window.limit !== undefined) page.limit(window.limit);

  const links = linksToRead(window.links);
  if (!links.length) return page;
  const query = db.select('t.*').from(page.as('t')).orderBy(['t.occurred_at', 't.id']);
  for (const [link, sources] of links) query.select(joinedRow(link, sources).select);
  for (const join of linkJoinsOf(links)) joinFor(query, join, window.partnerId);
  return query;
}

/** The joins the links read need, in join order: each binds the partner once, after the page's values. */
export function linkJoinsOf(links: ReadonlyArray<readonly [TransactionLink, RowSources]>): TransactionLink[] {
  const needed = new Set<TransactionLink>(links.flatMap(([link]) => LINK_JOINS[link]));
  return JOIN_ORDER.filter((join) => needed.has(join));
}

/**
 * Whether the window, with its filters, holds a transaction at or before `position` in (time, id)
 * order: what pageInfo.hasPreviousPage says of a page read after that cursor. One row at most, read
 * backwards from the position along the (partner_id, occurred_at, id) index.
 */
export async function transactionsPrecede(
  db: DbOrTrx,
  window: Omit<TransactionWindow, 'after' | 'limit' | 'links'>,
  position: { timeUs: string; id: string },
): Promise<boolean> {
  const query = transactionsInWindowQuery(db, { ...window, after: undefined, limit: 1, links: undefined })
    .clearSelect()
    .clearOrder()
    .select(db.raw('1 as present'))
    .whereRaw(`(t.occurred_at, t.id) <= (timestamptz 'epoch' + ?::int8 * interval '1 microsecond', ?::int8)`, [
      position.timeUs,
      position.id,
    ])
    .orderBy([
      { column: 't.occurred_at', order: 'desc' },
      { column: 't.id', order: 'desc' },
    ]);
  return (await query).length > 0;
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

export async function insertAdjustment(trx: DbOrTrx, row: Omit<AdjustmentRow, 'id'>): Promise<AdjustmentRow> {
  const [inserted] = await trx<AdjustmentRow>('adjustments')
    .insert(row)
    .returning([...ADJUSTMENT_COLUMNS]);
  return inserted as AdjustmentRow;
}

/** Every column of every link: what a transaction.created event reads. */
const EVERY_LINK_READ = linksToRead(Object.fromEntries(JOIN_ORDER.map((link) => [link, [EVERY_COLUMN]])));
// As the rows are, without the graph's amount: the events are written from the rows (contract/).
const READ_EVERY_LINK = transactionRowReader<TransactionWithLinkRows>(EVERY_LINK_READ);

/**
 * A partner's transactions named by id or by payment, each with every row it links to, in one
 * statement (id order): what the transaction.created events are made of, read in the change's
 * transaction.
 */
export async function transactionsWithLinks(
  db: DbOrTrx,
  partnerId: string,
  by: { column: 'id' | 'payment_id'; values: readonly string[] },
): Promise<TransactionWithLinkRows[]> {
  if (by.values.length === 0) return [];
  const page = db('transactions as t')
    .select(...COLUMNS.map((column) => `t.${column}`), db.raw('0 as occurred_at_us'))
    .where('t.partner_id', partnerId)
    .whereIn(`t.${by.column}`, [...by.values]);
  const query = db.select('t.*').from(page.as('t')).orderBy('t.id');
  for (const [link, sources] of EVERY_LINK_READ) query.select(joinedRow(link, sources).select);
  for (const join of JOIN_ORDER) joinFor(query, join, partnerId);
  return READ_EVERY_LINK((await builtInArrays(db, query)) as ArrayRows);
}
