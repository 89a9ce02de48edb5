// The environment, parsed and validated once at start. Nothing else in the code reads process.env:
// a bad value stops the process here with a message naming the variable. The service's roles read
// everything (loadConfig); the command line tools read all but the secrets (loadCommandConfig), so the
// release step runs with the database alone (decisions.md 27).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { parseTrustProxy, type TrustProxy } from './clientAddress.js';
import { ConfigError, type Env } from './configError.js';
import { type DatabaseAddress, parseDatabaseUrl } from './databaseUrl.js';
import { DEFAULT_LIMITS, GRAPHQL_LIMIT_FLOORS, type LimitSettings, REDIS_RESERVE } from './limitSettings.js';
import { loadServiceSecrets, type ServiceSecrets } from './serviceSecrets.js';
import { OTLP_PROTOCOLS, otlpProtocol, otlpProtocolVariable, tracingEnabled } from './tracingSettings.js';
import { readTrustedDocuments, type TrustedDocuments } from './trustedDocuments.js';

export { ConfigError } from './configError.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Settings the service no longer reads, each with what runs instead: a start that still sets one goes
 * on, and says so once (main.ts), so the line can be removed (decisions.md 42).
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  GRAPHQL_EXECUTOR:
    'graphql-jit executes every query and mutation; graphql-js runs only what jit cannot compile or would answer otherwise',
};

/** What a process runs (decisions.md 27): the doors, the background jobs, or both. */
type ServiceRole = 'api' | 'worker' | 'all';
const SERVICE_ROLES: readonly ServiceRole[] = ['api', 'worker', 'all'];

/** Every setting but the secrets: what a command line tool reads (the database, the data folder, the log level...). */
export interface CommandConfig {
  port: number;
  host: string;
  /** postgres:// URL of a real server; null means the embedded PGlite database under dataDir. */
  databaseUrl: string | null;
  databasePoolMax: number;
  /** redis:// URL of the store that shares the request limits between instances; null: Postgres (or memory on PGlite). */
  redisUrl: string | null;
  /**
   * Places of an API key's count one admission in Redis may reserve for this instance
   * (RATE_LIMIT_REDIS_RESERVE, decisions.md 53); 1: every request counted in Redis.
   */
  redisReserve: number;
  /** postgres:// URL of a streaming read replica of databaseUrl (DATABASE_REPLICA_URL); null: none. */
  databaseReplicaUrl: string | null;
  /** A replica further behind than this is skipped, its reads sent to the primary (DATABASE_REPLICA_MAX_LAG_SECONDS). */
  databaseReplicaMaxLagSeconds: number;
  /** DATABASE_PREPARED_STATEMENTS: the hot statements as named prepared statements (off behind a transaction pooler: decisions.md 30). */
  databasePreparedStatements: boolean;
  /** DATABASE_DIRECT_URL: the same database not through the pooler, for what needs a session (LISTEN, the commands); null: DATABASE_URL. */
  databaseDirectUrl: string | null;
  dataDir: string;
  production: boolean;
  logLevel: LogLevel;
  tokenTtlSeconds: number;
  /** Requests per API key, failed authentications per address, GraphQL document limits (src/pipeline/). */
  limits: LimitSettings;
  /** Express's `trust proxy`: which proxies' X-Forwarded-For gives the client address. */
  trustProxy: TrustProxy;
  /** Exact browser origins allowed to call /graphql (CORS); empty: no CORS headers. */
  corsOrigins: string[];
  /** The whole HTTP request must arrive within this (the server's requestTimeout). */
  requestTimeoutMs: number;
  /** After SIGTERM, /readyz answers 503 for this long before the listener closes (balancers stop sending first). */
  drainDelayMs: number;
  /** Postgres statement_timeout of the service's connections; 0 turns it off. Not applied to PGlite. */
  databaseStatementTimeoutMs: number;
  /** How long opening one connection to one database host may take (DATABASE_CONNECT_TIMEOUT_MS). */
  databaseConnectTimeoutMs: number;
  /** Events are kept this many days, then purged (at least 1). */
  eventRetentionDays: number;
  /** The most days back the worker makes a partner's missing daily snapshots (decisions.md 45). */
  portfolioBackfillDays: number;
  /** A report run's file is kept this many days after it succeeded (REPORT_RETENTION_DAYS; decisions.md 45). */
  reportRetentionDays: number;
  /** RUNNING report runs a partner may have at once; more wait (REPORT_RUNS_PER_PARTNER). */
  reportRunsPerPartner: number;
  /** Whether the api role serves /console (CONSOLE_ENABLED, true by default; decisions.md 46). */
  consoleEnabled: boolean;
  /** The RETIRED_SETTINGS this environment still sets: ignored, each said once at start. */
  retiredSettings: string[];
  /** The webhook worker's timing (WEBHOOK_*); absent fields take its defaults (docs/integrating.md#webhooks). */
  webhookDelivery: WebhookDeliveryTiming;
  /** The ports production deliveries may use (WEBHOOK_ALLOWED_PORTS); 443 by default. */
  webhookAllowedPorts: number[];
  /** GRAPHQL_TRUSTED_DOCUMENTS's manifest: what non-operator callers may run (decisions.md 33); null: anything. */
  trustedDocuments: TrustedDocuments | null;
  /** --role or SERVICE_ROLE: api (the doors), worker (the jobs, and the probes and metrics only) or all. */
  role: ServiceRole;
  /** After the drain delay, the shutdown's steps must finish within this, or the process exits 1 naming the step. */
  shutdownTimeoutMs: number;
}

