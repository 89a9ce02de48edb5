// The processes the scenarios load, started once (phases startService, startBaseline, startCore,
// startLimitsInRedis): the service as production runs it, the bare baselines' one process, the
// design's core, and the service counting its request limits in Redis. Every service process runs as
// in production (graphql-js also skips its development-only checks there) unless told otherwise,
// with limits no run reaches.
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import os from 'node:os';
import { join } from 'node:path';
import type { Db } from '../src/db/knex.js';
import type { Database } from './database.js';
import { log, mb, phase } from './log.js';
import { BASELINE_READY, type ErrorLog, procStatus, SERVICE_READY, startProcess } from './processes.js';
import type { Settings } from './settings.js';
import type { Workload } from './workload.js';

/**
 * Which process answers: the service as it runs in production, the same service counting its request
 * limits in Redis, the design's core (bench/core-server.ts: the same doors without the layers
 * operations add to every request), or the bare baseline.
 */
export type Target = 'service' | 'redis' | 'core' | 'baseline';

/** What every scenario and phase reads: the settings, the database, what to ask for, the processes. */
export interface Bench {
  settings: Settings;
  database: Database;
  data: Db;
  workload: Workload;
  services: Services;
}

export interface Services {
  /** A service process's environment; `name` tells its data directory from the others'. */
  serviceEnvironment: (name: string, overrides?: Record<string, string>) => Record<string, string>;
  baselineEnvironment: Record<string, string>;
  /** The error-level log lines of the service and the design's core. */
  serviceErrors: ErrorLog;
  service: ChildProcess;
  core: ChildProcess;
  /** The service counting its request limits in Redis. */
  redisCounted: ChildProcess;
  /** The Redis it counts them in (BENCH_REDIS_URL, or the local server). */
  redisUrl: string;
  servicePort: number;
  /** The process answering each target's scenarios. */
  answering: Record<Target, { port: number; pid: number }>;
  serviceRssAtStart: number | null;
}

/** A service process's environment on `database` (its own DATA_DIR by `name`): production, limits out of the way. */
export const serviceEnvironmentOf = (
  settings: Settings,
  database: Pick<Database, 'url' | 'name'>,
  name: string,
  overrides: Record<string, string> = {},
) => ({
  DATABASE_URL: database.url,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  DATA_DIR: join(os.tmpdir(), `${database.name}-${name}`),
  TOKEN_SIGNING_SECRET: randomBytes(32).toString('hex'),
  DEVICE_SIGNING_KEYS: `bench:${generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url')}`,
  DEVICE_UNLOCK_SEALING_KEYS: `bench:${randomBytes(32).toString('base64url')}`,
  RATE_LIMIT_REQUESTS: '1000000',
  RATE_LIMIT_WINDOW_SECONDS: '60',
  DATABASE_POOL_MAX: String(settings.pool),
  ...overrides,
});

export async function startServices(settings: Settings, database: Database): Promise<Services> {
  const serviceEnvironment = (name: string, overrides: Record<string, string> = {}) =>
    serviceEnvironmentOf(settings, database, name, overrides);
  // The bare baseline runs as the service does: NODE_ENV=production (Express and pg skip their
  // development work there too), the same V8 flags (settings.ts), a pool of the same size.
  const baselineEnvironment = {
    DATABASE_URL: database.url,
    NODE_ENV: 'production',
    DATABASE_POOL_MAX: String(settings.pool),
  };
  const serviceErrors: ErrorLog = { count: 0, samples: [] };
  const { child: service, port: servicePort } = await phase('startService', () =>
    startProcess(settings, 'service', 'src/main.ts', serviceEnvironment('main'), SERVICE_READY, serviceErrors),
  );
  const { child: baseline, port: baselinePort } = await phase('startBaseline', () =>
    startProcess(settings, 'baseline', 'bench/baseline-server.ts', baselineEnvironment, BASELINE_READY),
  );
  const { child: core, port: corePort } = await phase('startCore', () =>
    startProcess(
      settings,
      'core',
      'bench/core-server.ts',
      serviceEnvironment('core'),
      { anyAnswer: true },
      serviceErrors,
    ),
  );
  // The request limits are counted in Postgres by default (in the key's own statement,
  // src/pipeline/rateLimits/postgresCounts.ts); one more service process counts them in Redis (BENCH_REDIS_URL or
  // the local server), measured in the lookups' turns beside the Postgres-counted one.
  const redisUrl = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
  const { child: redisCounted, port: redisPort } = await phase('startLimitsInRedis', () =>
    startProcess(
      settings,
      'service (limits in Redis)',
      'src/main.ts',
      serviceEnvironment('redis', { REDIS_URL: redisUrl }),
      SERVICE_READY,
    ),
  );
  const servicePid = service.pid as number;
  const serviceRssAtStart = procStatus(servicePid, 'VmRSS');
  log(
    `service pid ${servicePid} on port ${servicePort} (RSS ${mb(serviceRssAtStart)} MB at start); the design's core on port ${corePort}; baseline on port ${baselinePort}`,
  );
  return {
    serviceEnvironment,
    baselineEnvironment,
    serviceErrors,
    service,
    core,
    redisCounted,
    redisUrl,
    servicePort,
    answering: {
      service: { port: servicePort, pid: servicePid },
      redis: { port: redisPort, pid: redisCounted.pid as number },
      core: { port: corePort, pid: core.pid as number },
      baseline: { port: baselinePort, pid: baseline.pid as number },
    },
    serviceRssAtStart,
  };
}
