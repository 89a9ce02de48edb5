import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadCommandConfig, loadConfig, RETIRED_SETTINGS } from './config.js';
import { tracingEnabled } from './tracingSettings.js';

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'dfs-config-'));
  tempDirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const SECRET = 'x'.repeat(40);
const DEVICE_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ format: 'der', type: 'pkcs8' })
  .toString('base64url');
const SEALING_KEY = randomBytes(32).toString('base64url');

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults: port 4000, embedded database, one-hour tokens', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      port: 4000,
      host: '127.0.0.1',
      databaseUrl: null,
      redisUrl: null,
      redisReserve: 10,
      databaseReplicaUrl: null,
      databaseReplicaMaxLagSeconds: 5,
      databasePreparedStatements: true,
      databaseDirectUrl: null,
      production: false,
      logLevel: 'info',
      tokenTtlSeconds: 3600,
      limits: {
        requestsPerKey: { limit: 600, windowSeconds: 60 },
        authFailuresPerAddress: { limit: 20, windowSeconds: 300 },
        anonymousPerAddress: { limit: 60, windowSeconds: 60 },
        graphql: { maxDepth: 12, maxAliases: 30, maxCost: 50_000, maxTokens: 2000, maxListItems: 50_000 },
        webhookTools: { perKey: { limit: 10, windowSeconds: 60 }, perEndpoint: { limit: 5, windowSeconds: 60 } },
        paymentReferenceFailures: { limit: 20, windowSeconds: 60 },
      },
      webhookAllowedPorts: [443],
      trustProxy: false,
      corsOrigins: [],
      requestTimeoutMs: 30_000,
      drainDelayMs: 0,
      databaseStatementTimeoutMs: 15_000,
      eventRetentionDays: 30,
      portfolioBackfillDays: 400,
      reportRetentionDays: 30,
      reportRunsPerPartner: 2,
      consoleEnabled: true,
      retiredSettings: [],
      role: 'all',
      shutdownTimeoutMs: 25_000,
    });
  });

  it('reads the role from --role, which wins over SERVICE_ROLE; api and worker only with DATABASE_URL', () => {
    const postgres = { DATA_DIR: tempDir(), DATABASE_URL: 'postgres://db/x' };
    expect(loadConfig({ ...postgres, SERVICE_ROLE: 'worker' }).role).toBe('worker');
    expect(loadConfig({ ...postgres, SERVICE_ROLE: 'worker' }, { role: 'api' }).role).toBe('api');
    expect(loadConfig({ ...postgres, SERVICE_ROLE: 'bogus' }, { role: 'all' }).role).toBe('all');
    expect(loadConfig({ DATA_DIR: tempDir() }, { role: 'all' }).role).toBe('all');
    expect(failure({ DATABASE_URL: 'postgres://db/x', SERVICE_ROLE: 'web' }).message).toBe(
      'SERVICE_ROLE must be api, worker or all, got "web"',
    );
    const flagged = (() => {
      try {
        loadConfig({ ...postgres, SERVICE_ROLE: 'api' }, { role: 'Worker' });
      } catch (error) {
        return error as ConfigError;
      }
    })();
    expect(flagged?.message).toBe('--role must be api, worker or all, got "Worker"');
    expect(failure({ SERVICE_ROLE: 'worker' }).message).toBe(
      'SERVICE_ROLE worker needs DATABASE_URL: the embedded database serves one process (use all)',
    );
  });

  it('reads SHUTDOWN_TIMEOUT_MS, refusing a wait under 100 ms', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), SHUTDOWN_TIMEOUT_MS: '1000' }).shutdownTimeoutMs).toBe(1000);
    expect(failure({ SHUTDOWN_TIMEOUT_MS: '10' }).message).toBe(
      'SHUTDOWN_TIMEOUT_MS must be between 100 and 3600000, got 10',
    );
  });

  it('reads RATE_LIMIT_REDIS_RESERVE, 1 (no reservation) at least', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), RATE_LIMIT_REDIS_RESERVE: '1' }).redisReserve).toBe(1);
    expect(failure({ RATE_LIMIT_REDIS_RESERVE: '0' }).message).toBe(
      'RATE_LIMIT_REDIS_RESERVE must be between 1 and 1000, got 0',
    );
  });

  it('reads every variable', () => {
    const dir = tempDir();
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://app@db:5432/financing',
      DATABASE_POOL_MAX: '25',
      REDIS_URL: 'redis://cache:6379/2',
      DATABASE_REPLICA_URL: 'postgres://app@db-replica:5432/financing',
      DATABASE_REPLICA_MAX_LAG_SECONDS: '10',
      DATA_DIR: dir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      TOKEN_TTL_SECONDS: '600',
      TOKEN_SIGNING_SECRET: SECRET,
      DEVICE_SIGNING_KEYS: `d2:${DEVICE_KEY}`,
      DEVICE_UNLOCK_SEALING_KEYS: `u2:${SEALING_KEY}`,
      RATE_LIMIT_REQUESTS: '100',
      RATE_LIMIT_REDIS_RESERVE: '25',
      RATE_LIMIT_WINDOW_SECONDS: '10',
      AUTH_FAILURE_LIMIT: '5',
      AUTH_FAILURE_WINDOW_SECONDS: '900',
      GRAPHQL_MAX_DEPTH: '10',
      GRAPHQL_MAX_ALIASES: '0',
      ANONYMOUS_RATE_LIMIT_REQUESTS: '30',
      ANONYMOUS_RATE_LIMIT_WINDOW_SECONDS: '120',
      GRAPHQL_MAX_COST: '45000',
      GRAPHQL_MAX_TOKENS: '1000',
      GRAPHQL_MAX_LIST_ITEMS: '20000',
      TRUST_PROXY: '1',
      CORS_ORIGINS: 'https://dashboard.example.com, http://localhost:5173',
      REQUEST_TIMEOUT_MS: '20000',
      DRAIN_DELAY_MS: '5000',
      DATABASE_STATEMENT_TIMEOUT_MS: '5000',
      DATABASE_PREPARED_STATEMENTS: 'off',
      DATABASE_DIRECT_URL: 'postgres://app@db-direct:5432/financing',
      SUBSCRIPTIONS_PER_KEY: '3',
      SUBSCRIPTION_MAX_QUEUED_EVENTS: '50',
      SUBSCRIPTION_MAX_BUFFERED_BYTES: '65536',
      WEBSOCKET_MESSAGE_LIMIT: '20',
      WEBSOCKET_MESSAGE_WINDOW_SECONDS: '5',
      WEBSOCKET_CONNECTIONS_PER_KEY: '4',
      WEBSOCKET_UNAUTHENTICATED_PER_ADDRESS: '2',
      WEBSOCKET_RECHECK_SECONDS: '30',
      EVENT_RETENTION_DAYS: '45',
      PORTFOLIO_BACKFILL_DAYS: '90',
      REPORT_RETENTION_DAYS: '7',
      REPORT_RUNS_PER_PARTNER: '3',
      CONSOLE_ENABLED: 'false',
      GRAPHQL_EXECUTOR: 'graphql-js',
      // Webhook tools and destinations.
      WEBHOOK_TOOL_LIMIT_PER_KEY: '20',
      WEBHOOK_TOOL_LIMIT_PER_ENDPOINT: '3',
      PAYMENT_REFERENCE_FAILURE_LIMIT: '7',
      WEBHOOK_ALLOWED_PORTS: '443, 8443,443',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      SERVICE_ROLE: 'worker',
      SHUTDOWN_TIMEOUT_MS: '40000',
    });
    expect(config).toEqual({
      role: 'worker',
      shutdownTimeoutMs: 40_000,
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://app@db:5432/financing',
      databasePoolMax: 25,
      redisUrl: 'redis://cache:6379/2',
      redisReserve: 25,
      databaseReplicaUrl: 'postgres://app@db-replica:5432/financing',
      databaseReplicaMaxLagSeconds: 10,
      databasePreparedStatements: false,
      databaseDirectUrl: 'postgres://app@db-direct:5432/financing',
      dataDir: dir,
      production: true,
      logLevel: 'warn',
      tokenTtlSeconds: 600,
      tokenSigningKeys: [{ id: 'default', secret: SECRET }],
      deviceSigningKeys: [{ id: 'd2', secret: DEVICE_KEY }],
      unlockSealingKeys: [{ id: 'u2', secret: SEALING_KEY }],
      limits: {
        requestsPerKey: { limit: 100, windowSeconds: 10 },
        authFailuresPerAddress: { limit: 5, windowSeconds: 900 },
        anonymousPerAddress: { limit: 30, windowSeconds: 120 },
        graphql: { maxDepth: 10, maxAliases: 0, maxCost: 45_000, maxTokens: 1000, maxListItems: 20_000 },
        subscriptions: { perKey: 3, maxQueuedEvents: 50, maxBufferedBytes: 65_536 },
        websocket: {
          messagesPerConnection: { limit: 20, windowSeconds: 5 },
          connectionsPerKey: 4,
          unauthenticatedPerAddress: 2,
          recheckSeconds: 30,
        },
        webhookTools: { perKey: { limit: 20, windowSeconds: 60 }, perEndpoint: { limit: 3, windowSeconds: 60 } },
        paymentReferenceFailures: { limit: 7, windowSeconds: 60 },
      },
      trustProxy: 1,
      corsOrigins: ['https://dashboard.example.com', 'http://localhost:5173'],
      requestTimeoutMs: 20_000,
      drainDelayMs: 5000,
      databaseStatementTimeoutMs: 5000,
      databaseConnectTimeoutMs: 2000,
      webhookDelivery: {},
      webhookAllowedPorts: [443, 8443],
      eventRetentionDays: 45,
      portfolioBackfillDays: 90,
      reportRetentionDays: 7,
      reportRunsPerPartner: 3,
      consoleEnabled: false,
      retiredSettings: ['GRAPHQL_EXECUTOR'],
      trustedDocuments: null,
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ TOKEN_TTL_SECONDS: '0' }, 'TOKEN_TTL_SECONDS'],
    [{ WEBSOCKET_MESSAGE_LIMIT: '1' }, 'WEBSOCKET_MESSAGE_LIMIT'],
    [{ WEBSOCKET_MESSAGE_WINDOW_SECONDS: '0' }, 'WEBSOCKET_MESSAGE_WINDOW_SECONDS'],
    [{ WEBSOCKET_CONNECTIONS_PER_KEY: '0' }, 'WEBSOCKET_CONNECTIONS_PER_KEY'],
    [{ WEBSOCKET_UNAUTHENTICATED_PER_ADDRESS: 'five' }, 'WEBSOCKET_UNAUTHENTICATED_PER_ADDRESS'],
    [{ WEBSOCKET_RECHECK_SECONDS: '0' }, 'WEBSOCKET_RECHECK_SECONDS'],
    [{ EVENT_RETENTION_DAYS: '0' }, 'EVENT_RETENTION_DAYS'],
    [{ PORTFOLIO_BACKFILL_DAYS: '0' }, 'PORTFOLIO_BACKFILL_DAYS'],
    [{ TOKEN_TTL_SECONDS: '1.5' }, 'TOKEN_TTL_SECONDS'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: '127.0.0.1:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL'],
    [{ DATABASE_REPLICA_URL: 'postgres://app@db-replica:5432/financing' }, 'DATABASE_REPLICA_URL'],
    [{ DATABASE_URL: 'postgres://app@db/f', DATABASE_REPLICA_URL: 'mysql://replica/db' }, 'DATABASE_REPLICA_URL'],
    // A failover list must say it wants the host that takes writes; the replica is one server.
    [{ DATABASE_URL: 'postgres://app@db1,db2/f' }, 'DATABASE_URL'],
    [
      {
        DATABASE_URL: 'postgres://app@db1,db2/f?target_session_attrs=read-write',
        DATABASE_REPLICA_URL: 'postgres://app@db1,db2/f',
      },
      'DATABASE_REPLICA_URL',
    ],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '50' }, 'DATABASE_CONNECT_TIMEOUT_MS'],
    [
      { DATABASE_URL: 'postgres://app@db/f', DATABASE_REPLICA_MAX_LAG_SECONDS: '5s' },
      'DATABASE_REPLICA_MAX_LAG_SECONDS',
    ],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ TOKEN_SIGNING_SECRET: 'short' }, 'TOKEN_SIGNING_SECRET'],
    [{ DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX'],
    [{ REQUEST_TIMEOUT_MS: '999' }, 'REQUEST_TIMEOUT_MS'],
    [{ REQUEST_TIMEOUT_MS: '30s' }, 'REQUEST_TIMEOUT_MS'],
    [{ DRAIN_DELAY_MS: '1s' }, 'DRAIN_DELAY_MS'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '-1' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '3600001' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ SUBSCRIPTIONS_PER_KEY: '0' }, 'SUBSCRIPTIONS_PER_KEY'],
    [{ SUBSCRIPTION_MAX_BUFFERED_BYTES: '100' }, 'SUBSCRIPTION_MAX_BUFFERED_BYTES'],
    [{ DATABASE_URL: 'postgres://app@db/f', DATABASE_PREPARED_STATEMENTS: 'false' }, 'DATABASE_PREPARED_STATEMENTS'],
    [{ DATABASE_DIRECT_URL: 'postgres://app@db:5432/f' }, 'DATABASE_DIRECT_URL'],
    [{ CONSOLE_ENABLED: 'no' }, 'CONSOLE_ENABLED'],
    [{ DATABASE_URL: 'postgres://app@bouncer/f', DATABASE_DIRECT_URL: 'mysql://app@db/f' }, 'DATABASE_DIRECT_URL'],
  ])('refuses %j, naming %s', (env, variable) => {
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(variable)).toBe(true);
  });

  it('reads rotating signing keys, the first signing', () => {
    const keys = loadConfig({
      DATA_DIR: tempDir(),
      TOKEN_SIGNING_KEYS: `k2:${'b'.repeat(40)}, k1:${'a'.repeat(40)}`,
    }).tokenSigningKeys;
    expect(keys).toEqual([
      { id: 'k2', secret: 'b'.repeat(40) },
      { id: 'k1', secret: 'a'.repeat(40) },
    ]);
    for (const bad of [
      'nocolon',
      `k1:short`,
      `bad id:${'a'.repeat(40)}`,
      `k1:${'a'.repeat(40)},k1:${'b'.repeat(40)}`,
    ]) {
      expect(failure({ TOKEN_SIGNING_KEYS: bad }).variable, bad).toBe('TOKEN_SIGNING_KEYS');
    }
  });

  it('reads CORS_ORIGINS as exact http(s) origins, refusing anything else', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
    expect(
      loadConfig({ DATA_DIR: tempDir(), CORS_ORIGINS: 'https://Dash.Example.com,http://127.0.0.1:8080' }).corsOrigins,
    ).toEqual(['https://dash.example.com', 'http://127.0.0.1:8080']);
    for (const bad of [
      '*',
      'null',
      'dash.example.com',
      'ftp://dash.example.com',
      'https://dash.example.com/',
      'https://dash.example.com/app',
      'https://dash.example.com?x=1',
      'https://user@dash.example.com',
      'https://dash.example.com:443',
      'https://a.example.com,,https://b.example.com',
    ]) {
      const error = failure({ CORS_ORIGINS: bad });
      expect(error.variable, bad).toBe('CORS_ORIGINS');
      expect(error.message.startsWith('CORS_ORIGINS')).toBe(true);
    }
  });

  it.each([
    [{ RATE_LIMIT_REQUESTS: '0' }, 'RATE_LIMIT_REQUESTS'],
    [{ RATE_LIMIT_REQUESTS: 'lots' }, 'RATE_LIMIT_REQUESTS'],
    [{ RATE_LIMIT_WINDOW_SECONDS: '0' }, 'RATE_LIMIT_WINDOW_SECONDS'],
    [{ RATE_LIMIT_WINDOW_SECONDS: '86401' }, 'RATE_LIMIT_WINDOW_SECONDS'],
    [{ AUTH_FAILURE_LIMIT: '0' }, 'AUTH_FAILURE_LIMIT'],
    [{ AUTH_FAILURE_WINDOW_SECONDS: '1.5' }, 'AUTH_FAILURE_WINDOW_SECONDS'],
    // Below what the REST shim's handwritten operations need (GRAPHQL_LIMIT_FLOORS).
    [{ GRAPHQL_MAX_DEPTH: '7' }, 'GRAPHQL_MAX_DEPTH'],
    [{ GRAPHQL_MAX_ALIASES: '-1' }, 'GRAPHQL_MAX_ALIASES'],
    [{ GRAPHQL_MAX_COST: '39999' }, 'GRAPHQL_MAX_COST'],
    [{ GRAPHQL_MAX_TOKENS: '499' }, 'GRAPHQL_MAX_TOKENS'],
    [{ GRAPHQL_MAX_LIST_ITEMS: '9999' }, 'GRAPHQL_MAX_LIST_ITEMS'],
    [{ ANONYMOUS_RATE_LIMIT_REQUESTS: '0' }, 'ANONYMOUS_RATE_LIMIT_REQUESTS'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'loopback,,10.0.0.1' }, 'TRUST_PROXY'],
    [{ WEBHOOK_TOOL_LIMIT_PER_KEY: '0' }, 'WEBHOOK_TOOL_LIMIT_PER_KEY'],
    [{ WEBHOOK_TOOL_LIMIT_PER_ENDPOINT: 'many' }, 'WEBHOOK_TOOL_LIMIT_PER_ENDPOINT'],
    [{ PAYMENT_REFERENCE_FAILURE_LIMIT: '0' }, 'PAYMENT_REFERENCE_FAILURE_LIMIT'],
    [{ WEBHOOK_ALLOWED_PORTS: '443,70000' }, 'WEBHOOK_ALLOWED_PORTS'],
    [{ WEBHOOK_ALLOWED_PORTS: '443,,80' }, 'WEBHOOK_ALLOWED_PORTS'],
    [{ WEBHOOK_ALLOWED_PORTS: '0' }, 'WEBHOOK_ALLOWED_PORTS'],
  ])('refuses the limit setting %j, naming %s', (env, variable) => {
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(variable)).toBe(true);
  });

  it('reads TRUST_PROXY as Express takes it: off, on, a hop count, or trusted addresses and subnets', () => {
    const trustProxy = (value: string) => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value }).trustProxy;
    expect(trustProxy('')).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('true')).toBe(true);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy('loopback, 10.0.0.0/8, fd00::/8, 192.168.1.7, 172.16.0.0/255.240.0.0')).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.7',
      '172.16.0.0/255.240.0.0',
    ]);
  });

  it('listens on 127.0.0.1 outside production and on every interface in production, unless HOST says otherwise', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).host).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: tempDir(), HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgres://db/x',
        TOKEN_SIGNING_SECRET: SECRET,
        DEVICE_SIGNING_KEYS: `k:${DEVICE_KEY}`,
        DEVICE_UNLOCK_SEALING_KEYS: `u:${SEALING_KEY}`,
      }).host,
    ).toBe('0.0.0.0');
  });

  it('requires a signing secret and a real database in production', () => {
    expect(failure({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x' }).variable).toBe('TOKEN_SIGNING_SECRET');
    expect(failure({ NODE_ENV: 'production', TOKEN_SIGNING_SECRET: SECRET }).variable).toBe('DATABASE_URL');
  });

  it('requires the device signing keys in production, and refuses one that is not an Ed25519 private key', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/x', TOKEN_SIGNING_SECRET: SECRET };
    expect(failure(production).variable).toBe('DEVICE_SIGNING_KEYS');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ format: 'der', type: 'pkcs8' })
      .toString('base64url');
    for (const bad of [`k:${rsa}`, 'k:not-a-key', `:${DEVICE_KEY}`, `k:${DEVICE_KEY},k:${DEVICE_KEY}`]) {
      expect(failure({ ...production, DEVICE_SIGNING_KEYS: bad }).variable, bad).toBe('DEVICE_SIGNING_KEYS');
    }
    const keys = loadConfig({
      ...production,
      DEVICE_SIGNING_KEYS: `new:${DEVICE_KEY}, old:${DEVICE_KEY}`,
      DEVICE_UNLOCK_SEALING_KEYS: `u:${SEALING_KEY}`,
    });
    expect(keys.deviceSigningKeys.map((key) => key.id)).toEqual(['new', 'old']);
  });

  it('requires the unlock sealing keys in production, and refuses one that is not 32 bytes of base64url', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/x',
      TOKEN_SIGNING_SECRET: SECRET,
      DEVICE_SIGNING_KEYS: `k:${DEVICE_KEY}`,
    };
    expect(failure(production).message).toBe('DEVICE_UNLOCK_SEALING_KEYS is required when NODE_ENV=production');
    const short = randomBytes(16).toString('base64url');
    const padded = `${randomBytes(32).toString('base64')}`; // base64 with its padding, not base64url
    for (const bad of [
      `u:${short}`,
      `u:${padded}`,
      `u:${SEALING_KEY}x`,
      `:${SEALING_KEY}`,
      `u:${SEALING_KEY},u:${SEALING_KEY}`,
    ]) {
      expect(failure({ ...production, DEVICE_UNLOCK_SEALING_KEYS: bad }).variable, bad).toBe(
        'DEVICE_UNLOCK_SEALING_KEYS',
      );
    }
    const other = randomBytes(32).toString('base64url');
    expect(
      loadConfig({ ...production, DEVICE_UNLOCK_SEALING_KEYS: `new:${other}, old:${SEALING_KEY}` }).unlockSealingKeys,
    ).toEqual([
      { id: 'new', secret: other },
      { id: 'old', secret: SEALING_KEY },
    ]);
  });

  it('outside production, generates an unlock sealing key once and keeps it under DATA_DIR', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).unlockSealingKeys;
    expect(first).toEqual([{ id: 'dev', secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }]);
    expect(loadConfig({ DATA_DIR: dir }).unlockSealingKeys).toEqual(first);
    expect(statSync(join(dir, 'device-unlock-sealing-key')).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: tempDir() }).unlockSealingKeys[0]!.secret).not.toBe(first[0]!.secret);
  });

  it("reads a command's settings with DATABASE_URL alone in production: no secret, none generated", () => {
    const dir = tempDir();
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://app@db/financing', DATA_DIR: dir };
    const config = loadCommandConfig(production);
    expect(config).toMatchObject({ production: true, databaseUrl: 'postgres://app@db/financing' });
    for (const secret of ['tokenSigningKeys', 'deviceSigningKeys', 'unlockSealingKeys'])
      expect(config).not.toHaveProperty(secret);
    // The service's roles need every secret: the first missing one is named.
    expect(() => loadConfig(production)).toThrow(/^TOKEN_SIGNING_SECRET or TOKEN_SIGNING_KEYS is required/);
    // Outside production a command writes no generated secret either.
    loadCommandConfig({ DATA_DIR: dir });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('outside production, generates a device signing key once and keeps it under DATA_DIR', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).deviceSigningKeys;
    expect(first).toEqual([{ id: 'dev', secret: expect.any(String) }]);
    expect(loadConfig({ DATA_DIR: dir }).deviceSigningKeys).toEqual(first);
    expect(statSync(join(dir, 'device-signing-key')).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: tempDir() }).deviceSigningKeys[0]!.secret).not.toBe(first[0]!.secret);
  });

  it('outside production, generates the signing secret once and keeps it under DATA_DIR', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).tokenSigningKeys[0]!.secret;
    const second = loadConfig({ DATA_DIR: dir }).tokenSigningKeys[0]!.secret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(second).toBe(first);
    const file = join(dir, 'token-signing-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o077).toBe(0); // readable by its owner only
    expect(loadConfig({ DATA_DIR: tempDir() }).tokenSigningKeys[0]!.secret).not.toBe(first);
  });
});

describe('tracingEnabled', () => {
  it('is on with an OTLP endpoint (all signals or traces only), unless the SDK is disabled; off otherwise', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingEnabled({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' })).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(
      false,
    );
  });
});

describe('retired settings (decisions.md 42)', () => {
  it.each(['jit', 'graphql-js', 'graphql-jit', ''])(
    'GRAPHQL_EXECUTOR=%j starts, the setting named to be said once and ignored',
    (value) => {
      const config = loadConfig({ GRAPHQL_EXECUTOR: value });
      expect(config.retiredSettings).toEqual(['GRAPHQL_EXECUTOR']);
      expect(Object.keys(config)).not.toContain('graphqlExecutor');
      expect(RETIRED_SETTINGS.GRAPHQL_EXECUTOR).toMatch(/graphql-jit executes every query and mutation/);
    },
  );

  it('an environment without one names none', () => {
    expect(loadConfig({}).retiredSettings).toEqual([]);
  });
});