/** What the service's roles read: every setting, and the secrets they sign and seal with (serviceSecrets.ts). */
export interface Config extends CommandConfig, ServiceSecrets {}

/** What the command line of src/main.ts may set; it wins over the environment. */
export interface CommandLineSettings {
  role?: string;
}

interface WebhookDeliveryTiming {
  scheduleMs?: number[];
  pollMs?: number;
  leaseMs?: number;
  maxConcurrent?: number;
  maxPerEndpoint?: number;
  maxConcurrentUnderLoad?: number;
  databaseConnections?: number;
  fanOutBatch?: number;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function databaseUrl(env: Env, name = 'DATABASE_URL'): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let address: DatabaseAddress;
  try {
    address = parseDatabaseUrl(raw);
  } catch (error) {
    throw new ConfigError(name, (error as Error).message);
  }
  // The replica's pool and monitor read one server (a standby); several hosts are the primary's failover list.
  if (name !== 'DATABASE_URL' && address.hostUrls.length > 1) {
    throw new ConfigError(name, 'must name one host (several hosts are for DATABASE_URL, the primary that fails over)');
  }
  return raw;
}

/**
 * A second URL of DATABASE_URL's database (DATABASE_REPLICA_URL: its replica; DATABASE_DIRECT_URL: the
 * same database past its pooler): the embedded database has neither, so it is refused without
 * DATABASE_URL, the message ending with `why`.
 */
function secondDatabaseUrl(env: Env, name: string, primaryUrl: string | null, why: string): string | null {
  const raw = databaseUrl(env, name);
  if (raw !== null && primaryUrl === null) throw new ConfigError(name, `needs DATABASE_URL ${why}`);
  return raw;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new ConfigError(name, `must be on or off, got "${raw}"`);
}

/** A setting named as a yes-or-no question (CONSOLE_ENABLED): true or false. */
function trueFalse(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function redisUrl(env: Env): string | null {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('REDIS_URL', 'is not a valid URL (expected redis://[user:password@]host:port[/db])');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError('REDIS_URL', `must start with redis:// or rediss://, got "${url.protocol}//"`);
  }
  if (url.hostname === '') throw new ConfigError('REDIS_URL', 'names no host');
  return raw;
}

