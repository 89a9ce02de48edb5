// The shared stores' state (Redis, Postgres), and the in-memory insurance counters that decide while
// one fails: a request is never refused, nor kept waiting, because the store is down.
import type { Logger } from 'pino';
import { admitInTurn, type CounterOptions, type KeyAdmission } from './rateLimitStore.js';
import type { WindowCounter } from './windowCounts.js';

/** Hears the store's failures and recoveries (createApp installs the metrics). */
export interface RateLimitStoreObserver {
  /** The shared store failed: decisions are the insurance limiter's until it answers again. */
  failedOver(store: 'postgres' | 'redis'): void;
  recovered(store: 'postgres' | 'redis'): void;
  /** One decision taken by the insurance limiter. */
  insuranceDecision(store: 'postgres' | 'redis'): void;
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

/** What a shared store reports to: the log (its failure once, its recovery once) and the metrics. */
export interface StoreWatch {
  /** Also told each failed reconnection to Redis, at debug. */
  logger: Pick<Logger, 'warn' | 'info' | 'debug'>;
  observer?: RateLimitStoreObserver;
}

/** A limit's counter in a shared store, stood in for by `insurance` while the store fails. */
export interface GuardedCounter extends WindowCounter {
  /** The in-memory counter with the same settings: what decides while the shared store fails. */
  insurance: WindowCounter;
}

/** `shared`'s calls through `guard`, each answered by `insurance` when the store fails it. */
export function guardedCounter(guard: StoreGuard, shared: WindowCounter, insurance: WindowCounter): GuardedCounter {
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

/** A key's admission while the shared store fails: the insurance counters of `counter`'s limits, a look then a count. */
export const insuranceAdmission =
  (counter: (options: CounterOptions) => GuardedCounter) =>
  (
    failures: CounterOptions,
    addressKey: string | null,
    requests: CounterOptions,
    keyId: string,
  ): Promise<KeyAdmission> =>
    admitInTurn(
      { counter: counter(failures).insurance, limit: failures.limit.limit },
      addressKey,
      counter(requests).insurance,
      keyId,
    );
