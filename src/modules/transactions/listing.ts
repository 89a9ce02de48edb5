// One page of a partner's transactions in a window, as the listing reads it: an unfiltered page's
// statement (the hot one: every list-transactions page) compiled once per shape, with the reader of
// its rows, and run as a named prepared statement; a filtered page built each time (queries.ts).
import knex, { type Knex } from 'knex';
import { type ArrayRows, builtInArrays, inArrays } from '../../db/joinedRows.js';
import type { DbOrTrx } from '../../db/knex.js';
import { cancellable, prepared } from '../../db/prepared.js';
import {
  JOIN_ORDER,
  type ListedRowReader,
  linksToRead,
  listedRowReader,
  type TransactionWindow,
  transactionsInWindowQuery,
} from './queries.js';
import type { LinkColumns, ListedTransactionRow } from './rows.js';

/** An unfiltered page's statement, compiled once for its shape: its text, and how to read its rows. */
interface PageStatement {
  sql: string;
  read: ListedRowReader;
}
/** Statement text is compiled in Postgres's dialect (PGlite speaks it too) without a connection. */
const compiler = knex({ client: 'pg' });
const pageStatements = new Map<string, PageStatement>();
/**
 * Shapes kept compiled and run as named prepared statements: selections make shapes without bound
 * (any subset of any link's fields), and each prepared one lives on every connection; past this
 * many, a new shape is compiled for each run and planned each time.
 */
const MAX_PAGE_SHAPES = 64;

/** An unfiltered page's bound values, in the order its compiled text takes them (checked when compiled). */
const pageValues = (window: TransactionWindow): Knex.Value[] => [
  window.partnerId,
  window.start,
  window.end,
  ...(window.after ? [window.after.timeUs, window.after.id] : []),
  ...(window.limit !== undefined ? [window.limit] : []),
];

function compilePage(window: TransactionWindow): PageStatement {
  const { sql, bindings } = transactionsInWindowQuery(compiler, window).toSQL();
  const values = pageValues(window);
  if (bindings.length !== values.length || bindings.some((value, i) => value !== values[i]))
    throw new Error('a page of transactions binds its values in another order than pageValues');
  return { sql, read: listedRowReader(linksToRead(window.links)) };
}

/** The shape of an unfiltered page: whether it continues, whether it is limited, which columns of which links. */
function shapeOf(window: TransactionWindow): string {
  let shape = `${window.after ? 'after' : 'first'},${window.limit !== undefined ? 'limit' : 'all'}`;
  for (const link of JOIN_ORDER) {
    const columns = window.links?.[link];
    if (columns) shape += `|${link}:${[...new Set(columns)].sort().join(',')}`;
  }
  return shape;
}

const filteredPageReaders = new Map<string, ListedRowReader>();
/** A filtered page's row reader, kept by shape like an unfiltered page's statement (and as many). */
function filteredPageReader(window: TransactionWindow): ListedRowReader {
  const shape = shapeOf(window);
  const known = filteredPageReaders.get(shape);
  if (known !== undefined) return known;
  const read = listedRowReader(linksToRead(window.links));
  if (filteredPageReaders.size < MAX_PAGE_SHAPES) filteredPageReaders.set(shape, read);
  return read;
}

/**
 * The text of an unfiltered page of transactions with the given links' columns, as the service sends it
 * ($n placeholders: the partner, start, end, [after's time in microseconds and id,] the limit).
 */
export function transactionPageSql(links: LinkColumns, after: boolean): string {
  const window: TransactionWindow = {
    partnerId: '0',
    start: new Date(0),
    end: new Date(0),
    filters: [],
    after: after ? { timeUs: '0', id: '0' } : undefined,
    limit: 1,
    links,
  };
  return compiler.client.positionBindings(compilePage(window).sql) as string;
}

/** A page of the window; cancelled on the server if `signal` aborts while it runs (its client went away). */
export async function transactionsInWindow(
  db: DbOrTrx,
  window: TransactionWindow,
  signal?: AbortSignal,
): Promise<ListedTransactionRow[]> {
  // Filters make texts without bound: a filtered page is built, and planned, each time.
  if (window.filters.length) {
    const answer = await cancellable(builtInArrays(db, transactionsInWindowQuery(db, window)), signal);
    return filteredPageReader(window)(answer as ArrayRows);
  }
  // An unfiltered one has one text per shape, compiled once and run as a named prepared statement.
  const shape = shapeOf(window);
  let statement = pageStatements.get(shape);
  const known = statement !== undefined || pageStatements.size < MAX_PAGE_SHAPES;
  if (!statement) {
    statement = compilePage(window);
    if (known) pageStatements.set(shape, statement);
  }
  const query = inArrays(db.raw(statement.sql, pageValues(window)));
  const answer = await cancellable(known ? prepared(query) : query, signal);
  return statement.read(answer as ArrayRows);
}
