import type { Resolvers } from '../../__generated__/resolvers.js';
import { amountExceedsBalance, invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { formatAmount, parsePaymentAmount } from '../../kernel/money.js';
import type { Context } from '../../pipeline/context.js';
import { readablePartner } from '../auth/principal.js';
import { column, madeColumn } from '../columns.js';
import type { DeviceRow } from '../devices/rows.js';
import { connectionResolvers, idCursorOf, pageAfter, pageOf, parseIdCursor, slicePageByPosition } from '../pages.js';
import { listingOf, statusMomentOf } from './listing.js';
import { financeOrderById, financeOrdersPrecede, listFinanceOrders } from './queries.js';
import { daysBoughtBy, type RepaymentParent, repaymentOf } from './repayment.js';
import { FINANCE_ORDER_CURSOR, type FinanceOrderAmounts, type FinanceOrderParent } from './rows.js';
import {
  type OrderTerms,
  orderStatusOf,
  paymentOptionsOf,
  remainingBalanceOf,
  scheduleOf,
  standingOf,
  withAmounts,
} from './terms.js';

const CURSOR = FINANCE_ORDER_CURSOR;
const cursorOf = (order: FinanceOrderParent) => idCursorOf(CURSOR, order.id);

const money = (order: FinanceOrderParent, minor: bigint | string) => formatAmount(minor, order.currency);

/**
 * An amount formatted as its order's row was read (withAmounts): its text, or the error formatting it
 * raised, which the field answers as its resolver's throw was answered (decisions.md 47).
 */
const amount = (name: keyof FinanceOrderAmounts) => madeColumn<FinanceOrderParent, string>(name);

/** A device's current order: the newest one financing it. */
async function currentOrderOfDevice(device: DeviceRow, ctx: Context) {
  const [newest] = await ctx.reads.loaders.financeOrders.ofDevice.load({ partnerId: device.partner_id, id: device.id });
  return newest ?? null;
}

/** Where the order stands at its partner's time, under its partner's settings (decisions.md 15). */
function partnerStandingOf(order: OrderTerms & Pick<FinanceOrderParent, 'partner_id'>, ctx: Context) {
  return standingOf(
    order,
    ctx.partnerPolicies.nowFor(order.partner_id),
    ctx.partnerPolicies.settingsFor(order.partner_id),
  );
}

async function currentStandingOfDevice(device: DeviceRow, ctx: Context) {
  const order = await currentOrderOfDevice(device, ctx);
  return order ? partnerStandingOf(order, ctx) : null;
}

/** daysBoughtBy's amount, refused as a payment of it would be: not an amount of the currency, 0 or less, above the balance. */
function daysBoughtByAmount(repayment: RepaymentParent, amount: string): number {
  const { order } = repayment;
  const parsed = parsePaymentAmount(amount, order.currency);
  if ('problem' in parsed) throw invalidArgument('amount', `is not a payment in ${order.currency}: ${parsed.problem}`);
  const remaining = remainingBalanceOf(order);
  if (parsed.minor > remaining.minor) {
    throw amountExceedsBalance(
      formatAmount(parsed.minor, order.currency),
      formatAmount(remaining.minor, order.currency),
      order.currency,
    );
  }
  return daysBoughtBy(order, parsed.minor);
}

export const financeOrderResolvers: Resolvers = {
  Query: {
    financeOrder: (_root, { id }, ctx) => {
      const partnerId = readablePartner(ctx, null);
      if (partnerId === undefined || !isDatabaseId(id)) return null;
      if (partnerId === null)
        return financeOrderById(ctx.reads.db, id, null).then((row) => (row ? withAmounts(row) : null));
      return ctx.reads.loaders.financeOrders.byKey.load({ partnerId, id });
    },
    financeOrders: async (_root, { first, after, partnerId: requested, ...filters }, ctx, info) => {
      // Partner and retail keys their own partner's, operators any (decisions.md 1); vendors FORBIDDEN.
      const partnerId = readablePartner(ctx, requested);
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(CURSOR, after) : undefined;
      const listing =
        partnerId === undefined
          ? null
          : listingOf(partnerId, filters, statusMomentOf(partnerId, ctx.partnerPolicies, ctx.now()));
      if (listing === null) return { rows: [], hasNextPage: false, previousExists: null };
      return pageAfter(
        afterId,
        limit,
        (after, count) =>
          listFinanceOrders(ctx.reads.db, listing, { after, limit: count }).then((rows) => rows.map(withAmounts)),
        (after) => financeOrdersPrecede(ctx.reads.db, listing, after),
      );
    },
  },
  FinanceOrderConnection: connectionResolvers(cursorOf),
  FinanceOrder: {
    customer: async (order, _args, ctx) =>
      (await ctx.reads.loaders.customers.byKey.load({ partnerId: order.partner_id, id: order.customer_id }))!,
    device: async (order, _args, ctx) =>
      (await ctx.reads.loaders.devices.byKey.load({ partnerId: order.partner_id, id: order.device_id }))!,
    merchant: async (order, _args, ctx) =>
      (await ctx.reads.loaders.merchants.byKey.load({ partnerId: order.partner_id, id: order.merchant_id }))!,
    salesClerk: async (order, _args, ctx) =>
      (await ctx.reads.loaders.clerks.byKey.load({ partnerId: order.partner_id, id: order.clerk_id }))!,
    cart: (order, _args, ctx) =>
      order.cart_id ? ctx.reads.loaders.carts.byKey.load({ partnerId: order.partner_id, id: order.cart_id }) : null,
    // Formatted as the row was read (withAmounts; decisions.md 47): on jit, property reads.
    purchaseAmount: amount('purchase_amount'),
    downPayment: amount('down_payment_amount'),
    financeAmount: amount('finance_amount'),
    pricePreTax: amount('price_pre_tax_amount'),
    monthlyCost: amount('monthly_cost_amount'),
    weeklyCost: amount('weekly_cost_amount'),
    repayableTotal: (order, _args, ctx) => money(order, partnerStandingOf(order, ctx).repayableMinor),
    totalPaid: (order) => money(order, order.total_paid_minor),
    remainingBalance: (order, _args, ctx) => money(order, partnerStandingOf(order, ctx).remainingMinor),
    time: column('ordered_at'),
    paidThrough: (order, _args, ctx) => partnerStandingOf(order, ctx).paidThrough,
    lockAt: (order, _args, ctx) => partnerStandingOf(order, ctx).lockAt,
    nextPayment: (order, _args, ctx) => partnerStandingOf(order, ctx).nextPayment,
    fullyPaid: (order, _args, ctx) => partnerStandingOf(order, ctx).fullyPaid,
    secureStatus: (order, _args, ctx) => partnerStandingOf(order, ctx).secureStatus,
    status: (order, _args, ctx) =>
      orderStatusOf(
        order,
        ctx.partnerPolicies.nowFor(order.partner_id),
        ctx.partnerPolicies.settingsFor(order.partner_id),
      ),
    releaseAt: (order, _args, ctx) => partnerStandingOf(order, ctx).releaseAt,
    closedAt: column('closed_at'),
    closedReason: column('closed_reason'),
    closedNote: column('closed_note'),
    // Read whole (one statement, batched per request), then paged: the answer never holds more than a page.
    payments: async (order, { first, after }, ctx, info) =>
      slicePageByPosition(
        await ctx.reads.loaders.payments.ofOrder.load({ partnerId: order.partner_id, id: order.id }),
        pageOf(pageSizeOf(info, first), after),
      ),
    paymentOptions: (order) => paymentOptionsOf(order).map((option) => ({ ...option, currency: order.currency })),
    schedule: (order, _args, ctx) =>
      scheduleOf(order, ctx.partnerPolicies.nowFor(order.partner_id)).map((installment) => ({
        ...installment,
        currency: order.currency,
      })),
    repayment: (order, _args, ctx) => ({
      ...repaymentOf(
        order,
        ctx.partnerPolicies.nowFor(order.partner_id),
        ctx.partnerPolicies.settingsFor(order.partner_id),
      ),
      order,
    }),
  },
  Repayment: {
    minimumPaymentAmount: (repayment) => formatAmount(repayment.minimumPaymentMinor, repayment.currency),
    fullPayoffAmount: (repayment) => formatAmount(repayment.fullPayoffMinor, repayment.currency),
    options: (repayment) => repayment.options.map((option) => ({ ...option, currency: repayment.currency })),
    daysBoughtBy: (repayment, { amount }) => daysBoughtByAmount(repayment, amount),
  },
  RepaymentOption: {
    amount: (option) => formatAmount(option.amountMinor, option.currency),
  },
  PaymentOption: {
    amount: (option) => formatAmount(option.amountMinor, option.currency),
  },
  Installment: {
    amount: (installment) => formatAmount(installment.amountMinor, installment.currency),
    paid: (installment) => formatAmount(installment.paidMinor, installment.currency),
  },
  // A device's fields that are its current order's: the order finances the device, so they live here.
  Device: {
    financeOrder: (device, _args, ctx) => currentOrderOfDevice(device, ctx),
    // The moment the device locks, or locked (terms.ts Standing.validThrough; decisions.md 44).
    validThrough: async (device, _args, ctx) => (await currentStandingOfDevice(device, ctx))?.validThrough ?? null,
    secureStatus: async (device, _args, ctx) => (await currentStandingOfDevice(device, ctx))?.secureStatus ?? null,
  },
};
