// The request limits both doors share, applied where a credential is looked up (createContext, and
// createAccessToken, which takes a key as its argument): requests per API key, failed authentications
// and requests without a credential per client address. Beside them, the limits of actions a resolver
// applies (the webhook tools, refused payment references). Counted in the store the entry chose
// (rateLimitStore.ts): Redis or Postgres, shared by every instance, or this process's memory.

import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ShapedStatement } from '../../db/prepared.js';
import { clientAddressKey } from '../../kernel/clientAddress.js';
import { type AppError, requestRateLimited } from '../../kernel/errors.js';
import type { LimitSettings, WindowLimit } from '../../kernel/limitSettings.js';
import { type ActionLimits, createActionLimits } from './actionLimits.js';
import { type KeyAdmission, memoryRateLimitStore, type RateLimitStore } from './rateLimitStore.js';
import { toSeconds, type WindowCount } from './windowCounts.js';

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

/** A key's admission: its quota when it was counted, and the 429 when it is refused. */
interface KeyAdmissionAnswer {
  quota: KeyQuota | null;
  refusal: AppError | null;
}

export interface RequestLimiter extends ActionLimits {
  /** 429 when `address` failed authentication too often lately. */
  refuseBlockedAddress(address: string | null): Promise<void>;
  /** A credential presented from `address` was not valid: 429 when the address is blocked already, else counted. */
  recordAuthFailure(address: string | null): Promise<void>;
  /**
   * A request of API key `keyId` from `address`: refused (429) when the address is blocked (nothing
   * counted, no quota), else counted against the key, refused past its limit, with the key's quota.
   * On Postgres one statement asks both (postgresStore.ts), in Redis one script (redisStore.ts).
   */
  admitKey(address: string | null, keyId: string): Promise<KeyAdmissionAnswer>;
  /**
   * Only where the counts live in the database the key is looked up in (Postgres): runs `lookup`, the
   * key by its hash, and admitKey for the key it finds, in one statement on `db`.
   */
  lookUpAdmitting?<Row extends { id: string }>(
    db: Knex,
    address: string | null,
    lookup: ShapedStatement,
  ): Promise<{ row: Row | undefined; admission: KeyAdmissionAnswer | null }>;
  chargeAnonymous(address: string | null): Promise<void>;
  /** Where the counts are kept, for /readyz: `memory`, `shared (redis)`, or `insurance (...)` while the store fails. */
  storeStatus(): string;
}

/** An API key past its request quota: 429 with the seconds until its window ends. */
export const keyQuotaExceeded = (quota: WindowLimit, retryAfterSeconds: number) =>
  requestRateLimited(
    `this API key has used its ${quota.limit} requests per ${quota.windowSeconds} s`,
    retryAfterSeconds,
  );

