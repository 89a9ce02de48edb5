// The graph's closeFinanceOrder: operators close an order that still owes something (decisions.md 44).
// A module of its own above financeOrders and transactions: the close writes an adjustment, so it sits
// where both are below it, as the reversal sits in payments.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { notFound } from '../../kernel/errors.js';
import { operatorActor } from '../audit/record.js';
import { requireOperator } from '../auth/principal.js';
import { financeOrderById } from '../financeOrders/queries.js';
import { withAmounts } from '../financeOrders/terms.js';
import { requireId, requireText } from '../inputs.js';
import { closeFinanceOrder } from './close.js';

export const orderClosingResolvers: Resolvers = {
  Mutation: {
    // Operators only (retail, partner and vendor keys FORBIDDEN); the operation refuses and writes (close.ts).
    closeFinanceOrder: async (_root, { input }, ctx) => {
      const operatorId = requireOperator(ctx);
      const id = requireId('finance order', input.financeOrderId);
      const note = requireText('input.note', input.note, 500);
      const found = await financeOrderById(ctx.primary, id, null);
      if (!found) throw notFound('finance order', id);
      const order = await closeFinanceOrder(
        ctx.primary,
        operatorActor(ctx),
        { partnerId: found.partner_id, financeOrderId: id, reason: input.reason, note, operatorId },
        ctx.partnerPolicies.nowFor(found.partner_id),
      );
      ctx.logger.info(
        { financeOrderId: id, partnerId: found.partner_id, operatorId, reason: input.reason },
        'finance order closed',
      );
      return withAmounts(order);
    },
  },
};
