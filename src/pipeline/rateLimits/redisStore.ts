// The counts in Redis (REDIS_URL), shared by every instance using that Redis, each limit's keys under
// "<prefix>:<limit>:". The limits are counted by rate-limiter-flexible's Redis store; a key's admission
// is one script of our own (ADMIT_KEY) on the same keys, with the same windows and values, so each
// agrees with the other on every key. The commands of one turn of the event loop go in one pipeline.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import {
  type CounterOptions,
  type KeyAdmission,
  libraryCounter,
  libraryOptions,
  memoryCounter,
  oncePerLimit,
  type RateLimitStore,
} from './rateLimitStore.js';
import { type GuardedCounter, guardedCounter, insuranceAdmission, StoreGuard, type StoreWatch } from './storeGuard.js';

/**
 * A key's admission, atomic in Redis. KEYS: the address's failures key (absent without an address),
 * then the key's requests key. ARGV: the failures limit, then the requests limit, window and block in
 * seconds (libraryOptions: points, duration, blockDuration; a window is at least a second). Answers
 * {1, failures, ms before the address's window ends} for a blocked address, nothing counted; else
 * {0, the key's count, ms before its window (or its block) ends}.
 */
const ADMIT_KEY = `
local requests = KEYS[#KEYS]
if #KEYS == 2 then
  local failures = tonumber(redis.call('get', KEYS[1]))
  if failures and failures >= tonumber(ARGV[1]) then
    local ms = redis.call('pttl', KEYS[1])
    if ms > 0 then return {1, failures, ms} end
  end
end
-- The library's count (RateLimiterRedis's script): a window starts at the key's first event.
redis.call('set', requests, 0, 'EX', ARGV[3], 'NX')
local consumed = redis.call('incrby', requests, 1)
local ms = redis.call('pttl', requests)
if ms == -1 then
  redis.call('expire', requests, ARGV[3])
  ms = 1000 * ARGV[3]
end
-- The library's block (RateLimiterStoreAbstract's _afterConsume, then _block): the request that
-- first passes the limit sets the key to limit + 1 for the whole block.
local blockSeconds = tonumber(ARGV[4])
if blockSeconds > 0 and consumed == tonumber(ARGV[2]) + 1 then
  redis.call('set', requests, consumed, 'EX', blockSeconds)
  ms = 1000 * blockSeconds
end
return {0, consumed, ms}
`;

/** The connection with ADMIT_KEY defined on it: the number of keys first (ioredis's way when it is not fixed). */
interface AdmittingRedis extends Redis {
  admitKeyInRedis(numberOfKeys: number, ...keysThenArgs: Array<string | number>): Promise<[number, number, number]>;
}

/**
 * One Redis connection that fails fast: no offline queue and no retried commands, so a request never
 * waits for a Redis that is down; it reconnects in the background. Auto-pipelining sends the commands
 * of one turn of the event loop in one write, and while a pipeline is out the next turn's wait for it:
 * a round trip per turn, not per request. Waits up to `readyWithinMs` for the first connection: a
 * Redis not there at start is the insurance limiter's until it comes.
 */
async function connectRedis(url: string, logger: Pick<Logger, 'debug'>, readyWithinMs = 2000): Promise<AdmittingRedis> {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    commandTimeout: 500,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  client.defineCommand('admitKeyInRedis', { lua: ADMIT_KEY });
  // Failures are logged once, by the store guard; each reconnection attempt only at debug.
  client.on('error', (error) => logger.debug({ err: error }, 'redis connection error'));
  const timer = AbortSignal.timeout(readyWithinMs);
  await once(client, 'ready', { signal: timer }).catch(() => undefined);
  return client as AdmittingRedis;
}

/** The store in the Redis at `url`, its keys under `keyPrefix`; its connection closes with the store. */
export async function openRedisRateLimitStore(
  url: string,
  keyPrefix: string,
  watch: StoreWatch,
): Promise<RateLimitStore> {
  const client = await connectRedis(url, watch.logger);
  const ready = () => client.status === 'ready';
  // Readiness knows the connection before any request has tried it.
  const guard = new StoreGuard('redis', watch.logger, watch.observer, ready);
  // A limit's keys in Redis: the library's (its keyPrefix, then ":" and the key), for the script too.
  const prefixOf = (options: CounterOptions) => `${keyPrefix}:${options.name}`;
  const counter = oncePerLimit(
    (options): GuardedCounter =>
      guardedCounter(
        guard,
        libraryCounter(
          new RateLimiterRedis({
            ...libraryOptions(options),
            keyPrefix: prefixOf(options),
            storeClient: client,
            // Straight to insurance while the connection is down, without a round trip.
            rejectIfRedisNotReady: true,
          }),
        ),
        memoryCounter(options),
      ),
  );

  const admitInRedis = async (
    failures: CounterOptions,
    addressKey: string | null,
    requests: CounterOptions,
    keyId: string,
  ): Promise<KeyAdmission> => {
    // As rejectIfRedisNotReady: while the connection is down, insurance decides without a round trip.
    if (!ready()) throw new Error('Redis connection is not ready');
    const requestsKey = `${prefixOf(requests)}:${keyId}`;
    const keys = addressKey === null ? [requestsKey] : [`${prefixOf(failures)}:${addressKey}`, requestsKey];
    const { points, duration, blockDuration } = libraryOptions(requests);
    const [blocked, consumed, ms] = await client.admitKeyInRedis(
      keys.length,
      ...keys,
      failures.limit.limit,
      points,
      duration,
      blockDuration,
    );
    if (blocked === 1) return { blocked: true, msBeforeNext: ms };
    return { blocked: false, count: { consumed, msBeforeNext: Math.max(0, ms), allowed: consumed <= points } };
  };
  // While the store fails: the insurance counters', a look then a count.
  const admitByInsurance = insuranceAdmission(counter);

  return {
    counter,
    admitKey: (failures, addressKey, requests, keyId) =>
      guard.run(
        () => admitInRedis(failures, addressKey, requests, keyId),
        () => admitByInsurance(failures, addressKey, requests, keyId),
      ),
    status: () => guard.status(),
    close: () => client.disconnect(),
  };
}
