// The layers the service adds around its doors, in the order they apply: what main.ts serves and what
// the tests start as "the service". The doors alone (createApp with no layer) keep every rule of the
// contract; these add what operating it needs. The bench builds its own list (bench/core.ts).
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { AppDeps, AppLayer } from './app.js';
import { isEmbedded } from './db/knex.js';
import { DEFAULT_LIMITS, REDIS_RESERVE } from './kernel/limitSettings.js';
import { loggedTraceContext } from './kernel/logger.js';
import { loggedPath, PROBE_PATHS } from './kernel/requestPath.js';
import { tracingStarted } from './kernel/tracing.js';
import { createOperationsRouter } from './ops/router.js';
import { graphqlTracingPlugin } from './ops/tracing.js';
import { graphqlCostPlugin } from './pipeline/documentLimits/graphqlLimits.js';
import { listItemCeilingPlugin } from './pipeline/documentLimits/listItemCeiling.js';
import { postgresRateLimitStore } from './pipeline/rateLimits/postgresStore.js';
import { memoryRateLimitStore, type RateLimitStore } from './pipeline/rateLimits/rateLimitStore.js';
import { openRedisRateLimitStore } from './pipeline/rateLimits/redisStore.js';
import type { StoreWatch } from './pipeline/rateLimits/storeGuard.js';

export interface RateLimitStoreSettings {
  /** REDIS_URL: counts in Redis, shared by every instance using it. */
  redisUrl?: string | null;
  /** Prefix of the Redis keys ("dfs" when absent): deployments sharing one Redis, or test runs, keep apart. */
  redisKeyPrefix?: string;
  /** RATE_LIMIT_REDIS_RESERVE: places of a key's count an admission reserves (REDIS_RESERVE when absent; 1: none). */
  redisReserve?: number;
}

/** What the service's layers are set with, beside the app's own settings. */
export interface ServiceLayerSettings {
  /** Browser origins allowed to call /graphql (CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
  /** Where the request limits are counted (README, Request limits); absent: Postgres, or memory on PGlite. */
  rateLimitStore?: RateLimitStoreSettings;
}

/** The service's layers: the request log, the operations router, the shared request limits, the GraphQL cost, list ceiling and tracing. */
export function serviceLayers(deps: AppDeps, settings: ServiceLayerSettings = {}): AppLayer[] {
  const limits = (deps.limits ?? DEFAULT_LIMITS).graphql;
  return [
    { name: 'request-log', beforeDoors: () => logRequests(deps.logger) },
    {
      name: 'operations',
      // Request metrics, security headers, the query-string limit, /healthz /readyz /metrics, CORS on /graphql.
      beforeDoors: ({ draining, limiter }) =>
        createOperationsRouter({
          db: deps.db,
          replica: deps.replica,
          production: deps.production,
          corsOrigins: settings.corsOrigins ?? [],
          draining,
          rateLimitStore: () => limiter.storeStatus(),
        }),
    },
    { name: 'shared-limits', rateLimitStore: (watch) => openRateLimitStore(deps, watch, settings.rateLimitStore) },
    {
      name: 'document-limits',
      graphqlPlugins: [graphqlCostPlugin(limits), listItemCeilingPlugin(limits.maxListItems)],
    },
    // The operation's name and type on the span of the request that runs it: in the list only with
    // tracing on (an SDK started, src/telemetry/preload.ts), so with it off no request calls it.
    { name: 'tracing', graphqlPlugins: tracingStarted() ? [graphqlTracingPlugin()] : [] },
  ];
}

/**
 * Redis when REDIS_URL is set (on either database: it was asked for), else the service's Postgres
 * database, else (the embedded database, one process) this process's memory.
 */
async function openRateLimitStore(
  deps: AppDeps,
  watch: StoreWatch,
  store?: RateLimitStoreSettings,
): Promise<RateLimitStore> {
  if (store?.redisUrl) {
    return openRedisRateLimitStore(
      store.redisUrl,
      store.redisKeyPrefix ?? 'dfs',
      watch,
      store.redisReserve ?? REDIS_RESERVE,
    );
  }
  return isEmbedded(deps.db) ? memoryRateLimitStore() : postgresRateLimitStore(deps.db, watch);
}

/**
 * One JSON line per request, once it is answered: at info, but a probe or a scrape that succeeds at
 * debug (docs/decisions.md, 28). The line is built only when its level is on.
 */
export function logRequests(logger: Logger): RequestHandler {
  // Known once: with no SDK started (tracing off) there is never a span to name.
  const traced = tracingStarted();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read here, inside the request's span: 'finish' may be told outside it. Only with tracing on
    // (src/telemetry/preload.ts): the request's trace and server span in the tracing backend.
    const traceContext = traced ? loggedTraceContext() : undefined;
    res.on('finish', () => {
      // The route template: a legacy path (or another express route), /graphql, or unmatched.
      const route = (res.locals.route as string | undefined) ?? (req.route?.path as string | undefined) ?? 'unmatched';
      const level = PROBE_PATHS.has(route) && res.statusCode < 300 ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: loggedPath(req.originalUrl),
          route,
          status: res.statusCode,
          // Set by both doors once createContext has authenticated the request (principalForLog).
          principal: res.locals.principal ?? null,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
          ...traceContext,
        },
        'request',
      );
    });
    next();
  };
}
