// knex's pg dialect class, which knex does not type; src/db/prepared.ts extends it.
declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';
  export default class KnexPgClient extends Knex.Client {
    _query(connection: unknown, query: unknown): Promise<unknown>;
    /** Asks the server, on a connection of its own, to cancel what `connection` is running. */
    cancelQuery(connection: unknown): Promise<unknown>;
  }
}
