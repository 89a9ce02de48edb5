// The limits of actions a resolver applies, beside the request limits (requestLimits.ts) and in the
// same store: the webhook tools per key and per endpoint (decisions.md 13), and the payment references
// a key's notifications had refused (decisions.md 36). Met in a resolver, each answers as that field's
// error (RATE_LIMITED with retryAfter), never as the whole request's.
import type { Logger } from 'pino';
import { rateLimited } from '../../kernel/errors.js';
import type { LimitSettings } from '../../kernel/limitSettings.js';
import type { CounterOptions } from './rateLimitStore.js';
import { toSeconds, type WindowCounter } from './windowCounts.js';

export interface ActionLimits {
  /**
   * One use of a webhook tool (sendTestWebhook, redeliverEvent) by API key `keyId` on endpoint
   * `endpoint` ("partner:id"): counted against both, RATE_LIMITED past either limit.
   */
  chargeWebhookTool(keyId: string, endpoint: string): Promise<void>;
  /** RATE_LIMITED when API key `keyId` has had its limit of payment references refused in its window. */
  refuseReferenceGuesser(keyId: string): Promise<void>;
  /** A payment reference quoted with API key `keyId` was refused (unknown, or another amount): counted. */
  recordReferenceRefusal(keyId: string): Promise<void>;
}

/** The actions' limits, each counted by the counter `counterOf` makes in the request limits' store. */
export function createActionLimits(
  settings: Pick<LimitSettings, 'webhookTools' | 'paymentReferenceFailures'>,
  counterOf: (options: CounterOptions) => WindowCounter,
  logger?: Pick<Logger, 'warn'>,
): ActionLimits {
  const { webhookTools, paymentReferenceFailures } = settings;
  const toolsPerKey = counterOf({ name: 'webhooktool-key', limit: webhookTools.perKey, blockOnRefusal: false });
  const toolsPerEndpoint = counterOf({
    name: 'webhooktool-endpoint',
    limit: webhookTools.perEndpoint,
    blockOnRefusal: false,
  });
  // Counted like failed authentications: a look before the notification, a count after its refusal.
  const referenceFailures = counterOf({ name: 'reffail', limit: paymentReferenceFailures, blockOnRefusal: false });

  return {
    async chargeWebhookTool(keyId, endpoint) {
      const byKey = await toolsPerKey.consume(keyId);
      if (!byKey.allowed) {
        throw rateLimited(
          `this API key has used the webhook tools ${webhookTools.perKey.limit} times in ${webhookTools.perKey.windowSeconds} s`,
          toSeconds(byKey.msBeforeNext),
        );
      }
      const byEndpoint = await toolsPerEndpoint.consume(endpoint);
      if (!byEndpoint.allowed) {
        throw rateLimited(
          `the webhook tools have been used on this endpoint ${webhookTools.perEndpoint.limit} times in ${webhookTools.perEndpoint.windowSeconds} s`,
          toSeconds(byEndpoint.msBeforeNext),
        );
      }
    },
    async refuseReferenceGuesser(keyId) {
      const count = await referenceFailures.peek(keyId);
      if (count === null || count.consumed < paymentReferenceFailures.limit) return;
      throw rateLimited(
        `this API key has had ${paymentReferenceFailures.limit} payment references refused (unknown, or not their amount) in ${paymentReferenceFailures.windowSeconds} s`,
        toSeconds(count.msBeforeNext),
      );
    },
    async recordReferenceRefusal(keyId) {
      const count = await referenceFailures.add(keyId);
      // The refusal that reaches the limit: counted atomically by the store, so logged once per window.
      if (count.consumed !== paymentReferenceFailures.limit) return;
      logger?.warn(
        { keyId, refusedReferences: count.consumed, blockedSeconds: toSeconds(count.msBeforeNext) },
        'API key refused payment references after too many unknown or mismatched ones',
      );
    },
  };
}