/** CORS_ORIGINS: comma-separated http(s) origins, each exactly scheme://host[:port]. */
function corsOrigins(env: Env): string[] {
  const raw = env.CORS_ORIGINS;
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const candidate = entry.trim();
    let url: URL | undefined;
    try {
      url = new URL(candidate);
    } catch {
      url = undefined;
    }
    // An origin has no path, query, fragment or credentials: its URL's origin is the text itself.
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== candidate.toLowerCase()) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `must be comma-separated origins such as https://dashboard.example.com, got "${candidate}"`,
      );
    }
    return url.origin;
  });
}

const DAY_SECONDS = 24 * 3600;

/** RATE_LIMIT_*, AUTH_FAILURE_*, GRAPHQL_MAX_*, SUBSCRIPTION*, WEBSOCKET_*, WEBHOOK_TOOL_*, PAYMENT_REFERENCE_FAILURE_LIMIT; a GraphQL limit may not go below what the legacy operations need. */
function limits(env: Env): LimitSettings {
  const {
    requestsPerKey,
    authFailuresPerAddress,
    anonymousPerAddress,
    graphql,
    subscriptions,
    websocket,
    webhookTools,
    paymentReferenceFailures,
  } = DEFAULT_LIMITS;
  const floors = GRAPHQL_LIMIT_FLOORS;
  return {
    requestsPerKey: {
      limit: integer(env, 'RATE_LIMIT_REQUESTS', requestsPerKey.limit, 1, 1_000_000),
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', requestsPerKey.windowSeconds, 1, DAY_SECONDS),
    },
    authFailuresPerAddress: {
      limit: integer(env, 'AUTH_FAILURE_LIMIT', authFailuresPerAddress.limit, 1, 1_000_000),
      windowSeconds: integer(env, 'AUTH_FAILURE_WINDOW_SECONDS', authFailuresPerAddress.windowSeconds, 1, DAY_SECONDS),
    },
    anonymousPerAddress: {
      limit: integer(env, 'ANONYMOUS_RATE_LIMIT_REQUESTS', anonymousPerAddress.limit, 1, 1_000_000),
      windowSeconds: integer(
        env,
        'ANONYMOUS_RATE_LIMIT_WINDOW_SECONDS',
        anonymousPerAddress.windowSeconds,
        1,
        DAY_SECONDS,
      ),
    },
    graphql: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', graphql.maxDepth, floors.maxDepth, 1000),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', graphql.maxAliases, floors.maxAliases, 100_000),
      maxCost: integer(env, 'GRAPHQL_MAX_COST', graphql.maxCost, floors.maxCost, 1_000_000_000),
      maxTokens: integer(env, 'GRAPHQL_MAX_TOKENS', graphql.maxTokens, floors.maxTokens, 1_000_000),
      maxListItems: integer(env, 'GRAPHQL_MAX_LIST_ITEMS', graphql.maxListItems, floors.maxListItems, 10_000_000),
    },
    subscriptions: {
      perKey: integer(env, 'SUBSCRIPTIONS_PER_KEY', subscriptions.perKey, 1, 10_000),
      maxQueuedEvents: integer(env, 'SUBSCRIPTION_MAX_QUEUED_EVENTS', subscriptions.maxQueuedEvents, 1, 1_000_000),
      maxBufferedBytes: integer(env, 'SUBSCRIPTION_MAX_BUFFERED_BYTES', subscriptions.maxBufferedBytes, 1024, 2 ** 30),
    },
    websocket: {
      // At least connection_init and one subscribe fit in a window.
      messagesPerConnection: {
        limit: integer(env, 'WEBSOCKET_MESSAGE_LIMIT', websocket.messagesPerConnection.limit, 2, 1_000_000),
        windowSeconds: integer(
          env,
          'WEBSOCKET_MESSAGE_WINDOW_SECONDS',
          websocket.messagesPerConnection.windowSeconds,
          1,
          DAY_SECONDS,
        ),
      },
      connectionsPerKey: integer(env, 'WEBSOCKET_CONNECTIONS_PER_KEY', websocket.connectionsPerKey, 1, 100_000),
      unauthenticatedPerAddress: integer(
        env,
        'WEBSOCKET_UNAUTHENTICATED_PER_ADDRESS',
        websocket.unauthenticatedPerAddress,
        1,
        100_000,
      ),
      recheckSeconds: integer(env, 'WEBSOCKET_RECHECK_SECONDS', websocket.recheckSeconds, 1, DAY_SECONDS),
    },
    // Webhook tools: counts per 60 s (the window is fixed).
    webhookTools: {
      perKey: {
        limit: integer(env, 'WEBHOOK_TOOL_LIMIT_PER_KEY', webhookTools.perKey.limit, 1, 100_000),
        windowSeconds: webhookTools.perKey.windowSeconds,
      },
      perEndpoint: {
        limit: integer(env, 'WEBHOOK_TOOL_LIMIT_PER_ENDPOINT', webhookTools.perEndpoint.limit, 1, 100_000),
        windowSeconds: webhookTools.perEndpoint.windowSeconds,
      },
    },
    // Refused payment references per key: counts per 60 s (the window is fixed).
    paymentReferenceFailures: {
      limit: integer(env, 'PAYMENT_REFERENCE_FAILURE_LIMIT', paymentReferenceFailures.limit, 1, 100_000),
      windowSeconds: paymentReferenceFailures.windowSeconds,
    },
  };
}

