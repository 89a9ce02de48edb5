// Opens the configured database: the pg pool, or the embedded PGlite files under DATA_DIR.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createDb, type Db } from './knex.js';

/**
 * The service passes `statementTimeoutMs` (DATABASE_STATEMENT_TIMEOUT_MS); the command-line tools
 * (migrations, ledger check) do not, since a long migration or a whole-database check is expected.
 */
export function openDatabase(config: Config, logger?: Logger, options: { statementTimeoutMs?: number } = {}): Db {
  return createDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl === null ? join(config.dataDir, 'pglite') : null,
    poolMax: config.databasePoolMax,
    statementTimeoutMs: options.statementTimeoutMs,
    logger,
  });
}

export function describeDatabase(config: Config): string {
  if (config.databaseUrl === null) return `embedded PGlite in ${join(config.dataDir, 'pglite')}`;
  const url = new URL(config.databaseUrl);
  // Never print the password.
  return `Postgres at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
