// The counts in Redis (REDIS_URL), shared by every instance using that Redis, each limit's keys under
// "<prefix>:<limit>:". The limits are counted by rate-limiter-flexible's Redis store; a key's admission
// is one script of our own (ADMIT_KEY) on the same keys, with the same windows and values, so each
// agrees with the other on every key. The commands of one turn of the event loop go in one pipeline,
// and an admission may reserve the key's next places in its count for this instance (reservations.ts).
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
import { Reservations } from './reservations.js';
import { type GuardedCounter, guardedCounter, insuranceAdmission, StoreGuard, type StoreWatch } from './storeGuard.js';

/**
 * A key's admission, atomic in Redis. KEYS: the address's failures key (absent without an address),
 * then the key's requests key. ARGV: the failures limit, then the requests limit, window and block in
 * seconds (libraryOptions: points, duration, blockDuration; a window is at least a second), then the
 * places to reserve (decisions.md 53). Answers {1, failures, ms before the address's window ends} for
 * a blocked address, nothing counted; else {0, the key's count, ms before its window (or its block)
 * ends, the places counted}: one, or up to the reserve for a key under its limit asked from an
 * address without a failure, never past the limit.
 */
const ADMIT_KEY = `
local requests = KEYS[#KEYS]
local failures = nil
if #KEYS == 2 then
  failures = tonumber(redis.call('get', KEYS[1]))
  if failures and failures >= tonumber(ARGV[1]) then
    local ms = redis.call('pttl', KEYS[1])
    if ms > 0 then return {1, failures, ms} end
  end
end
-- The library's count (RateLimiterRedis's script): a window starts at the key's first event.
redis.call('set', requests, 0, 'EX', ARGV[3], 'NX')
local places = 1
local reserve = tonumber(ARGV[5])
if reserve > 1 and not failures then
  local left = tonumber(ARGV[2]) - tonumber(redis.call('get', requests))
  if left > 1 then places = math.min(reserve, left) end
end
local consumed = redis.call('incrby', requests, places)
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
return {0, consumed, ms, places}
`;

/** The connection with ADMIT_KEY defined on it: the number of keys first (ioredis's way when it is not fixed). */
interface AdmittingRedis extends Redis {
  admitKeyInRedis(
    numberOfKeys: number,
    ...keysThenArgs: Array<string | number>
  ): Promise<[blocked: number, consumed: number, ms: number, places: number]>;
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

/**
 * The store in the Redis at `url`, its keys under `keyPrefix`; its connection closes with the store.
 * `reserve`: the places of a key's count an admission may reserve for this instance (1: none, every
 * request counted in Redis).
 */
export async function openRedisRateLimitStore(
  url: string,
  keyPrefix: string,
  watch: StoreWatch,
  reserve = 1,
): Promise<RateLimitStore> {
  const client = await connectRedis(url, watch.logger);
  const reservations = new Reservations();
  const ready = () => client.status === 'ready';
  // Readiness knows the connection before any request has tried it.
  const guard = new StoreGuard('redis', watch.logger, watch.observer, ready);
  // A limit's keys in Redis: the library's (its keyPrefix, then ":" and the key), for the script too.
  const prefixOf = (options: CounterOptions) => `${keyPrefix}:${options.name}`;
  const counter = oncePerLimit(
    (options): GuardedCounter =>
      droppingReservations(
        reservations,
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
      ),
  );

  const admitInRedis = async (
    failures: CounterOptions,
    addressKey: string | null,
    requests: CounterOptions,
    keyId: string,
    places: number,
  ): Promise<KeyAdmission> => {
    // As rejectIfRedisNotReady: while the connection is down, insurance decides without a round trip.
    if (!ready()) throw new Error('Redis connection is not ready');
    const requestsKey = `${prefixOf(requests)}:${keyId}`;
    const keys = addressKey === null ? [requestsKey] : [`${prefixOf(failures)}:${addressKey}`, requestsKey];
    const { points, duration, blockDuration } = libraryOptions(requests);
    const askedAt = Date.now();
    const [blocked, consumed, ms, counted] = await client.admitKeyInRedis(
      keys.length,
      ...keys,
      failures.limit.limit,
      points,
      duration,
      blockDuration,
      places,
    );
    if (blocked === 1) return { blocked: true, msBeforeNext: ms };
    // The request takes the first place counted; the rest are this instance's for the key and address.
    const place = consumed - counted + 1;
    reservations.hold(addressKey ?? '', requestsKey, place + 1, consumed, askedAt, ms);
    return { blocked: false, count: { consumed: place, msBeforeNext: Math.max(0, ms), allowed: place <= points } };
  };
  // While the store fails: the insurance counters', a look then a count.
  const admitByInsurance = insuranceAdmission(counter);
  const admitShared = (
    failures: CounterOptions,
    addressKey: string | null,
    requests: CounterOptions,
    keyId: string,
    places: number,
  ) =>
    guard.run(
      () => admitInRedis(failures, addressKey, requests, keyId, places),
      () => admitByInsurance(failures, addressKey, requests, keyId),
    );

  return {
    counter,
    admitKey: async (failures, addressKey, requests, keyId) => {
      if (reserve === 1) return admitShared(failures, addressKey, requests, keyId, 1);
      const address = addressKey ?? '';
      const requestsKey = `${prefixOf(requests)}:${keyId}`;
      const reserved = () => {
        const place = reservations.take(address, requestsKey);
        return place && { blocked: false as const, count: { ...place, allowed: true } };
      };
      // A place reserved here first; else one admission in Redis reserves for the key and address,
      // while the key's other requests from the address wait for it and take what it reserved. One
      // that finds nothing left is counted alone, as every request is without a reserve: a burst
      // neither waits in a queue nor reserves twice.
      const admission =
        reserved() ??
        (await reservations.once(address, requestsKey, () =>
          admitShared(failures, addressKey, requests, keyId, reserve),
        ));
      return admission ?? reserved() ?? admitShared(failures, addressKey, requests, keyId, 1);
    },
    status: () => guard.status(),
    close: () => client.disconnect(),
  };
}

/**
 * A limit's counter whose every count also lets go of the reservations of the key it counts, taken as a
 * client address: a failed authentication is counted by its address, and that address's reservations
 * here end with it (decisions.md 53). The other limits' keys (API keys, endpoints) name no address.
 */
function droppingReservations(reservations: Reservations, counter: GuardedCounter): GuardedCounter {
  return {
    ...counter,
    add: (key) => {
      reservations.dropAddress(key);
      return counter.add(key);
    },
  };
}
