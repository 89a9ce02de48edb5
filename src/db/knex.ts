// The database handle: a pg pool for a real Postgres server, or the embedded PGlite database when no
// DATABASE_URL is set. Everything above this file sees one Knex interface and one set of row types.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import knex, { type Knex } from 'knex';
import type pg from 'pg';
import type { Logger } from 'pino';
import { parseDatabaseUrl } from '../kernel/databaseUrl.js';
import { tracingStarted } from '../kernel/tracing.js';
import { multiHostClientClass } from './multiHost.js';
import { PreparingPgClient } from './prepared.js';
import { traceEmbeddedStatements } from './statementSpans.js';
import { pgTypes, typeParsers } from './types.js';

export type Db = Knex;
/** What data-access functions take: the pool, or the transaction a mutation opened. */
export type DbOrTrx = Knex | Knex.Transaction;

interface DbOptions {
  /** postgres:// URL; null for the embedded database. */
  databaseUrl: string | null;
  /** Directory of the embedded database; null keeps it in memory (tests). */
  dataDir: string | null;
  poolMax?: number;
  /**
   * Postgres statement_timeout of every connection, in ms (0 or unset: none), sent when it connects.
   * With a directUrl, the pool's connections (through the pooler, which refuses it) send none: the
   * server's setting is theirs (decisions.md 30). PGlite: not applied.
   */
  statementTimeoutMs?: number;
  /** The hot statements as named prepared statements (default true); false behind a transaction pooler. */
  preparedStatements?: boolean;
  /**
   * The same database not through the pooler that databaseUrl is (DATABASE_DIRECT_URL): the connections
   * that need a session of their own (LISTEN) go there. Unset: databaseUrl.
   */
  directUrl?: string | null;
  /** How long opening one connection to one host may take (unset: no limit). PGlite: not applied. */
  connectTimeoutMs?: number;
  /** How long a query may wait for a pooled connection before it fails (knex's own default, 60 s, when unset). */
  acquireTimeoutMs?: number;
  /** Where knex's own warnings go (pool errors and the like); knex prints to the console otherwise. */
  logger?: Logger;
  /**
   * The embedded database starts from this dumped data directory (PGlite's dumpDataDir) instead of an
   * empty one. The tests start each file's database from one migrated image: PGlite's own initdb
   * costs about 2.5 s a database, loading the image about 0.9 s.
   */
  embeddedImage?: Blob;
}

function knexLog(logger: Logger | undefined): Knex.Config['log'] {
  if (!logger) return undefined;
  return {
    warn: (message: unknown) => logger.warn({ knex: String(message) }, 'knex warning'),
    error: (message: unknown) => logger.error({ knex: String(message) }, 'knex error'),
    deprecate: (message: unknown) => logger.warn({ knex: String(message) }, 'knex deprecation'),
    debug: (message: unknown) => logger.debug({ knex: String(message) }, 'knex debug'),
  };
}

const embeddedRequire = createRequire(import.meta.url);

/** What the pg pool's knex configuration carries beside knex's own settings (read by prepared.ts and directSessionConnection). */
interface PoolerSettings {
  preparedStatements: boolean;
  /** pg's settings for a connection of its own (a session) past the pooler: the direct URL's; absent without one. */
  sessionConnection?: pg.ClientConfig;
}

export function createDb(options: DbOptions): Db {
  return registerRoot(openKnex(options));
}