/** The retired settings `env` sets (to anything, even empty: it was written for a reason). */
export function retiredSettingsIn(env: Env): string[] {
  return Object.keys(RETIRED_SETTINGS).filter((name) => env[name] !== undefined);
}

/**
 * The role from --role (which wins) or SERVICE_ROLE; all when neither. api and worker are separate
 * processes sharing one database, which the embedded database (one process's) cannot be.
 */
function serviceRole(env: Env, commandLine: CommandLineSettings, embedded: boolean): ServiceRole {
  const source = commandLine.role !== undefined ? '--role' : 'SERVICE_ROLE';
  const raw = commandLine.role ?? env.SERVICE_ROLE;
  if (raw === undefined || raw === '') return 'all';
  if (!(SERVICE_ROLES as readonly string[]).includes(raw)) {
    throw new ConfigError(source, `must be api, worker or all, got "${raw}"`);
  }
  if (raw !== 'all' && embedded) {
    throw new ConfigError(source, `${raw} needs DATABASE_URL: the embedded database serves one process (use all)`);
  }
  return raw as ServiceRole;
}

function trustProxy(env: Env): TrustProxy {
  const parsed = parseTrustProxy(env.TRUST_PROXY ?? '');
  if (parsed === undefined) {
    throw new ConfigError(
      'TRUST_PROXY',
      `must be true, false, a number of proxy hops, or comma-separated proxy addresses or subnets (or loopback, linklocal, uniquelocal), got "${env.TRUST_PROXY}"`,
    );
  }
  return parsed;
}

/**
 * WEBHOOK_RETRY_SCHEDULE_MS (comma-separated waits), WEBHOOK_POLL_MS, WEBHOOK_LEASE_MS (tests make them
 * short), the worker's own connections (WEBHOOK_DATABASE_CONNECTIONS) and its concurrency:
 * WEBHOOK_MAX_CONCURRENT, WEBHOOK_MAX_PER_ENDPOINT and WEBHOOK_MAX_CONCURRENT_UNDER_LOAD, neither of the
 * last two above the first (its default, 16, when unset); WEBHOOK_FAN_OUT_BATCH, the events the
 * fan-out takes in one transaction.
 */
