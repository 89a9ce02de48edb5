// Where the request limits keep their counts: in Redis (REDIS_URL, through rate-limiter-flexible) or
// in the service's Postgres database (the rate_limits table, in our own SQL: postgresCounts.ts),
// shared by every instance; in this process's memory on the embedded database (one process owns its
// files; rate-limiter-flexible's memory store). A store that fails is stood in for by an in-memory
// insurance limiter with the same settings until it answers again.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../../db/knex.js';
import type { WindowLimit } from '../../kernel/limitSettings.js';
import type { PostgresCounts, PostgresLimit } from './postgresCounts.js';
import type { WindowCount, WindowCounter } from './windowCounts.js';

/** Where the counts live: `memory` is this process only. */
export type RateLimitBackend =
  | { kind: 'memory' }
  | { kind: 'postgres'; db: Db }
  | { kind: 'redis'; client: Redis; keyPrefix: string };

/** Hears the store's failures and recoveries (createApp installs the metrics). */
export interface RateLimitStoreObserver {
  /** The shared store failed: decisions are the insurance limiter's until it answers again. */
  failedOver(store: 'postgres' | 'redis'): void;
  recovered(store: 'postgres' | 'redis'): void;
  /** One decision taken by the insurance limiter. */
  insuranceDecision(store: 'postgres' | 'redis'): void;
}

/**
 * One Redis connection that fails fast: no offline queue and no retried commands, so a request never
 * waits for a Redis that is down; it reconnects in the background. Waits up to `readyWithinMs` for
 * the first connection: a Redis not there at start is the insurance limiter's until it comes.
 */
export async function connectRedis(url: string, logger: Pick<Logger, 'debug'>, readyWithinMs = 2000): Promise<Redis> {
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

/**
 * The shared store's state, and the switch to the insurance limiter: a store error logs once and
 * moves every decision to insurance; the first success of a call started after the failure logs the
 * recovery and moves them back.
 */
export class StoreGuard {
  private failure: { at: number; since: Date; reason: string } | null = null;

  constructor(
    readonly store: 'postgres' | 'redis',
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
    private readonly observer?: RateLimitStoreObserver,
    /** Whether the store's connection is up now, where the client knows (Redis): readiness before any request. */
    private readonly connected: () => boolean = () => true,
  ) {}

  /** What /readyz says: `shared (redis)`, or `insurance (...)` while the store fails. */
  status(): string {
    if (!this.failure) return this.connected() ? `shared (${this.store})` : `insurance (${this.store} not connected)`;
    return `insurance (${this.store} store failing since ${this.failure.since.toISOString()}: ${this.failure.reason})`;
  }

  async run<T>(shared: () => Promise<T>, insurance: () => Promise<T>): Promise<T> {
    const started = performance.now();
    let answer: T;
    try {
      answer = await shared();
    } catch (error) {
      this.fellBack(error);
      return insurance();
    }
    this.answered(started);
    return answer;
  }

  /** The store failed a call: logged once, and this decision is the insurance limiter's. */
  fellBack(error: unknown): void {
    this.failed(error);
    this.observer?.insuranceDecision(this.store);
  }

  /** A call started at `started` (performance.now()) succeeded: the store is back if it had failed before. */
  answered(started: number): void {
    if (this.failure && started > this.failure.at) {
      this.logger.info(
        { rateLimitStore: this.store, failingSince: this.failure.since.toISOString() },
        'rate-limit store answers again: request limits are shared again',
      );
      this.failure = null;
      this.observer?.recovered(this.store);
    }
  }

  private failed(error: unknown): void {
    if (this.failure) {
      this.failure.at = performance.now();
      return;
    }
    const reason = error instanceof Error ? error.message : String(error);
    this.failure = { at: performance.now(), since: new Date(), reason };
    this.logger.warn(
      { err: error, rateLimitStore: this.store },
      'rate-limit store failed: request limits are counted by this instance alone (insurance) until it answers',
    );
    this.observer?.failedOver(this.store);
  }
}

export interface CounterOptions {
  /** Names the limit among the others in the same store (the key's prefix). */
  name: string;
  limit: WindowLimit;
  /** Past the limit, the key is refused for a whole window from its first refusal (library blockDuration). */
  blockOnRefusal: boolean;
}

const countOf = (res: RateLimiterRes): WindowCount => ({
  consumed: res.consumedPoints,
  msBeforeNext: Math.max(0, res.msBeforeNext),
});

/** A counter over one of the library's limiters (memory or Redis). */
function libraryCounter(limiter: RateLimiterAbstract): WindowCounter {
  return {
    // A refusal is the library's rejection with a RateLimiterRes; any other rejection is the store failing.
    consume: (key) =>
      limiter.consume(key).then(
        (res) => ({ ...countOf(res), allowed: true }),
        (rejection: unknown) => {
          if (rejection instanceof RateLimiterRes) return { ...countOf(rejection), allowed: false };
          throw rejection;
        },
      ),
    add: (key) => limiter.penalty(key).then(countOf),
    // The memory store answers a window that has ended (until its timer drops it): no count either.
    peek: (key) => limiter.get(key).then((res) => (res && res.msBeforeNext > 0 ? countOf(res) : null)),
  };
}

/** A limit as the Postgres store counts it. */
export const postgresLimit = (options: CounterOptions): PostgresLimit => ({
  name: options.name,
  limit: options.limit.limit,
  windowMs: options.limit.windowSeconds * 1000,
  blockMs: options.blockOnRefusal ? options.limit.windowSeconds * 1000 : 0,
});

/** A limit's counter: the shared store's, stood in for by `insurance` while the store fails. */
export interface GuardedCounter extends WindowCounter {
  /** The in-memory counter with the same settings: what decides while the shared store fails. */
  insurance: WindowCounter;
}

/**
 * A counter of fixed windows, each starting at a key's first event and lasting `windowSeconds`
 * (the only window the library's shared stores keep), with the same settings on the insurance
 * counter. `postgres` counts the Postgres backend's limits.
 */
export function createWindowCounter(
  backend: RateLimitBackend,
  guard: StoreGuard | null,
  options: CounterOptions,
  postgres: PostgresCounts | null,
): GuardedCounter {
  const base = {
    keyPrefix: options.name,
    points: options.limit.limit,
    duration: options.limit.windowSeconds,
    blockDuration: options.blockOnRefusal ? options.limit.windowSeconds : 0,
  };
  const insurance = libraryCounter(new RateLimiterMemory(base));
  const shared =
    backend.kind === 'redis'
      ? libraryCounter(
          new RateLimiterRedis({
            ...base,
            keyPrefix: `${backend.keyPrefix}:${options.name}`,
            storeClient: backend.client,
            // Straight to insurance while the connection is down, without a round trip.
            rejectIfRedisNotReady: true,
          }),
        )
      : backend.kind === 'postgres' && postgres
        ? postgres.counter(postgresLimit(options))
        : null;
  if (!shared || !guard) return { ...insurance, insurance };
  return {
    consume: (key) =>
      guard.run(
        () => shared.consume(key),
        () => insurance.consume(key),
      ),
    add: (key) =>
      guard.run(
        () => shared.add(key),
        () => insurance.add(key),
      ),
    peek: (key) =>
      guard.run(
        () => shared.peek(key),
        () => insurance.peek(key),
      ),
    insurance,
  };
}