function openKnex(options: DbOptions): Db {
  if (options.databaseUrl !== null) {
    // A runaway statement is cancelled (SQLSTATE 57014, answered 503) instead of holding its connection.
    const timeout = options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {};
    const pooler: PoolerSettings = {
      preparedStatements: options.preparedStatements ?? true,
      ...(options.directUrl
        ? { sessionConnection: { connectionString: options.directUrl, types: pgTypes, ...timeout } }
        : {}),
    };
    // Several hosts, or a session that must take writes: each connection picks its host (src/db/multiHost.ts).
    const address = parseDatabaseUrl(options.databaseUrl);
    const failsOver = address.hostUrls.length > 1 || address.targetSessionAttrs !== 'any';
    return knex({
      client: (failsOver ? multiHostClientClass(address) : PreparingPgClient) as unknown as typeof knex.Client,
      connection: {
        connectionString: failsOver ? address.hostUrls[0] : options.databaseUrl,
        types: pgTypes,
        ...(options.directUrl ? {} : timeout),
        // A host that does not answer is given up (and the next one tried) instead of waited for.
        ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      },
      pool: { min: 0, max: options.poolMax ?? 10 },
      ...(options.acquireTimeoutMs ? { acquireConnectionTimeout: options.acquireTimeoutMs } : {}),
      // Error messages keep the SQL with placeholders, never the bound values (personal data).
      compileSqlOnError: false,
      log: knexLog(options.logger),
      ...pooler,
    } as Knex.Config);
  }
  if (options.dataDir !== null) mkdirSync(options.dataDir, { recursive: true });
  // The embedded database's code is loaded only when it is used: about 100 MB resident that a
  // service on Postgres does not carry, and devDependencies that a production install leaves out
  // (loadConfig stops with one line when they are missing: docs/decisions.md, section 31).
  // knex-pglite is CommonJS and requires PGlite's CommonJS build, so this file takes that same build
  // (one copy of PGlite in memory, not two).
  const { PGlite } = embeddedRequire('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  const ClientPgLite = embeddedRequire('knex-pglite') as typeof import('knex-pglite');
  const pglite = new PGlite({
    dataDir: options.dataDir ?? undefined,
    parsers: typeParsers,
    ...(options.embeddedImage ? { loadDataDir: options.embeddedImage } : {}),
  });
  const db = knex({
    client: ClientPgLite as unknown as typeof knex.Client,
    dialect: 'postgres',
    // knex-pglite takes a ready-made PGlite instance through a connection function.
    connection: (() => ({ pglite })) as unknown as Knex.StaticConnectionConfig,
    compileSqlOnError: false,
    log: knexLog(options.logger),
  });
  // No pg driver here for the pg instrumentation to see: the statements' spans come from knex's events.
  if (tracingStarted()) traceEmbeddedStatements(db);
  return db;
}

// A transaction's handle does not name the pool it came from; knex hands the pool's userParams object,
// by reference, to every transaction opened on it (nested ones too), so that object finds the pool.
const roots = new WeakMap<object, Db>();

/** Makes `db` the root that rootOf answers for its transactions; returns it. */
export function registerRoot(db: Db): Db {
  roots.set(db.userParams, db);
  return db;
}

/** The pool a handle belongs to (itself when it is one), or undefined for a pool createDb did not open. */
export function rootOf(handle: DbOrTrx): Db | undefined {
  return roots.get(handle.userParams) ?? (handle.isTransaction ? undefined : handle);
}

/**
 * For a transaction: resolves true once the outermost transaction (and every savepoint between) has
 * committed, false if any rolled back. For a pool handle (each statement its own commit): null.
 */
export function commitOf(handle: DbOrTrx): Promise<boolean> | null {
  if (!handle.isTransaction) return null;
  const levels: Promise<unknown>[] = [];
  for (let level: Knex.Transaction | undefined = handle as Knex.Transaction; level; level = level.parentTransaction) {
    if (level.executionPromise) levels.push(level.executionPromise);
  }
  return Promise.all(levels).then(
    () => true,
    () => false,
  );
}

export function isEmbedded(db: Db): boolean {
  return !(db.client instanceof PreparingPgClient);
}

/**
 * pg's settings for a session of its own on `db`'s database past its pooler (DATABASE_DIRECT_URL);
 * undefined without one: such a session is then opened as the pool opens its connections.
 */
export function directSessionConnection(db: Db): pg.ClientConfig | undefined {
  return (db.client.config as Partial<PoolerSettings>).sessionConnection;
}