function webhookDelivery(env: Env): WebhookDeliveryTiming {
  const timing: WebhookDeliveryTiming = {};
  const schedule = env.WEBHOOK_RETRY_SCHEDULE_MS;
  if (schedule !== undefined && schedule !== '') {
    const waits = schedule.split(',').map((entry) => entry.trim());
    if (!waits.every((wait) => /^\d{1,9}$/.test(wait))) {
      throw new ConfigError('WEBHOOK_RETRY_SCHEDULE_MS', `must be comma-separated milliseconds, got "${schedule}"`);
    }
    timing.scheduleMs = waits.map(Number);
  }
  if (env.WEBHOOK_POLL_MS) timing.pollMs = integer(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000);
  if (env.WEBHOOK_LEASE_MS) timing.leaseMs = integer(env, 'WEBHOOK_LEASE_MS', 120_000, 1000, 3_600_000);
  if (env.WEBHOOK_FAN_OUT_BATCH) timing.fanOutBatch = integer(env, 'WEBHOOK_FAN_OUT_BATCH', 500, 1, 10_000);
  if (env.WEBHOOK_DATABASE_CONNECTIONS) {
    timing.databaseConnections = integer(env, 'WEBHOOK_DATABASE_CONNECTIONS', 2, 0, 100);
  }
  const total = integer(env, 'WEBHOOK_MAX_CONCURRENT', 16, 1, 1000);
  if (env.WEBHOOK_MAX_CONCURRENT) timing.maxConcurrent = total;
  for (const [name, field] of [
    ['WEBHOOK_MAX_PER_ENDPOINT', 'maxPerEndpoint'],
    ['WEBHOOK_MAX_CONCURRENT_UNDER_LOAD', 'maxConcurrentUnderLoad'],
  ] as const) {
    if (!env[name]) continue;
    timing[field] = integer(env, name, 1, 1, 1000);
    if (timing[field] > total) {
      throw new ConfigError(name, `must be at most WEBHOOK_MAX_CONCURRENT (${total}), got "${env[name]}"`);
    }
  }
  return timing;
}

/** WEBHOOK_ALLOWED_PORTS: comma-separated ports production deliveries may use (443 when unset). */
function webhookAllowedPorts(env: Env): number[] {
  const raw = env.WEBHOOK_ALLOWED_PORTS;
  if (raw === undefined || raw.trim() === '') return [443];
  const ports = raw.split(',').map((entry) => entry.trim());
  if (!ports.every((port) => /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535)) {
    throw new ConfigError('WEBHOOK_ALLOWED_PORTS', `must be comma-separated ports (1 to 65535), got "${raw}"`);
  }
  return [...new Set(ports.map(Number))];
}

/**
 * The embedded database's packages: devDependencies, which src/db/knex.ts requires only when no
 * DATABASE_URL is set, so a production install (npm ci --omit=dev) has none (docs/decisions.md, section 31).
 */
export const EMBEDDED_DATABASE_PACKAGES = ['@electric-sql/pglite', 'knex-pglite'] as const;

/** Whether the embedded database's packages resolve from here, as src/db/knex.ts requires them. */
function embeddedDatabaseInstalled(): boolean {
  const require = createRequire(import.meta.url);
  return EMBEDDED_DATABASE_PACKAGES.every((name) => {
    try {
      require.resolve(name);
      return true;
    } catch {
      return false;
    }
  });
}

/** The service's configuration: every setting and every secret (a missing one in production stops the start). */
export function loadConfig(env: Env = process.env, commandLine: CommandLineSettings = {}): Config {
  const settings = loadCommandConfig(env, commandLine);
  return { ...settings, ...loadServiceSecrets(env, settings) };
}

/**
 * A command line tool's configuration: every setting but the secrets, so in production a command runs
 * with DATABASE_URL alone; the one command that needs a secret reads it itself (serviceSecrets.ts).
 */
