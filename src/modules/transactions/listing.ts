// One page of a partner's transactions in a window, as the listing reads it: an unfiltered page's
// statement (the hot one: every list-transactions page) compiled once per shape, with the reader of
// its rows, and run as a named prepared statement; a filtered page built each time (queries.ts).
import knex, { type Knex } from 'knex';
import { type ArrayRows, builtInArrays, inArrays } from '../../db/joinedRows.js';
import type { DbOrTrx } from '../../db/knex.js';
import { cancellable, prepared } from '../../db/prepared.js';
import type { ReadAhead } from '../../db/readAhead.js';
import {
  JOIN_ORDER,
  type ListedRowReader,
  linkJoinsOf,
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
const pageValues = (window: TransactionWindow): Knex.Value[] => {
  const bounds = [window.partnerId, window.start, window.end];
  const after = window.after ? [window.after.timeUs, window.after.id] : [];
  const limit = window.limit !== undefined ? [window.limit] : [];
  // Each link's join binds the partner again (queries.ts joinFor).
  const joins = linkJoinsOf(linksToRead(window.links)).map(() => window.partnerId);
  // A page read ahead finds its start in a statement of its own: the window again, after, one row, skip.
  if (window.skip !== undefined) return [...bounds, ...bounds, ...after, 1, window.skip, ...limit, ...joins];
  return [...bounds, ...after, ...limit, ...joins];
};

function compilePage(window: TransactionWindow): PageStatement {
  const { sql, bindings } = transactionsInWindowQuery(compiler, window).toSQL();
  const values = pageValues(window);
  if (bindings.length !== values.length || bindings.some((value, i) => value !== values[i]))
    throw new Error('a page of transactions binds its values in another order than pageValues');
  return { sql, read: listedRowReader(linksToRead(window.links)) };
}

/** The shape of an unfiltered page: whether it continues, whether it is limited, which columns of which links. */
function shapeOf(window: TransactionWindow): string {
  let shape = `${window.skip !== undefined ? 'ahead,' : ''}${window.after ? 'after' : 'first'},${window.limit !== undefined ? 'limit' : 'all'}`;
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
 * ($n placeholders: the partner, start, end, [after's time in microseconds and id,] the limit; a page
 * read ahead: the partner, start, end, again with [after's,] 1 and the rows skipped, then the limit).
 */
export function transactionPageSql(links: LinkColumns, after: boolean, ahead = false): string {
  const window: TransactionWindow = {
    partnerId: '0',
    start: new Date(0),
    end: new Date(0),
    filters: [],
    after: after ? { timeUs: '0', id: '0' } : undefined,
    skip: ahead ? 1 : undefined,
    limit: 1,
    links,
  };
  return compiler.client.positionBindings(compilePage(window).sql) as string;
}

/** A list read whole (the REST door's list answer): where its pages are read ahead, and how many rows a page shows. */
export interface PagesAhead {
  reads: ReadAhead;
  /** The rows a page shows: a page is read with one more, which only says whether another follows. */
  rowsShown: number;
}

/**
 * A page of the window; cancelled on the server if `signal` aborts while it runs (its client went
 * away). Read as part of a whole list (`ahead`, unfiltered pages), each page also starts reading the
 * next one at once, from the last row it shows, so that the next page's statement runs beside this
 * one's instead of after it; the next page takes that read if it starts where this one ends.
 */
export async function transactionsInWindow(
  db: DbOrTrx,
  window: TransactionWindow,
  signal?: AbortSignal,
  ahead?: PagesAhead,
): Promise<ListedTransactionRow[]> {
  // Filters make texts without bound: a filtered page is built, and planned, each time.
  if (window.filters.length) {
    const answer = await cancellable(builtInArrays(db, transactionsInWindowQuery(db, window)), signal);
    return filteredPageReader(window)(answer as ArrayRows);
  }
  if (!ahead || window.limit === undefined || ahead.rowsShown < 2) return unfilteredPage(db, window, signal);
  // One slot per list: the key names the list's window and shape, whichever page is read.
  const key = `transactions ${window.partnerId} ${window.start.getTime()} ${window.end.getTime()} ${shapeOf({ ...window, after: undefined })}`;
  const left = window.after ? ahead.reads.take<ListedTransactionRow[]>(key) : null;
  // Without a page read ahead, this page's statement goes first (the embedded database runs one at a time).
  const page = left ? null : unfilteredPage(db, window, signal);
  // The next page starts at the last row this one shows, read with it (one row more: that row itself).
  const next = { ...window, skip: ahead.rowsShown - 1, limit: window.limit + 1 };
  ahead.reads.leave(key, () => unfilteredPage(db, next, ahead.reads.signal));
  if (page) return page;
  const rows = await left!.catch(() => null);
  // Taken only if it starts at this page's own start: rows written since the page before was read move it.
  if (rows?.length && rows[0]!.occurred_at_us === window.after?.timeUs && rows[0]!.id === window.after.id)
    return rows.slice(1);
  return unfilteredPage(db, window, signal);
}

/** An unfiltered page: one text per shape, compiled once and run as a named prepared statement. */
async function unfilteredPage(
  db: DbOrTrx,
  window: TransactionWindow,
  signal: AbortSignal | undefined,
): Promise<ListedTransactionRow[]> {
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
