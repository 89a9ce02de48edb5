// Opens the configured database: the pg pool, or the embedded PGlite files under DATA_DIR.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../kernel/config.js';
import { lockDataDir } from './dataDirLock.js';
import { createDb, type Db } from './knex.js';
import { openReadReplica, type ReadReplica } from './replica.js';

/**
 * The service passes `statementTimeoutMs` (DATABASE_STATEMENT_TIMEOUT_MS); the command-line tools
 * (migrations, ledger check) do not, since a long migration or a whole-database check is expected.
 */
export function openDatabase(config: Config, logger?: Logger, options: { statementTimeoutMs?: number } = {}): Db {
  const dataDir = config.databaseUrl === null ? join(config.dataDir, 'pglite') : null;
  if (dataDir !== null) {
    // One process per embedded folder: a second one is refused (DataDirInUse) before PGlite opens it.
    mkdirSync(config.dataDir, { recursive: true });
    lockDataDir(dataDir);
  }
  return createDb({
    databaseUrl: config.databaseUrl,
    dataDir,
    poolMax: config.databasePoolMax,
    statementTimeoutMs: options.statementTimeoutMs,
    logger,
  });
}

export function describeDatabase(config: Config): string {
  if (config.databaseUrl === null) return `embedded PGlite in ${join(config.dataDir, 'pglite')}`;
  // Never print the password.
  const where = (raw: string) => {
    const url = new URL(raw);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
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