export function loadCommandConfig(env: Env = process.env, commandLine: CommandLineSettings = {}): CommandConfig {
  const nodeEnv = env.NODE_ENV ?? 'development';
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    throw new ConfigError('NODE_ENV', `must be production, development or test, got "${nodeEnv}"`);
  }
  const production = nodeEnv === 'production';

  const logLevel = (env.LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }

  const dbUrl = databaseUrl(env);
  // The embedded database is for trying the service, never for running it for real.
  if (production && dbUrl === null) throw new ConfigError('DATABASE_URL', 'is required when NODE_ENV=production');
  // A production install (npm ci --omit=dev) leaves the embedded database out (docs/decisions.md, section 31).
  if (dbUrl === null && !embeddedDatabaseInstalled()) {
    throw new ConfigError(
      'DATABASE_URL',
      `is not set and the embedded database is not installed (a production install leaves it out): set DATABASE_URL or install it: npm install --no-save ${EMBEDDED_DATABASE_PACKAGES.join(' ')}`,
    );
  }
  if (tracingEnabled(env) && otlpProtocol(env) === null) {
    const variable = otlpProtocolVariable(env);
    throw new ConfigError(
      variable,
      `must be ${OTLP_PROTOCOLS.join(' or ')}, got "${env[variable]?.trim()}" (traces are exported over OTLP/HTTP only, a collector's port 4318)`,
    );
  }

  const dataDir = resolve(env.DATA_DIR || './.data');
  // Outside production the service answers this machine only, unless HOST says otherwise (e.g. 0.0.0.0).
  const host = env.HOST || (production ? '0.0.0.0' : '127.0.0.1');

  return {
    port: integer(env, 'PORT', 4000, 0, 65535),
    host,
    databaseUrl: dbUrl,
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    redisUrl: redisUrl(env),
    redisReserve: integer(env, 'RATE_LIMIT_REDIS_RESERVE', REDIS_RESERVE, 1, 1000),
    databaseReplicaUrl: secondDatabaseUrl(
      env,
      'DATABASE_REPLICA_URL',
      dbUrl,
      '(the primary it replicates); the embedded database has no replica',
    ),
    databaseReplicaMaxLagSeconds: integer(env, 'DATABASE_REPLICA_MAX_LAG_SECONDS', 5, 0, 86_400),
    databasePreparedStatements: onOff(env, 'DATABASE_PREPARED_STATEMENTS', true),
    databaseDirectUrl: secondDatabaseUrl(
      env,
      'DATABASE_DIRECT_URL',
      dbUrl,
      '(the pooled URL it bypasses); the embedded database has no pooler',
    ),
    dataDir,
    production,
    logLevel,
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 3600, 1, 30 * 24 * 3600),
    limits: limits(env),
    trustProxy: trustProxy(env),
    corsOrigins: corsOrigins(env),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000),
    drainDelayMs: integer(env, 'DRAIN_DELAY_MS', 0, 0, 600_000),
    databaseStatementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 15_000, 0, 3_600_000),
    databaseConnectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
    webhookDelivery: webhookDelivery(env),
    webhookAllowedPorts: webhookAllowedPorts(env),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 1, 3650),
    portfolioBackfillDays: integer(env, 'PORTFOLIO_BACKFILL_DAYS', 400, 1, 3650),
    reportRetentionDays: integer(env, 'REPORT_RETENTION_DAYS', 30, 1, 3650),
    reportRunsPerPartner: integer(env, 'REPORT_RUNS_PER_PARTNER', 2, 1, 100),
    consoleEnabled: trueFalse(env, 'CONSOLE_ENABLED', true),
    retiredSettings: retiredSettingsIn(env),
    trustedDocuments: trustedDocuments(env),
    role: serviceRole(env, commandLine, dbUrl === null),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 25_000, 100, 3_600_000),
  };
}

/** GRAPHQL_TRUSTED_DOCUMENTS: the manifest's file, read and checked now; unset or empty: the mode is off. */
function trustedDocuments(env: Env): TrustedDocuments | null {
  const file = env.GRAPHQL_TRUSTED_DOCUMENTS?.trim();
  if (!file) return null;
  try {
    return readTrustedDocuments(file);
  } catch (error) {
    throw new ConfigError('GRAPHQL_TRUSTED_DOCUMENTS', (error as Error).message);
  }
}
