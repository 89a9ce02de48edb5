import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument, notFound } from '../../errors.js';
import { subtractMinor } from '../../money.js';
import { readablePartner, requireOperator } from '../auth/principal.js';
import { customersByKeys } from '../customers/queries.js';
import { deviceModelsByIds, devicesByKeys } from '../devices/queries.js';
import { financeOrdersOfDevices, insertFinanceOrder } from '../financeOrders/queries.js';
import { financeTermsFields, standingOf } from '../financeOrders/terms.js';
import { clerksByKeys } from '../clerks/queries.js';
import { isUniqueViolation, optionalText, requireAmount, requireId, requireText } from '../inputs.js';
import { merchantsByKeys } from '../merchants/queries.js';
import { insertAuditEvent } from '../audit/queries.js';
import { operatorActor } from '../audit/record.js';
import { requireExistingPartner } from '../partners/guards.js';
import { insertTransactions } from '../transactions/queries.js';
import { cartByTag, insertCart } from './queries.js';
import type { CartRow } from './rows.js';

export const cartResolvers: Resolvers = {
  Query: {
    cart: (_root, { cartTag, partnerId: requested }, ctx) => {
      // Carts are for partner keys (not retail keys) and operators (decisions.md 1).
      const partnerId = readablePartner(ctx, requested, ['partner']);
      if (partnerId === undefined) return null;
      if (partnerId === null) throw invalidArgument('partnerId', 'is required for operators: cart tags are unique within a partner');
      return cartByTag(ctx.db, partnerId, cartTag).then((row) => row ?? null);
    },
  },
  Mutation: {
    createCart: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.db, input.partnerId);
      const currency = input.currency;
      const purchase = requireAmount('input.purchaseAmount', input.purchaseAmount, currency, 'positive');
      const down = requireAmount('input.downPayment', input.downPayment, currency, 'non-negative');
      if (down > purchase) throw invalidArgument('input.downPayment', 'must not be more than the purchase amount');
      const pricePreTax = requireAmount('input.pricePreTax', input.pricePreTax, currency, 'non-negative');
      const monthly = requireAmount('input.monthlyCost', input.monthlyCost, currency, 'positive');
      const weekly = requireAmount('input.weeklyCost', input.weeklyCost, currency, 'positive');
      if (!Number.isInteger(input.months) || input.months < 1 || input.months > 120) throw invalidArgument('input.months', 'must be from 1 to 120');
      const ids = {
        customer: requireId('customer', input.customerId),
        merchant: requireId('merchant', input.merchantId),
        clerk: requireId('clerk', input.salesClerkId),
        model: requireId('device model', input.deviceModelId),
      };
      const actor = operatorActor(ctx);
      return ctx.db.transaction(async (trx) => {
        if (!(await customersByKeys(trx, [{ partnerId, id: ids.customer }]))[0]) throw notFound('customer', ids.customer);
        if (!(await merchantsByKeys(trx, [{ partnerId, id: ids.merchant }]))[0]) throw notFound('merchant', ids.merchant);
        if (!(await clerksByKeys(trx, [{ partnerId, id: ids.clerk }]))[0]) throw notFound('clerk', ids.clerk);
        if (!(await deviceModelsByIds(trx, [ids.model]))[0]) throw notFound('device model', ids.model);
        try {
          const cart = await insertCart(trx, {
            partner_id: partnerId,
            cart_tag: requireText('input.cartTag', input.cartTag, 64),
            customer_id: ids.customer,
            merchant_id: ids.merchant,
            clerk_id: ids.clerk,
            device_model_id: ids.model,
            device_description: optionalText('input.deviceDescription', input.deviceDescription),
            currency,
            purchase_minor: purchase.toString(),
            down_payment_minor: down.toString(),
            price_pre_tax_minor: pricePreTax.toString(),
            monthly_cost_minor: monthly.toString(),
            weekly_cost_minor: weekly.toString(),
            months: input.months,
          });
          await insertAuditEvent(trx, actor, { action: 'cart.create', subjectKind: 'cart', subjectId: cart.id, partnerId, details: { cartTag: cart.cart_tag } });
          return cart;
        } catch (error) {
          if (isUniqueViolation(error)) throw invalidArgument('input.cartTag', 'is already a cart of this partner');
          throw error;
        }
      });
    },
    financeCart: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.db, input.partnerId);
      const deviceId = requireId('device', input.deviceId);
      const now = ctx.now();
      const actor = operatorActor(ctx);
      return ctx.db.transaction(async (trx) => {
        // Lock the cart so two operators cannot finance it twice.
        const cart = await trx<CartRow>('carts').where({ partner_id: partnerId, cart_tag: input.cartTag }).forUpdate().first();
        if (!cart) throw notFound('cart', input.cartTag);
        const financed = await trx('finance_orders').where({ partner_id: partnerId, cart_id: cart.id }).first('id');
        if (financed) throw invalidArgument('input.cartTag', `was already financed as finance order ${financed.id}`);
        const [device] = await devicesByKeys(trx, [{ partnerId, id: deviceId }]);
        if (!device) throw notFound('device', deviceId);
        if (device.model_id !== cart.device_model_id) throw invalidArgument('input.deviceId', "is not of the cart's device model");
        if (device.customer_id !== null && device.customer_id !== cart.customer_id) {
          throw invalidArgument('input.deviceId', "is held by another customer than the cart's");
        }
        const [current] = await financeOrdersOfDevices(trx, [{ partnerId, id: deviceId }]);
        if (current && !standingOf(current, now).fullyPaid) {
          throw invalidArgument('input.deviceId', `is still being repaid under finance order ${current.id}`);
        }
        if (device.customer_id === null) {
          await trx('devices').where({ partner_id: partnerId, id: deviceId }).update({ customer_id: cart.customer_id });
        }
        const order = await insertFinanceOrder(trx, {
          partner_id: partnerId,
          customer_id: cart.customer_id,
          device_id: deviceId,
          merchant_id: cart.merchant_id,
          clerk_id: cart.clerk_id,
          cart_id: cart.id,
          currency: cart.currency,
          purchase_minor: cart.purchase_minor,
          down_payment_minor: cart.down_payment_minor,
          price_pre_tax_minor: cart.price_pre_tax_minor,
          monthly_cost_minor: cart.monthly_cost_minor,
          weekly_cost_minor: cart.weekly_cost_minor,
          months: cart.months,
          ordered_at: now,
        });
        // The partner's ledger: the financed sale, +financeAmount.
        await insertTransactions(trx, [{
          partner_id: partnerId,
          type: 'finance',
          amount_minor: subtractMinor(cart.purchase_minor, cart.down_payment_minor).toString(),
          currency: cart.currency,
          occurred_at: now,
          merchant_id: cart.merchant_id,
          clerk_id: cart.clerk_id,
          finance_order_id: order.id,
          payment_id: null,
          adjustment_id: null,
        }]);
        await insertAuditEvent(trx, actor, { action: 'cart.finance', subjectKind: 'finance_order', subjectId: order.id, partnerId, details: { cartTag: cart.cart_tag, deviceId } });
        return order;
      });
    },
  },
  Cart: {
    cartTag: (cart) => cart.cart_tag,
    customer: async (cart, _args, ctx) => (await ctx.loaders.customers.byKey.load({ partnerId: cart.partner_id, id: cart.customer_id }))!,
    merchant: async (cart, _args, ctx) => (await ctx.loaders.merchants.byKey.load({ partnerId: cart.partner_id, id: cart.merchant_id }))!,
    salesClerk: async (cart, _args, ctx) => (await ctx.loaders.clerks.byKey.load({ partnerId: cart.partner_id, id: cart.clerk_id }))!,
    ...financeTermsFields,
    deviceModel: async (cart, _args, ctx) => (await ctx.loaders.devices.modelById.load(cart.device_model_id))!,
    deviceDescription: (cart) => cart.device_description,
    financeOrder: async (cart, _args, ctx) => (await ctx.loaders.financeOrders.ofCart.load({ partnerId: cart.partner_id, id: cart.id }))[0] ?? null,
    createdAt: (cart) => cart.created_at,
  },
};
