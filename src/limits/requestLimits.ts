// The request limits both doors share, applied where a credential is looked up (createContext, and
// createAccessToken, which takes a key as its argument): requests per API key, and failed
// authentications per client address. Counted in this process's memory: each instance behind a load
// balancer keeps its own counts.
import type { Logger } from 'pino';
import { clientAddressKey } from '../clientAddress.js';
import { type AppError, rateLimited } from '../errors.js';
import type { LimitSettings } from '../limitSettings.js';
import { FixedWindowCounters } from './fixedWindow.js';

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
  /** Whole seconds until its current window ends. */
  resetSeconds: number;
}

export interface RequestLimiter {
  /** 429 when `address` failed authentication too often lately; call before looking its credential up. */
  refuseBlockedAddress(address: string | null): void;
  /** A credential presented from `address` was not valid. */
  recordAuthFailure(address: string | null): void;
  /** One request of API key `keyId`: counted, or refused (429) past its limit; the key's quota either way. */
  chargeKey(keyId: string): { quota: KeyQuota; refusal: AppError | null };
  chargeAnonymous(address: string | null): void;
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function createRequestLimiter(
  settings: Pick<LimitSettings, 'requestsPerKey' | 'authFailuresPerAddress' | 'anonymousPerAddress'>,
  now: () => Date,
  logger?: Pick<Logger, 'warn'>,
): RequestLimiter {
  const { requestsPerKey, authFailuresPerAddress, anonymousPerAddress } = settings;
  const requests = new FixedWindowCounters(requestsPerKey.windowSeconds * 1000);
  const anonymous = new FixedWindowCounters(anonymousPerAddress.windowSeconds * 1000);
  const failures = new FixedWindowCounters(authFailuresPerAddress.windowSeconds * 1000);
  return {
    refuseBlockedAddress(address) {
      if (address === null) return;
      const blockedMs = failures.blockedFor(clientAddressKey(address), authFailuresPerAddress.limit, now().getTime());
      if (blockedMs === null) return;
      throw rateLimited(
        `too many failed authentications from this address (the limit is ${authFailuresPerAddress.limit} per ${authFailuresPerAddress.windowSeconds} s)`,
        toSeconds(blockedMs),
      );
    },
    recordAuthFailure(address) {
      if (address === null) return;
      const key = clientAddressKey(address);
      const at = now().getTime();
      // The failure that reaches the limit blocks the address: logged once per window.
      if (failures.add(key, at) !== authFailuresPerAddress.limit) return;
      const blockedMs = failures.blockedFor(key, authFailuresPerAddress.limit, at) ?? 0;
      logger?.warn(
        { clientAddress: key, failures: authFailuresPerAddress.limit, blockedSeconds: toSeconds(blockedMs) },
        'client address blocked after too many failed authentications',
      );
    },
    chargeKey(keyId) {
      const at = now().getTime();
      const blockedMs = requests.take(keyId, requestsPerKey.limit, at);
      const usage = requests.usage(keyId, at) ?? {
        count: requestsPerKey.limit,
        endsInMs: requestsPerKey.windowSeconds * 1000,
      };
      const quota: KeyQuota = {
        limit: requestsPerKey.limit,
        windowSeconds: requestsPerKey.windowSeconds,
        remaining: Math.max(0, requestsPerKey.limit - usage.count),
        resetSeconds: toSeconds(usage.endsInMs),
      };
      if (blockedMs === null) return { quota, refusal: null };
      const refusal = rateLimited(
        `this API key has used its ${requestsPerKey.limit} requests per ${requestsPerKey.windowSeconds} s`,
        toSeconds(blockedMs),
      );
      return { quota, refusal };
    },
    chargeAnonymous(address) {
      if (address === null) return;
      const blockedMs = anonymous.take(clientAddressKey(address), anonymousPerAddress.limit, now().getTime());
      if (blockedMs === null) return;
      throw rateLimited(
        `this address has made ${anonymousPerAddress.limit} requests without a credential in ${anonymousPerAddress.windowSeconds} s; send an API key`,
        toSeconds(blockedMs),
      );
    },
  };
}

/** The limits as one request sees them, its client address fixed; the same calls whichever door it came through. */
export interface CredentialLimits {
  /** Before a presented credential is looked up: 429 when this address failed authentication too often lately. */
  beforeLookup(): void;
  /** The credential was not valid (INVALID_API_KEY, INVALID_ACCESS_TOKEN). */
  failed(): void;
  /** The credential is API key `keyId` or a token it bought: one request against the key, 429 past its limit. */
  accepted(keyId: string): void;
  /** The request carried no credential: one request against its address, 429 past the limit. */
  anonymous(): void;
}

const UNLIMITED: CredentialLimits = { beforeLookup() {}, failed() {}, accepted() {}, anonymous() {} };

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
    accepted: (keyId) => {
      const { quota, refusal } = limiter.chargeKey(keyId);
      onQuota(quota);
      if (refusal) throw refusal;
    },
    anonymous: () => limiter.chargeAnonymous(clientAddress),
  };
}
