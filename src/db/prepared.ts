// Hot statements as named prepared statements on Postgres. A statement that runs on every request
// (the key's lookup, locating a customer, locking an order, a page of transactions) is parsed once
// per connection, and once Postgres settles on a generic plan (after five runs, when it is no worse
// than the custom ones) planned once too: planning the lookup's UNION ALL cost more than running it.
// The name is a hash of the SQL text, so one text is one statement on every connection. The embedded
// database ignores the mark. A long read can also be tied to a signal (its client went away): Postgres
// is then asked to cancel it.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import KnexPgClient from 'knex/lib/dialects/postgres/index.js';
import { AppError } from '../errors.js';

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

/** knex's pg client, running marked queries by name (pg sends Parse once per connection and name) and cancelling abandoned ones. */
export class PreparingPgClient extends KnexPgClient {
  override async _query(connection: unknown, query: CompiledQuery): Promise<unknown> {
    const { [PREPARE]: prepare, [SIGNAL]: signal, ...options } = query.options ?? {};
    query.options = prepare ? { ...options, name: statementName(query.sql) } : options;
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
