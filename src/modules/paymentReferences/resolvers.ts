import type { Resolvers } from '../../__generated__/resolvers.js';
import { notFound } from '../../kernel/errors.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { formatAmount } from '../../kernel/money.js';
import type { Context } from '../../pipeline/context.js';
import { operatorActor } from '../audit/record.js';
import { readablePartner, requirePrincipal } from '../auth/principal.js';
import { financeOrderById } from '../financeOrders/queries.js';
import { requireId } from '../inputs.js';
import { connectionResolvers, idCursorOf, pageAfter, parseIdCursor } from '../pages.js';
import { normaliseCode } from './code.js';
import { cancelPaymentReference, createPaymentReference } from './create.js';
import { paymentReferenceByCode, paymentReferencesOfOrder, paymentReferencesPrecede } from './queries.js';
import { PAYMENT_REFERENCE_CURSOR, type PaymentReferenceRow, referenceStatusOf } from './rows.js';

// A reference's time is its partner's (a sandbox clock outside production, decisions.md 15).
const partnerNow = (ctx: Context, partnerId: string): Date => ctx.partnerPolicies.nowFor(partnerId);

/**
 * Which partner's references the caller reaches: its own (partner and retail keys), every partner's
 * (null: operators); any other principal is FORBIDDEN.
 */
const referencePartner = (ctx: Context): string | null => readablePartner(ctx, null)!;

/** An operator's writes are audited (operating.md, audit trail); a partner's, like its payments, are not. */
const operatorOf = (ctx: Context) => (requirePrincipal(ctx).kind === 'operator' ? operatorActor(ctx) : null);

export const paymentReferenceResolvers: Resolvers = {
  Query: {
    paymentReference: async (_root, { code }, ctx) => {
      const partnerId = referencePartner(ctx);
      const normalised = normaliseCode(code);
      if (normalised === null) return null;
      return (await paymentReferenceByCode(ctx.reads.db, normalised, partnerId)) ?? null;
    },
  },
  Mutation: {
    createPaymentReference: async (_root, { input }, ctx) => {
      const partnerId = referencePartner(ctx);
      const orderId = requireId('finance order', input.financeOrderId);
      // Another partner's order is not found, never forbidden (decisions.md 1).
      const order = await financeOrderById(ctx.primary, orderId, partnerId);
      if (!order) throw notFound('finance order', orderId);
      return createPaymentReference(ctx.primary, order, input, partnerNow(ctx, order.partner_id), operatorOf(ctx));
    },
    cancelPaymentReference: (_root, { code }, ctx) => {
      const partnerId = referencePartner(ctx);
      // A partner key cancels at its own partner's time; an operator's reach spans partners (real time).
      const now = partnerId ? partnerNow(ctx, partnerId) : ctx.now();
      return cancelPaymentReference(ctx.primary, code, partnerId, now, operatorOf(ctx));
    },
  },
  PaymentReference: {
    code: (reference) => reference.code,
    amount: (reference) => formatAmount(reference.amount_minor, reference.currency),
    daysPaid: (reference) => reference.days_paid,
    expiresAt: (reference) => reference.expires_at,
    status: (reference, _args, ctx) => referenceStatusOf(reference, partnerNow(ctx, reference.partner_id)),
    financeOrder: async (reference, _args, ctx) =>
      (await ctx.reads.loaders.financeOrders.byKey.load({
        partnerId: reference.partner_id,
        id: reference.finance_order_id,
      }))!,
    payment: async (reference, _args, ctx) =>
      reference.payment_id
        ? ((await ctx.reads.loaders.payments.byKey.load({
            partnerId: reference.partner_id,
            id: reference.payment_id,
          })) ?? null)
        : null,
  },
  PaymentReferenceConnection: connectionResolvers((reference: PaymentReferenceRow) =>
    idCursorOf(PAYMENT_REFERENCE_CURSOR, reference.id),
  ),
  FinanceOrder: {
    // An order's references are few: a page of them in id order, in SQL.
    paymentReferences: (order, { first, after }, ctx, info) => {
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(PAYMENT_REFERENCE_CURSOR, after) : undefined;
      const key = { partnerId: order.partner_id, id: order.id };
      return pageAfter(
        afterId,
        limit,
        (from, count) => paymentReferencesOfOrder(ctx.reads.db, key, from, count),
        (from) => paymentReferencesPrecede(ctx.reads.db, key, from),
      );
    },
  },
};
