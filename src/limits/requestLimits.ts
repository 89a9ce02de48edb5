// The request limits both doors share, applied where a credential is looked up (createContext, and
// createAccessToken, which takes a key as its argument): requests per API key, failed authentications
// and requests without a credential per client address. Counted by rate-limiter-flexible in the store
// sharedStore.ts picks: Redis or Postgres, shared by every instance, or this process's memory.
import type { Logger } from 'pino';
import { clientAddressKey } from '../clientAddress.js';
import { type AppError, rateLimited } from '../errors.js';
import type { LimitSettings, WindowLimit } from '../limitSettings.js';
import { createWindowCounter, type RateLimitBackend, type RateLimitStoreObserver, StoreGuard } from './sharedStore.js';

/**
 * Where an API key stands in its request quota after a request: what the doors' RateLimit headers
 * say. A plain value, so the headers do not depend on how a limiter counts.
 */
export interface KeyQuota {
  /** Requests per window (RATE_LIMIT_REQUESTS). */
  limit: number;
  /** The window's length in seconds (RATE_LIMIT_WINDOW_SECONDS). */
  windowSeconds: number;
  /** Requests the key has left in its current window. */
  remaining: number;
  /** Whole seconds until its current window ends (or, refused, until its block ends). */
  resetSeconds: number;
}

export interface RequestLimiter {
  /** 429 when `address` failed authentication too often lately; call before looking its credential up. */
  refuseBlockedAddress(address: string | null): Promise<void>;
  /** A credential presented from `address` was not valid. */
  recordAuthFailure(address: string | null): Promise<void>;
  /** One request of API key `keyId`: counted, or refused (429) past its limit; the key's quota either way. */
  chargeKey(keyId: string): Promise<{ quota: KeyQuota; refusal: AppError | null }>;
  chargeAnonymous(address: string | null): Promise<void>;
  /** Where the counts are kept, for /readyz: `memory`, `shared (redis)`, or `insurance (...)` while the store fails. */
  storeStatus(): string;
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** An API key past its request quota: 429 with the seconds until its window ends. */
export const keyQuotaExceeded = (quota: WindowLimit, retryAfterSeconds: number) =>
  rateLimited(`this API key has used its ${quota.limit} requests per ${quota.windowSeconds} s`, retryAfterSeconds);

export interface RequestLimiterOptions {
  /** Where the counts live (sharedStore.ts); this process's memory when absent. */
  backend?: RateLimitBackend;
  logger?: Pick<Logger, 'warn' | 'info'>;
  observer?: RateLimitStoreObserver;
}

/**
 * Windows (README, Request limits): a key's window starts at its first request and lasts the window's
 * seconds; at most `limit` requests pass in it, and the request past the limit blocks the key (and an
 * address past its anonymous limit) for one whole window from then. Failed authentications are
 * counted the same way, and an address is refused while its window holds `limit` of them. The
 * library reads the real clock (Date.now), not ServiceDeps.now.
 */
export function createRequestLimiter(
  settings: Pick<LimitSettings, 'requestsPerKey' | 'authFailuresPerAddress' | 'anonymousPerAddress'>,
  options: RequestLimiterOptions = {},
): RequestLimiter {
  const { requestsPerKey, authFailuresPerAddress, anonymousPerAddress } = settings;
  const backend = options.backend ?? { kind: 'memory' };
  const guard =
    backend.kind === 'memory'
      ? null
      : new StoreGuard(
          backend.kind,
          options.logger ?? { warn() {}, info() {} },
          options.observer,
          backend.kind === 'redis' ? () => backend.client.status === 'ready' : undefined,
        );
  const requests = createWindowCounter(backend, guard, {
    name: 'key',
    limit: requestsPerKey,
    blockOnRefusal: true,
    sweeps: true,
  });
  const anonymous = createWindowCounter(backend, guard, {
    name: 'anonymous',
    limit: anonymousPerAddress,
    blockOnRefusal: true,
  });
  const failures = createWindowCounter(backend, guard, {
    name: 'authfail',
    limit: authFailuresPerAddress,
    blockOnRefusal: false,
  });
  return {
    async refuseBlockedAddress(address) {
      if (address === null) return;
      const count = await failures.peek(clientAddressKey(address));
      if (!count || count.consumed < authFailuresPerAddress.limit) return;
      throw rateLimited(
        `too many failed authentications from this address (the limit is ${authFailuresPerAddress.limit} per ${authFailuresPerAddress.windowSeconds} s)`,
        toSeconds(count.msBeforeNext),
      );
    },
    async recordAuthFailure(address) {
      if (address === null) return;
      const key = clientAddressKey(address);
      const count = await failures.add(key);
      // The failure that reaches the limit blocks the address: counted atomically by the store, so
      // exactly one instance sees it, and it is logged once per window.
      if (count.consumed !== authFailuresPerAddress.limit) return;
      options.logger?.warn(
        {
          clientAddress: key,
          failures: authFailuresPerAddress.limit,
          blockedSeconds: toSeconds(count.msBeforeNext),
        },
        'client address blocked after too many failed authentications',
      );
    },
    async chargeKey(keyId) {
      const count = await requests.consume(keyId);
      const quota: KeyQuota = {
        limit: requestsPerKey.limit,
        windowSeconds: requestsPerKey.windowSeconds,
        remaining: count.allowed ? Math.max(0, requestsPerKey.limit - count.consumed) : 0,
        resetSeconds: toSeconds(count.msBeforeNext),
      };
      if (count.allowed) return { quota, refusal: null };
      const refusal = keyQuotaExceeded(requestsPerKey, toSeconds(count.msBeforeNext));
      return { quota, refusal };
    },
    async chargeAnonymous(address) {
      if (address === null) return;
      const count = await anonymous.consume(clientAddressKey(address));
      if (count.allowed) return;
      throw rateLimited(
        `this address has made ${anonymousPerAddress.limit} requests without a credential in ${anonymousPerAddress.windowSeconds} s; send an API key`,
        toSeconds(count.msBeforeNext),
      );
    },
    storeStatus: () => guard?.status() ?? 'memory',
  };
}

/** The limits as one request sees them, its client address fixed; the same calls whichever door it came through. */
export interface CredentialLimits {
  /** Before a presented credential is looked up: 429 when this address failed authentication too often lately. */
  beforeLookup(): Promise<void>;
  /** The credential was not valid (INVALID_API_KEY, INVALID_ACCESS_TOKEN). */
  failed(): Promise<void>;
  /** The credential is API key `keyId` or a token it bought: one request against the key, 429 past its limit. */
  accepted(keyId: string): Promise<void>;
  /** The request carried no credential: one request against its address, 429 past the limit. */
  anonymous(): Promise<void>;
}

const nothing = async () => {};
const UNLIMITED: CredentialLimits = { beforeLookup: nothing, failed: nothing, accepted: nothing, anonymous: nothing };

/** `onQuota` hears the quota of every key charged, refused or not: the door writes its RateLimit headers from it. */
export function credentialLimitsFor(
  limiter: RequestLimiter | undefined,
  clientAddress: string | null,
  onQuota: (quota: KeyQuota) => void = () => {},
): CredentialLimits {
  if (!limiter) return UNLIMITED;
  return {
    beforeLookup: () => limiter.refuseBlockedAddress(clientAddress),
    failed: () => limiter.recordAuthFailure(clientAddress),
    accepted: async (keyId) => {
      const { quota, refusal } = await limiter.chargeKey(keyId);
      onQuota(quota);
      if (refusal) throw refusal;
    },
    anonymous: () => limiter.chargeAnonymous(clientAddress),
  };
}
