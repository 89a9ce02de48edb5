import type { Resolvers } from '../../__generated__/resolvers.js';
import { forbidden, invalidArgument } from '../../kernel/errors.js';
import { formatAmount } from '../../kernel/money.js';
import { requirePartnerTenant, requirePrincipal, requireVendorToken } from '../auth/principal.js';
import { column, madeColumn } from '../columns.js';
import { requireId } from '../inputs.js';
import { withinReferenceGuesses } from '../paymentReferences/guesses.js';
import { paymentVendorsByIds } from '../vendors/queries.js';
import { withAmount } from './amount.js';
import { requireIdempotencyKey } from './idempotency.js';
import { recordInStorePayment } from './inStore.js';
import { acceptNotification, notificationMessage } from './notification.js';
import { MAX_LOCATOR_LENGTH } from './notificationLimits.js';
import { observePaymentOutcome } from './observe.js';
import { deviceRepaymentOf } from './repaymentQuote.js';
import type { PaymentParent } from './rows.js';

export const paymentResolvers: Resolvers = {
  Query: {
    deviceRepayment: async (_root, { deviceTag, currency }, ctx) => {
      const vendorId = requireVendorToken(ctx);
      if (deviceTag.length > MAX_LOCATOR_LENGTH) {
        throw invalidArgument('deviceTag', `must be at most ${MAX_LOCATOR_LENGTH} characters`);
      }
      // The notification's refusals of its vendor, before anything of the device is read.
      const [vendor] = await paymentVendorsByIds(ctx.primary, [vendorId]);
      if (!vendor) throw forbidden('this access token belongs to no payment vendor');
      if (!vendor.enabled) throw forbidden(`payment vendor "${vendor.name}" is disabled`);
      return deviceRepaymentOf(ctx.primary, { deviceTag, currency: currency ?? null }, ctx.partnerPolicies);
    },
  },
  Mutation: {
    recordInStorePayment: async (_root, { input }, ctx) => {
      const partnerId = requirePartnerTenant(ctx, ['retail']);
      const idempotencyKey = requireIdempotencyKey(input.idempotencyKey);
      const request = {
        partnerId,
        merchantId: requireId('merchant', input.merchantId),
        clerkId: requireId('clerk', input.salesClerkId),
        financeOrderId: requireId('finance order', input.financeOrderId),
        amount: input.amount,
        currency: input.currency,
        idempotencyKey,
      };
      // Told to ctx.observe (counted by ops/metrics.ts): recorded, replayed, or refused with its error code.
      const claimed = await observePaymentOutcome(ctx.observe, 'in_store', () =>
        recordInStorePayment(
          ctx.primary,
          { ...request, receivedAt: ctx.partnerPolicies.nowFor(partnerId) },
          ctx.now(),
          ctx.unlockKeys,
          { inSteps: ctx.distributed },
        ),
      );
      return { ...claimed.receipt, replayed: claimed.replayed, payment: claimed.payment };
    },
    createPaymentNotification: async (_root, { notification }, ctx) => {
      const vendorId = requireVendorToken(ctx);
      const [vendor] = await paymentVendorsByIds(ctx.primary, [vendorId]);
      if (!vendor) throw forbidden('this access token belongs to no payment vendor');
      // Told to ctx.observe (counted by ops/metrics.ts): recorded, replayed, or refused with its error code.
      // A reference quoted is under the limit of refused references of the key behind the token.
      const claimed = await observePaymentOutcome(ctx.observe, 'vendor', () =>
        withinReferenceGuesses(ctx.credentialLimits, requirePrincipal(ctx).keyId, notification, () =>
          acceptNotification(ctx.primary, vendor, notification, ctx.partnerPolicies, ctx.unlockKeys),
        ),
      );
      const receipt = { ...claimed.receipt, replayed: claimed.replayed, payment: claimed.payment };
      return { message: notificationMessage(claimed.receipt), receipt };
    },
  },
  Payment: {
    financeOrder: async (payment, _args, ctx) =>
      (await ctx.reads.loaders.financeOrders.byKey.load({
        partnerId: payment.partner_id,
        id: payment.finance_order_id,
      }))!,
    // Formatted as the row was read (amount.ts; decisions.md 47): on jit, a property read.
    amount: madeColumn<PaymentParent, string>('amount'),
    time: column('received_at'),
    channel: (payment) => (payment.channel === 'in_store' ? 'IN_STORE' : 'VENDOR'),
    merchant: (payment, _args, ctx) =>
      payment.merchant_id
        ? ctx.reads.loaders.merchants.byKey.load({ partnerId: payment.partner_id, id: payment.merchant_id })
        : null,
    salesClerk: (payment, _args, ctx) =>
      payment.clerk_id
        ? ctx.reads.loaders.clerks.byKey.load({ partnerId: payment.partner_id, id: payment.clerk_id })
        : null,
    paymentVendor: (payment, _args, ctx) =>
      payment.vendor_id ? ctx.reads.loaders.paymentVendors.byId.load(payment.vendor_id) : null,
    vendorReference: column('vendor_reference'),
  },
  PaymentReceipt: {
    // The row is at hand when this request recorded the payment; a replayed receipt has only its id.
    payment: async (receipt, _args, ctx) =>
      (receipt.payment && withAmount(receipt.payment)) ??
      (await ctx.reads.loaders.payments.byKey.load({ partnerId: receipt.partnerId, id: receipt.paymentId }))!,
    remainingBalance: (receipt) => formatAmount(receipt.remainingMinor, receipt.currency),
    // Receipts stored before unlock codes have none.
    unlockCode: (receipt) => receipt.unlockCode ?? null,
  },
};
