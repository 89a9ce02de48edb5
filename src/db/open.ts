// Opens the configured database: the pg pool, or the embedded PGlite files under DATA_DIR.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { CommandConfig } from '../kernel/config.js';
import { parseDatabaseUrl } from '../kernel/databaseUrl.js';
import { lockDataDir } from './dataDirLock.js';
import { createDb, type Db } from './knex.js';
import { openReadReplica, type ReadReplica } from './replica.js';

/**
 * The service passes `statementTimeoutMs` (DATABASE_STATEMENT_TIMEOUT_MS); the command-line tools
 * (migrations, ledger check) do not, since a long migration or a whole-database check is expected.
 * They pass `direct`: their connections skip the pooler of DATABASE_URL for DATABASE_DIRECT_URL, whose
 * timeouts are not meant for a migration (decisions.md 30).
 * A query waits for a pooled connection at most half of REQUEST_TIMEOUT_MS (the other half is its
 * statements'), so a database that is gone is answered 503 before the client's request times out.
 */
export function openDatabase(
  config: CommandConfig,
  logger?: Logger,
  options: { statementTimeoutMs?: number; direct?: boolean } = {},
): Db {
  const direct = options.direct && config.databaseDirectUrl !== null;
  const dataDir = config.databaseUrl === null ? join(config.dataDir, 'pglite') : null;
  if (dataDir !== null) {
    // One process per embedded folder: a second one is refused (DataDirInUse) before PGlite opens it.
    mkdirSync(config.dataDir, { recursive: true });
    lockDataDir(dataDir);
  }
  const db = createDb({
    databaseUrl: direct ? config.databaseDirectUrl : config.databaseUrl,
    dataDir,
    poolMax: config.databasePoolMax,
    statementTimeoutMs: options.statementTimeoutMs,
    preparedStatements: direct || config.databasePreparedStatements,
    directUrl: direct ? null : config.databaseDirectUrl,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    acquireTimeoutMs: Math.floor(config.requestTimeoutMs / 2),
    logger,
  });
  if (!direct && config.databaseDirectUrl !== null && options.statementTimeoutMs && logger) {
    void checkPooledStatementTimeout(db, options.statementTimeoutMs, logger);
  }
  return db;
}

/**
 * Through a pooler the pool's connections carry the server's statement_timeout, not the configured one
 * (PgBouncer refuses it as a startup parameter): a difference is logged once, with the fix.
 */
export async function checkPooledStatementTimeout(db: Db, expectedMs: number, logger: Logger): Promise<boolean> {
  try {
    const { rows } = await db.raw<{ rows: Array<{ setting: string }> }>(
      "select setting from pg_settings where name = 'statement_timeout'",
    );
    const actualMs = Number(rows[0]?.setting);
    if (actualMs === expectedMs) return true;
    logger.warn(
      { configuredMs: expectedMs, pooledMs: actualMs },
      'the pooled connections have another statement timeout than DATABASE_STATEMENT_TIMEOUT_MS: the pooler does not pass it on; set it on the server: ALTER ROLE <user> IN DATABASE <database> SET statement_timeout = <ms>',
    );
    return false;
  } catch (error) {
    // The database is not there yet: the startup check and /readyz say so.
    logger.debug({ err: error }, 'the pooled statement timeout could not be read');
    return false;
  }
}

export function describeDatabase(config: CommandConfig): string {
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
  config: CommandConfig,
  primary: Db,
  options: { logger?: Logger; statementTimeoutMs?: number; onFallback?: () => void } = {},
): ReadReplica | undefined {
  if (config.databaseReplicaUrl === null) return undefined;
  return openReadReplica({
    url: config.databaseReplicaUrl,
    primary,
    maxLagSeconds: config.databaseReplicaMaxLagSeconds,
    poolMax: config.databasePoolMax,
    preparedStatements: config.databasePreparedStatements,
    ...options,
  });
}
