// The graph's side of a payment's reversal (decisions.md 44): who may ask, and the answer's fields.
// The rule itself is reverse.ts; the REST door (POST /payments/v1/reversal) calls reverseVendorPayment.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { forbidden } from '../../kernel/errors.js';
import { formatAmount } from '../../kernel/money.js';
import { requirePrincipal, requireVendorToken } from '../auth/principal.js';
import { paymentVendorsByIds } from '../vendors/queries.js';
import { withAmount } from './amount.js';
import { requireIdempotencyKey } from './idempotency.js';
import { type Reverser, reversalParentOf, reversePayment } from './reverse.js';

export const reversalResolvers: Resolvers = {
  Mutation: {
    reversePayment: async (_root, { input }, ctx) => {
      const principal = requirePrincipal(ctx);
      let reverser: Reverser;
      if (principal.kind === 'operator')
        reverser = { kind: 'operator', operatorId: principal.operatorId, keyId: principal.keyId };
      else if (principal.kind === 'partner' && principal.keyKind === 'partner')
        reverser = { kind: 'partner', partnerId: principal.partnerId, keyId: principal.keyId };
      else
        throw forbidden(
          principal.kind === 'vendor'
            ? 'a payment vendor reverses its payments with reverseVendorPayment (POST /payments/v1/reversal)'
            : 'this needs a partner key or an operator key; a retail key cannot reverse payments',
        );
      const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
      const partnerId = reverser.kind === 'partner' ? reverser.partnerId : null;
      return reversePayment(
        ctx.primary,
        { reverser, payment: { by: 'id', partnerId, id: input.paymentId }, reason: input.reason, idempotencyKey },
        ctx.partnerPolicies,
      );
    },
    reverseVendorPayment: async (_root, { input }, ctx) => {
      const vendorId = requireVendorToken(ctx);
      // The notification's refusals of its vendor (notification.ts), before anything of the payment is read.
      const [vendor] = await paymentVendorsByIds(ctx.primary, [vendorId]);
      if (!vendor) throw forbidden('this access token belongs to no payment vendor');
      if (!vendor.enabled) throw forbidden(`payment vendor "${vendor.name}" is disabled`);
      if (input.paymentVendor !== vendor.name)
        throw forbidden(
          `this access token belongs to payment vendor "${vendor.name}", not ${JSON.stringify(input.paymentVendor).slice(0, 80)}`,
        );
      const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
      return reversePayment(
        ctx.primary,
        {
          reverser: { kind: 'vendor', vendorId, keyId: requirePrincipal(ctx).keyId },
          payment: { by: 'vendorReference', vendorId, reference: input.reference },
          reason: input.reason,
          idempotencyKey,
        },
        ctx.partnerPolicies,
      );
    },
  },
  Payment: {
    reversibleUntil: (payment) => payment.reversible_until,
    reversal: async (payment, _args, ctx) => {
      const [row] = await ctx.reads.loaders.payments.reversalOf.load({ partnerId: payment.partner_id, id: payment.id });
      return row ? reversalParentOf(row, false) : null;
    },
  },
  PaymentReversal: {
    id: (reversal) => reversal.reversalId,
    // The row is at hand when this request reversed it; a replay or a lookup has only its id.
    payment: async (reversal, _args, ctx) =>
      (reversal.payment && withAmount(reversal.payment)) ??
      (await ctx.reads.loaders.payments.byKey.load({ partnerId: reversal.partnerId, id: reversal.paymentId }))!,
    amount: (reversal) => formatAmount(reversal.amountMinor, reversal.currency),
    remainingBalance: (reversal) => formatAmount(reversal.remainingMinor, reversal.currency),
  },
};