interface RequestLimiterOptions {
  /** Where the counts live (rateLimitStore.ts); this process's memory when absent. */
  store?: RateLimitStore;
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Windows (docs/operating.md#limits): a key's window starts at its first request and lasts the window's
 * seconds; at most `limit` requests pass in it, and the request past the limit blocks the key (and an
 * address past its anonymous limit) for one whole window from then. Failed authentications are
 * counted the same way, and an address is refused while its window holds `limit` of them. The
 * library reads the real clock (Date.now), not ServiceDeps.now.
 */
export function createRequestLimiter(
  settings: Pick<
    LimitSettings,
    'requestsPerKey' | 'authFailuresPerAddress' | 'anonymousPerAddress' | 'webhookTools' | 'paymentReferenceFailures'
  >,
  options: RequestLimiterOptions = {},
): RequestLimiter {
  const { requestsPerKey, authFailuresPerAddress, anonymousPerAddress, webhookTools, paymentReferenceFailures } =
    settings;
  const store = options.store ?? memoryRateLimitStore();
  const requestsOptions = { name: 'key', limit: requestsPerKey, blockOnRefusal: true };
  const failuresOptions = { name: 'authfail', limit: authFailuresPerAddress, blockOnRefusal: false };
  const anonymous = store.counter({ name: 'anonymous', limit: anonymousPerAddress, blockOnRefusal: true });
  const failures = store.counter(failuresOptions);
  // The actions' limits: more named limits in the same store, so every instance shares them.
  const actions = createActionLimits(
    { webhookTools, paymentReferenceFailures },
    (counter) => store.counter(counter),
    options.logger,
  );

  const addressBlocked = (msBeforeNext: number) =>
    requestRateLimited(
      `too many failed authentications from this address (the limit is ${authFailuresPerAddress.limit} per ${authFailuresPerAddress.windowSeconds} s)`,
      toSeconds(msBeforeNext),
    );
  const isBlocked = (count: WindowCount | null): count is WindowCount =>
    count !== null && count.consumed >= authFailuresPerAddress.limit;
  const keyAdmission = (count: WindowCount & { allowed: boolean }) => {
    const quota: KeyQuota = {
      limit: requestsPerKey.limit,
      windowSeconds: requestsPerKey.windowSeconds,
      remaining: count.allowed ? Math.max(0, requestsPerKey.limit - count.consumed) : 0,
      resetSeconds: toSeconds(count.msBeforeNext),
    };
    const refusal = count.allowed ? null : keyQuotaExceeded(requestsPerKey, toSeconds(count.msBeforeNext));
    return { quota, refusal };
  };
  const addressKeyOf = (address: string | null) => (address === null ? null : clientAddressKey(address));
  const answerOf = (admission: KeyAdmission): KeyAdmissionAnswer =>
    admission.blocked
      ? { quota: null, refusal: addressBlocked(admission.msBeforeNext) }
      : keyAdmission(admission.count);
  const lookUpAdmitting = store.lookUpAdmitting?.bind(store);

  const refuseBlockedAddress = async (address: string | null) => {
    if (address === null) return;
    const count = await failures.peek(clientAddressKey(address));
    if (isBlocked(count)) throw addressBlocked(count.msBeforeNext);
  };

  return {
    refuseBlockedAddress,
    async recordAuthFailure(address) {
      if (address === null) return;
      await refuseBlockedAddress(address);
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
    admitKey: async (address, keyId) =>
      answerOf(await store.admitKey(failuresOptions, addressKeyOf(address), requestsOptions, keyId)),
    ...(lookUpAdmitting && {
      lookUpAdmitting: async <Row extends { id: string }>(
        db: Knex,
        address: string | null,
        lookup: ShapedStatement,
      ) => {
        const found = await lookUpAdmitting<Row>(db, lookup, failuresOptions, addressKeyOf(address), requestsOptions);
        return { row: found.row, admission: found.admission && answerOf(found.admission) };
      },
    }),
    async chargeAnonymous(address) {
      if (address === null) return;
      const count = await anonymous.consume(clientAddressKey(address));
      if (count.allowed) return;
      throw requestRateLimited(
        `this address has made ${anonymousPerAddress.limit} requests without a credential in ${anonymousPerAddress.windowSeconds} s; send an API key`,
        toSeconds(count.msBeforeNext),
      );
    },
    ...actions,
    storeStatus: () => store.status(),
  };
}

/** The limits as one request sees them, its client address fixed; the same calls whichever door it came through. */
export interface CredentialLimits {
  /** 429 when this address failed authentication too often lately. */
  refuseBlockedAddress(): Promise<void>;
  /** The credential was not valid (INVALID_API_KEY, INVALID_ACCESS_TOKEN): 429 when the address is blocked already, else counted. */
  failed(): Promise<void>;
  /** The credential is API key `keyId` or a token it bought: 429 when the address is blocked, or past the key's limit. */
  accepted(keyId: string): Promise<void>;
  /**
   * On Postgres: runs `lookup` (an API key by its hash) with the limits in the same statement; the
   * accepted() call for the key it found then answers from that statement.
   */
  lookUpCounted?<Row extends { id: string }>(db: Knex, lookup: ShapedStatement): Promise<Row | undefined>;
  /** The request carried no credential: one request against its address, 429 past the limit. */
  anonymous(): Promise<void>;
  /** One use of a webhook tool by API key `keyId` on endpoint `endpoint` ("partner:id"): 429 past either limit. */
  webhookTool(keyId: string, endpoint: string): Promise<void>;
  /** 429 when API key `keyId` has had too many payment references refused lately (decisions.md 36). */
  refuseReferenceGuesser(keyId: string): Promise<void>;
  /** A payment reference quoted with API key `keyId` was refused as unknown or for another amount: counted. */
  referenceRefused(keyId: string): Promise<void>;
}

const nothing = async () => {};
const UNLIMITED: CredentialLimits = {
  refuseBlockedAddress: nothing,
  failed: nothing,
  accepted: nothing,
  anonymous: nothing,
  webhookTool: nothing,
  refuseReferenceGuesser: nothing,
  referenceRefused: nothing,
};

/** `onQuota` hears the quota of every key charged, refused or not: the door writes its RateLimit headers from it. */
export function credentialLimitsFor(
  limiter: RequestLimiter | undefined,
  clientAddress: string | null,
  onQuota: (quota: KeyQuota) => void = () => {},
): CredentialLimits {
  if (!limiter) return UNLIMITED;
  // The admission a counted lookup brought along, for the key it found.
  let counted: { keyId: string; admission: KeyAdmissionAnswer } | null = null;
  const lookUpAdmitting = limiter.lookUpAdmitting?.bind(limiter);
  return {
    refuseBlockedAddress: () => limiter.refuseBlockedAddress(clientAddress),
    failed: () => limiter.recordAuthFailure(clientAddress),
    accepted: async (keyId) => {
      const { quota, refusal } =
        counted?.keyId === keyId ? counted.admission : await limiter.admitKey(clientAddress, keyId);
      counted = null;
      if (quota) onQuota(quota);
      if (refusal) throw refusal;
    },
    ...(lookUpAdmitting && {
      lookUpCounted: async <Row extends { id: string }>(db: Knex, lookup: ShapedStatement) => {
        const { row, admission } = await lookUpAdmitting<Row>(db, clientAddress, lookup);
        counted = row && admission ? { keyId: row.id, admission } : null;
        return row;
      },
    }),
    anonymous: () => limiter.chargeAnonymous(clientAddress),
    webhookTool: (keyId, endpoint) => limiter.chargeWebhookTool(keyId, endpoint),
    refuseReferenceGuesser: (keyId) => limiter.refuseReferenceGuesser(keyId),
    referenceRefused: (keyId) => limiter.recordReferenceRefusal(keyId),
  };
}
