// The counts in Redis (REDIS_URL), through rate-limiter-flexible's Redis store: shared by every
// instance using that Redis, each limit's keys under "<prefix>:<limit>:".
import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  libraryCounter,
  libraryOptions,
  memoryCounter,
  type RateLimitStore,
  storeOfCounters,
} from './rateLimitStore.js';
import { guardedCounter, StoreGuard, type StoreWatch } from './storeGuard.js';

/**
 * One Redis connection that fails fast: no offline queue and no retried commands, so a request never
 * waits for a Redis that is down; it reconnects in the background. Waits up to `readyWithinMs` for
 * the first connection: a Redis not there at start is the insurance limiter's until it comes.
 */
async function connectRedis(url: string, logger: Pick<Logger, 'debug'>, readyWithinMs = 2000): Promise<Redis> {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  // Failures are logged once, by the store guard; each reconnection attempt only at debug.
  client.on('error', (error) => logger.debug({ err: error }, 'redis connection error'));
  const timer = AbortSignal.timeout(readyWithinMs);
  await once(client, 'ready', { signal: timer }).catch(() => undefined);
  return client;
}

/** The store in the Redis at `url`, its keys under `keyPrefix`; its connection closes with the store. */
export async function openRedisRateLimitStore(
  url: string,
  keyPrefix: string,
  watch: StoreWatch,
): Promise<RateLimitStore> {
  const client = await connectRedis(url, watch.logger);
  // Readiness knows the connection before any request has tried it.
  const guard = new StoreGuard('redis', watch.logger, watch.observer, () => client.status === 'ready');
  return storeOfCounters(
    (options) =>
      guardedCounter(
        guard,
        libraryCounter(
          new RateLimiterRedis({
            ...libraryOptions(options),
            keyPrefix: `${keyPrefix}:${options.name}`,
            storeClient: client,
            // Straight to insurance while the connection is down, without a round trip.
            rejectIfRedisNotReady: true,
          }),
        ),
        memoryCounter(options),
      ),
    () => guard.status(),
    () => client.disconnect(),
  );
}
