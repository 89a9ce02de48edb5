// A background task's own few connections to the service's database, beside the requests' pool: its
// statements never wait in the requests' queue, nor hold a request behind them. The same server, user
// and settings (statement timeout, type parsers) as the pool; the embedded database has one connection,
// so there the task shares it.
import knex from 'knex';
import { type Db, isEmbedded, registerRoot } from './knex.js';

/** A pool of at most `connections` beside `db`'s (0, or the embedded database: `db` itself), and its closing. */
export function ownConnections(db: Db, connections: number): { db: Db; close: () => Promise<void> } {
  if (connections === 0 || isEmbedded(db)) return { db, close: async () => {} };
  const own = registerRoot(knex({ ...db.client.config, pool: { min: 0, max: connections } }));
  return { db: own, close: () => own.destroy() };
}
