import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { operatorActor } from '../audit/record.js';
import { readablePartner, requireOperator } from '../auth/principal.js';
import { column } from '../columns.js';
import { financeTermsFields, withAmounts } from '../financeOrders/terms.js';
import { optionalText, requireAmount, requireId, requireText } from '../inputs.js';
import { requireExistingPartner } from '../partners/guards.js';
import { createCart } from './create.js';
import { financeCart } from './finance.js';
import { cartByTag } from './queries.js';
import { CART_TAG_MAX_LENGTH } from './rows.js';

export const cartResolvers: Resolvers = {
  Query: {
    cart: (_root, { cartTag, partnerId: requested }, ctx) => {
      // Carts are for partner keys (not retail keys) and operators (decisions.md 1).
      const partnerId = readablePartner(ctx, requested, ['partner']);
      if (partnerId === undefined) return null;
      if (partnerId === null)
        throw invalidArgument('partnerId', 'is required for operators: cart tags are unique within a partner');
      return cartByTag(ctx.reads.db, partnerId, cartTag).then((row) => row ?? null);
    },
  },
  Mutation: {
    createCart: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      const currency = input.currency;
      const purchase = requireAmount('input.purchaseAmount', input.purchaseAmount, currency, 'positive');
      const down = requireAmount('input.downPayment', input.downPayment, currency, 'non-negative');
      if (down > purchase) throw invalidArgument('input.downPayment', 'must not be more than the purchase amount');
      const pricePreTax = requireAmount('input.pricePreTax', input.pricePreTax, currency, 'non-negative');
      const monthly = requireAmount('input.monthlyCost', input.monthlyCost, currency, 'positive');
      const weekly = requireAmount('input.weeklyCost', input.weeklyCost, currency, 'positive');
      if (!Number.isInteger(input.months) || input.months < 1 || input.months > 120)
        throw invalidArgument('input.months', 'must be from 1 to 120');
      const ids = {
        customer_id: requireId('customer', input.customerId),
        merchant_id: requireId('merchant', input.merchantId),
        clerk_id: requireId('clerk', input.salesClerkId),
        device_model_id: requireId('device model', input.deviceModelId),
      };
      return createCart(ctx.primary, operatorActor(ctx), {
        partner_id: partnerId,
        cart_tag: requireText('input.cartTag', input.cartTag, CART_TAG_MAX_LENGTH),
        ...ids,
        device_description: optionalText('input.deviceDescription', input.deviceDescription),
        currency,
        purchase_minor: purchase.toString(),
        down_payment_minor: down.toString(),
        price_pre_tax_minor: pricePreTax.toString(),
        monthly_cost_minor: monthly.toString(),
        weekly_cost_minor: weekly.toString(),
        months: input.months,
      });
    },
    financeCart: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      const deviceId = requireId('device', input.deviceId);
      const order = await financeCart(
        ctx.primary,
        operatorActor(ctx),
        { partnerId, cartTag: input.cartTag, deviceId },
        ctx.partnerPolicies.nowFor(partnerId),
      );
      return withAmounts(order);
    },
  },
  Cart: {
    cartTag: column('cart_tag'),
    customer: async (cart, _args, ctx) =>
      (await ctx.reads.loaders.customers.byKey.load({ partnerId: cart.partner_id, id: cart.customer_id }))!,
    merchant: async (cart, _args, ctx) =>
      (await ctx.reads.loaders.merchants.byKey.load({ partnerId: cart.partner_id, id: cart.merchant_id }))!,
    salesClerk: async (cart, _args, ctx) =>
      (await ctx.reads.loaders.clerks.byKey.load({ partnerId: cart.partner_id, id: cart.clerk_id }))!,
    ...financeTermsFields,
    deviceModel: async (cart, _args, ctx) => (await ctx.reads.loaders.devices.modelById.load(cart.device_model_id))!,
    deviceDescription: column('device_description'),
    financeOrder: async (cart, _args, ctx) =>
      (await ctx.reads.loaders.financeOrders.ofCart.load({ partnerId: cart.partner_id, id: cart.id }))[0] ?? null,
    createdAt: column('created_at'),
  },
};
