// Opens the configured database: the pg pool, or the embedded PGlite files under DATA_DIR.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../kernel/config.js';
import { parseDatabaseUrl } from '../kernel/databaseUrl.js';
import { createDb, type Db } from './knex.js';
import { openReadReplica, type ReadReplica } from './replica.js';

/**
 * The service passes `statementTimeoutMs` (DATABASE_STATEMENT_TIMEOUT_MS); the command-line tools
 * (migrations, ledger check) do not, since a long migration or a whole-database check is expected.
 * A query waits for a pooled connection at most half of REQUEST_TIMEOUT_MS (the other half is its
 * statements'), so a database that is gone is answered 503 before the client's request times out.
 */
export function openDatabase(config: Config, logger?: Logger, options: { statementTimeoutMs?: number } = {}): Db {
  return createDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl === null ? join(config.dataDir, 'pglite') : null,
    poolMax: config.databasePoolMax,
    statementTimeoutMs: options.statementTimeoutMs,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    acquireTimeoutMs: Math.floor(config.requestTimeoutMs / 2),
    logger,
  });
}

export function describeDatabase(config: Config): string {
  if (config.databaseUrl === null) return `embedded PGlite in ${join(config.dataDir, 'pglite')}`;
  // Never print the password; a failover list names each host.
  const where = (raw: string) => {
    const { hostNames, hostUrls } = parseDatabaseUrl(raw);
    return `${hostNames.join(',')}${new URL(hostUrls[0]!).pathname}`;
  };
  const replica = config.databaseReplicaUrl === null ? '' : `, read replica at ${where(config.databaseReplicaUrl)}`;
  return `Postgres at ${where(config.databaseUrl)}${replica}`;
}

/** The read replica of DATABASE_REPLICA_URL, with its monitor running; undefined without one. */
export function openConfiguredReplica(
  config: Config,
  primary: Db,
  options: { logger?: Logger; statementTimeoutMs?: number; onFallback?: () => void } = {},
): ReadReplica | undefined {
  if (config.databaseReplicaUrl === null) return undefined;
  return openReadReplica({
    url: config.databaseReplicaUrl,
    primary,
    maxLagSeconds: config.databaseReplicaMaxLagSeconds,
    poolMax: config.databasePoolMax,
    ...options,
  });
}
