// Hot statements as named prepared statements on Postgres. A statement that runs on every request
// (the key's lookup, locating a customer, locking an order, a page of transactions) is parsed once
// per connection, and once Postgres settles on a generic plan (after five runs, when it is no worse
// than the custom ones) planned once too: planning the lookup's UNION ALL cost more than running it.
// The name is a hash of the SQL text, so one text is one statement on every connection. The embedded
// database ignores the mark.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import KnexPgClient from 'knex/lib/dialects/postgres/index.js';

const PREPARE = 'dfsPrepare';

/** Marks a hot query to run as a named prepared statement (see above). Only for a bounded set of SQL texts. */
export function prepared<Q extends Knex.QueryBuilder | Knex.Raw>(query: Q): Q {
  return query.options({ [PREPARE]: true }) as Q;
}

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

/** knex's pg client, running marked queries by name (pg sends Parse once per connection and name). */
export class PreparingPgClient extends KnexPgClient {
  override _query(connection: unknown, query: CompiledQuery): Promise<unknown> {
    if (query.options?.[PREPARE]) query.options = { name: statementName(query.sql) };
    return super._query(connection, query);
  }
}
