// Where the request limits keep their counts: one interface, three stores, chosen once at the entry
// (serviceLayers.ts; createApp keeps this process's memory when no layer chooses): this process's
// memory (here), Redis (redisStore.ts) or the service's Postgres database (postgresStore.ts). The
// shared two stand an in-memory insurance counter in for the store while it fails (storeGuard.ts).
import type { Knex } from 'knex';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { ShapedStatement } from '../../db/prepared.js';
import type { WindowLimit } from '../../kernel/limitSettings.js';
import type { WindowCount, WindowCounter } from './windowCounts.js';

export interface CounterOptions {
  /** Names the limit among the others in the same store (the key's prefix). */
  name: string;
  limit: WindowLimit;
  /** Past the limit, the key is refused for a whole window from its first refusal (library blockDuration). */
  blockOnRefusal: boolean;
}

/** What admitKey decided: the address's block, or the key's count. */
export type KeyAdmission =
  | { blocked: true; msBeforeNext: number }
  | { blocked: false; count: WindowCount & { allowed: boolean } };

/** A counted lookup's answer: the key's row (none found: undefined) and its admission. */
export interface LookupAnswer<Row> {
  row: Row | undefined;
  admission: KeyAdmission | null;
}

export interface RateLimitStore {
  /** The counter of the limit `options` names: the same counter to whoever asks for that name. */
  counter(options: CounterOptions): WindowCounter;
  /**
   * Whether address `addressKey` has reached `failures`' limit (then nothing is counted), else one
   * request of key `keyId` counted against `requests`. On Postgres one statement asks both, in Redis one script.
   */
  admitKey(
    failures: CounterOptions,
    addressKey: string | null,
    requests: CounterOptions,
    keyId: string,
  ): Promise<KeyAdmission>;
  /**
   * Only where the counts live in the database the key is looked up in (Postgres): runs `lookup`, the
   * key by its hash, and admitKey for the key it finds, in one statement on `db`.
   */
  lookUpAdmitting?<Row extends { id: string }>(
    db: Knex,
    lookup: ShapedStatement,
    failures: CounterOptions,
    addressKey: string | null,
    requests: CounterOptions,
  ): Promise<LookupAnswer<Row>>;
  /** For /readyz: `memory`, `shared (redis)`, or `insurance (...)` while a shared store fails. */
  status(): string;
  /** Lets go of the store's connection and timers (the app's stop). */
  close(): void;
}

const countOf = (res: RateLimiterRes): WindowCount => ({
  consumed: res.consumedPoints,
  msBeforeNext: Math.max(0, res.msBeforeNext),
});

/** The library's settings for a limit: fixed windows, each starting at a key's first event. */
export const libraryOptions = (options: CounterOptions) => ({
  keyPrefix: options.name,
  points: options.limit.limit,
  duration: options.limit.windowSeconds,
  blockDuration: options.blockOnRefusal ? options.limit.windowSeconds : 0,
});

/** A counter over one of the library's limiters (memory or Redis). */
export function libraryCounter(limiter: RateLimiterAbstract): WindowCounter {
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

/** A limit counted in this process's memory: the memory store's, and every shared store's insurance. */
export const memoryCounter = (options: CounterOptions): WindowCounter =>
  libraryCounter(new RateLimiterMemory(libraryOptions(options)));

/** One of what `make` makes per limit's name (a counter, its settings), made when first asked for. */
export function oncePerLimit<T>(make: (options: CounterOptions) => T) {
  const made = new Map<string, T>();
  return (options: CounterOptions): T => {
    let one = made.get(options.name);
    if (one === undefined) {
      one = make(options);
      made.set(options.name, one);
    }
    return one;
  };
}

/** admitKey as two calls in turn: a look at the address's failures, then the key's count. */
export async function admitInTurn(
  failures: { counter: WindowCounter; limit: number },
  addressKey: string | null,
  requests: WindowCounter,
  keyId: string,
): Promise<KeyAdmission> {
  const blocked = addressKey === null ? null : await failures.counter.peek(addressKey);
  if (blocked && blocked.consumed >= failures.limit) return { blocked: true, msBeforeNext: blocked.msBeforeNext };
  return { blocked: false, count: await requests.consume(keyId) };
}

/** A store of the counters `counterOf` makes, each limit's made once, admitting a key in two calls. */
export function storeOfCounters(
  counterOf: (options: CounterOptions) => WindowCounter,
  status: () => string,
  close: () => void = () => {},
): RateLimitStore {
  const counter = oncePerLimit(counterOf);
  return {
    counter,
    admitKey: (failures, addressKey, requests, keyId) =>
      admitInTurn({ counter: counter(failures), limit: failures.limit.limit }, addressKey, counter(requests), keyId),
    status,
    close,
  };
}

/** This process's memory (the embedded database: one process owns its files). */
export const memoryRateLimitStore = (): RateLimitStore => storeOfCounters(memoryCounter, () => 'memory');
