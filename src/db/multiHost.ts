// A pool over a database that fails over (DATABASE_URL naming several hosts, target_session_attrs=read-write:
// decisions.md 29). node-postgres 8 connects to one host, so each new connection here tries the hosts
// itself, as libpq would: the host that last took writes first, then the others in the URL's order;
// it keeps the first whose session takes writes (SHOW transaction_read_only is off: a standby, and a
// standby being promoted, say on) and closes the others. A connection that failed, or met a read-only
// server under a statement, is marked disposed, so the pool never hands it out again.
import type pg from 'pg';
import type { DatabaseAddress } from '../kernel/databaseUrl.js';
import { isDatabaseUnavailable } from '../kernel/errors.js';
import { PreparingPgClient } from './prepared.js';

/** What knex's pg dialect keeps on the client (untyped there): the driver and the pool's connection settings. */
interface KnexPgInternals {
  driver: typeof pg;
  connectionSettings: pg.ClientConfig;
}

/** A connection knex's pool drops at its next validation (knex sets the same mark on 'error' and 'end'). */
type PooledConnection = pg.Client & { __knex__disposed?: unknown };

/** No host of the list took a read-write session now: SQLSTATE 08001, as libpq, which the doors answer 503. */
class NoWritableHostError extends Error {
  readonly code = '08001';
  constructor(failures: string[]) {
    super(`no database host takes writes now (${failures.join('; ')})`);
    this.name = 'NoWritableHostError';
  }
}

const silence = () => undefined;

/** knex's pg client over the hosts of `address`, keeping only sessions that take writes when it asks for them. */
export function multiHostClientClass(address: DatabaseAddress): typeof PreparingPgClient {
  const { hostUrls, hostNames, targetSessionAttrs } = address;
  // The host each connection was opened on, for cancelling its statement on that same server.
  const hostOf = new WeakMap<object, number>();
  // The host that last took writes: tried first, so a dead first host costs nothing once another is kept.
  let kept = 0;

  return class MultiHostPgClient extends PreparingPgClient {
    /** One connection to host `index`, watched as knex watches its own (an error or an end marks it disposed). */
    async connectTo(index: number): Promise<PooledConnection> {
      const { driver, connectionSettings } = this as unknown as KnexPgInternals;
      const connection: PooledConnection = new driver.Client({
        ...connectionSettings,
        connectionString: hostUrls[index],
      });
      connection.on('error', (error) => {
        connection.__knex__disposed = error;
      });
      connection.on('end', () => {
        connection.__knex__disposed ??= 'Connection ended unexpectedly';
      });
      await connection.connect();
      hostOf.set(connection, index);
      return connection;
    }

    // Overrides knex's own (which opens one connection to the one host of its settings).
    async _acquireOnlyConnection(): Promise<PooledConnection> {
      const failures: string[] = [];
      const order = [kept, ...hostUrls.keys()].filter((index, position, all) => all.indexOf(index) === position);
      for (const index of order) {
        let connection: PooledConnection | undefined;
        try {
          connection = await this.connectTo(index);
          if (targetSessionAttrs === 'read-write') {
            const { rows } = await connection.query<{ transaction_read_only: string }>('show transaction_read_only');
            if (rows[0]?.transaction_read_only !== 'off') {
              failures.push(`${hostNames[index]} is read-only`);
              await connection.end().catch(silence);
              continue;
            }
          }
          kept = index;
          return connection;
        } catch (error) {
          failures.push(`${hostNames[index]}: ${(error as Error).message}`);
          connection?.on('error', silence);
          await connection?.end().catch(silence);
        }
      }
      throw new NoWritableHostError(failures);
    }

    // knex cancels on a new connection of the pool's choosing; after a failover that could be another server,
    // where the same process id is someone else's statement. Here it is the connection's own host.
    override async cancelQuery(connectionToKill: unknown): Promise<unknown> {
      const index = hostOf.get(connectionToKill as object);
      if (index === undefined) return undefined;
      const connection = await this.connectTo(index);
      try {
        return await connection.query('select pg_cancel_backend($1)', [
          (connectionToKill as { processID: number }).processID,
        ]);
      } finally {
        await connection.end().catch(silence);
      }
    }

    override async _query(connection: unknown, query: Parameters<PreparingPgClient['_query']>[1]): Promise<unknown> {
      try {
        return await super._query(connection, query);
      } catch (error) {
        // 25006: this server no longer takes writes (a demoted primary); the pool must not reuse the connection.
        // A statement timeout (57014) leaves a sound connection.
        const code = (error as { code?: unknown }).code;
        if (code === '25006' || (code !== '57014' && isDatabaseUnavailable(error))) {
          (connection as PooledConnection).__knex__disposed ??= error;
        }
        throw error;
      }
    }
  } as unknown as typeof PreparingPgClient;
}
