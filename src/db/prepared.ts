// Hot statements as named prepared statements on Postgres. A statement that runs on every request
// (the key's lookup, locating a customer, locking an order, a page of transactions) is parsed once
// per connection, and once Postgres settles on a generic plan (after five runs, when it is no worse
// than the custom ones) planned once too: planning the lookup's UNION ALL cost more than running it.
// The name is a hash of the SQL text, so one text is one statement on every connection. The embedded
// database ignores the mark, and so does a pool with prepared statements off (DATABASE_PREPARED_STATEMENTS
// =off, behind a transaction pooler: decisions.md 30), whose statements are all sent unnamed. A long read can also be tied to a signal (its client went away): Postgres
// is then asked to cancel it.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import KnexPgClient from 'knex/lib/dialects/postgres/index.js';
import { AppError } from '../kernel/errors.js';

const PREPARE = 'dfsPrepare';
const SIGNAL = 'dfsSignal';

/** Marks a hot query to run as a named prepared statement (see above). Only for a bounded set of SQL texts. */
export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(query: Q): Q {
  return query.options({ [PREPARE]: true }) as Q;
}

/**
 * Runs a query tied to a signal: aborted before it is sent, it is not sent; aborted while it runs, it
 * is cancelled on the server (the embedded database runs it out). Either way it fails with `abandoned`,
 * an error no client sees: the one that asked is gone.
 */
export async function cancellable(
  query: Knex.QueryBuilder | Knex.Raw,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  if (!signal) return query;
  if (signal.aborted) throw abandoned();
  try {
    return await query.options({ [SIGNAL]: signal });
  } catch (error) {
    throw signal.aborted ? abandoned() : error;
  }
}

/** The failure of a statement abandoned because its client went away (never knex's, which carries the SQL). */
export const abandoned = () => new AppError('SERVICE_UNAVAILABLE', 'the client went away before its answer was read');

interface CompiledQuery {
  sql: string;
  options?: Record<string, unknown>;
}

/** Statement names by SQL text: marked texts are few, and naming one is then a map lookup, not a hash per run. */
const names = new Map<string, string>();
export function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `dfs_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    names.set(sql, name);
  }
  return name;
}

/** knex's pg client, running marked queries by name (pg sends Parse once per connection and name) unless prepared statements are off, and cancelling abandoned ones. */
export class PreparingPgClient extends KnexPgClient {
  override async _query(connection: unknown, query: CompiledQuery): Promise<unknown> {
    const { [PREPARE]: prepare, [SIGNAL]: signal, ...options } = query.options ?? {};
    const named = prepare && (this.config as { preparedStatements?: boolean }).preparedStatements !== false;
    query.options = named ? { ...options, name: statementName(query.sql) } : options;
    if (!(signal instanceof AbortSignal)) return super._query(connection, query);
    if (signal.aborted) throw new Error('abandoned before it was sent');
    // The connection goes back to the pool only once the cancel request has gone out, so it cannot
    // reach the next statement run on it.
    let cancelling: Promise<unknown> | undefined;
    const cancel = () => {
      cancelling = this.cancelQuery(connection).catch(() => undefined);
    };
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return await super._query(connection, query);
    } finally {
      signal.removeEventListener('abort', cancel);
      await cancelling;
    }
  }
}

/**
 * Hot statements whose SQL text depends only on a shape (which locator rules, whether a device was
 * matched): knex compiles a shape's builder the first time it runs and its text is kept; every later
 * run sends that text with its values as a named prepared statement, and knex's query compiler (a
 * fifth of a lookup's CPU, in the bench's profile) never runs for it again.
 */
const shapes = new Map<string, string>();

/**
 * Under the test runner every run compiles its builder as well and fails if the text or the bindings
 * differ from the kept text and the values given: a shape key that misses a difference in the text,
 * or values out of the builder's order, fail the first test that reaches them.
 */
const checkEveryRun = process.env.NODE_ENV === 'test';

/** A hot statement by shape: its builder, and the values it binds, in its order. */
export interface ShapedStatement {
  /** Names the text: two statements of one shape have the same text. */
  shape: string;
  values: readonly unknown[];
  build: () => Knex.QueryBuilder | Knex.Raw;
}

/** The SQL text of `statement`'s shape, with $1.. placeholders: compiled the first time (checked, see above). */
export function shapeText({ shape, values, build }: ShapedStatement): string {
  let sql = shapes.get(shape);
  if (sql === undefined || checkEveryRun) {
    const compiled = build().toSQL().toNative();
    if (
      compiled.bindings.length !== values.length ||
      compiled.bindings.some((binding, i) => binding !== values[i]) ||
      (sql !== undefined && sql !== compiled.sql) ||
      // The client positions "?" placeholders again (knex's pg dialect): a kept text must have none left.
      compiled.sql.includes('?')
    )
      throw new Error(`statement shape ${shape}: its text or values are not what its builder compiles`);
    sql = compiled.sql;
    shapes.set(shape, sql);
  }
  return sql;
}

/** Runs `statement` (its shape's kept text with its values) and answers the rows. */
export function runShaped<Row>(db: Knex, statement: ShapedStatement): Promise<Row[]> {
  return runText<Row>(db, shapeText(statement), statement.values);
}

/** A hot statement written as SQL with knex's ? placeholders: its text is its shape (see runShaped). */
export function runSql<Row>(db: Knex, sql: string, values: readonly Knex.RawBinding[]): Promise<Row[]> {
  return runShaped<Row>(db, { shape: sql, values, build: () => db.raw(sql, values) });
}

/** What of knex's client this runs through: its pool (or the transaction's connection) and its query events. */
interface KnexClientInternals {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  query(connection: unknown, query: object): Promise<{ response: { rows: unknown[] } }>;
  emit(event: 'query-response', response: unknown, query: object): void;
}

let runs = 0;

/**
 * One statement on knex's connection, without knex's builder or runner: the client still sends it
 * (a named prepared statement on Postgres, see PreparingPgClient), emits its `query` event, and names
 * a failure by the text with placeholders; the `query-response` event is the runner's, sent here.
 */
export async function runText<Row>(db: Knex, sql: string, values: readonly unknown[]): Promise<Row[]> {
  const client = db.client as unknown as KnexClientInternals;
  const connection = await client.acquireConnection();
  try {
    const query = { method: 'raw', sql, bindings: values, options: { [PREPARE]: true }, __knexQueryUid: `s${++runs}` };
    const { response } = await client.query(connection, query);
    client.emit('query-response', response, query);
    return response.rows as Row[];
  } finally {
    await client.releaseConnection(connection);
  }
}
