import type {
  Resolvers,
  TransactionResolvers,
  TransactionType as TransactionTypeName,
} from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { formatAmount, money } from '../../kernel/money.js';
import type { Context } from '../../pipeline/context.js';
import { operatorActor } from '../audit/record.js';
import { readablePartner, requireOperator } from '../auth/principal.js';
import { column } from '../columns.js';
import { requireAmount, requireId, requireText } from '../inputs.js';
import { pageInfoOf } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import { createAdjustment } from './adjust.js';
import { cursorOf, parseCursor } from './cursor.js';
import { parseFilterTerms } from './filters.js';
import { transactionsInWindow } from './listing.js';
import { transactionsPrecede } from './queries.js';
import {
  type JoinedLink,
  type ListedTransactionRow,
  ROW_TRANSACTION_TYPES,
  type TransactionRow,
  type TransactionType,
} from './rows.js';
import { linksSelected } from './selection.js';

/** The longest window one request may ask for (decisions.md 7). */
const MAX_WINDOW_DAYS = 366;

const TYPE_NAMES = {
  finance: 'FinanceTransaction',
  cash: 'CashTransaction',
  commission: 'CommissionTransaction',
  adjustment: 'AdjustmentTransaction',
} as const;

/**
 * A link the listing read along (selection.ts), as its type's parent: it holds the columns of every
 * field this request selects of it (linkColumns.ts), which is all its resolvers will read.
 */
const joined = <Row extends { id: string }>(link: JoinedLink<Row> | null | undefined) => link as Row | null | undefined;

// A link the listing read along is answered from the row, without a DataLoader round trip or a
// promise; otherwise it is loaded as usual (batched per request).
const merchantOf = (row: TransactionRow, ctx: Context) =>
  joined(row.links?.merchant) ??
  ctx.reads.loaders.merchants.byKey
    .load({ partnerId: row.partner_id, id: row.merchant_id })
    .then((merchant) => merchant!);
const orderOf = (row: TransactionRow, ctx: Context) =>
  joined(row.links?.order) ??
  ctx.reads.loaders.financeOrders.byKey
    .load({ partnerId: row.partner_id, id: row.finance_order_id! })
    .then((order) => order!);
const clerkOf = (row: TransactionRow, ctx: Context) =>
  joined(row.links?.clerk) ??
  ctx.reads.loaders.clerks.byKey.load({ partnerId: row.partner_id, id: row.clerk_id! }).then((clerk) => clerk!);
const paymentOf = (row: TransactionRow, ctx: Context) =>
  joined(row.links?.payment) ??
  ctx.reads.loaders.payments.byKey.load({ partnerId: row.partner_id, id: row.payment_id! }).then((payment) => payment!);
const deviceOf = async (row: TransactionRow, ctx: Context) => {
  const order = await orderOf(row, ctx);
  return (await ctx.reads.loaders.devices.byKey.load({ partnerId: order.partner_id, id: order.device_id }))!;
};
const adjustmentOf = (row: TransactionRow, ctx: Context) =>
  joined(row.links?.adjustment) ??
  ctx.reads.loaders.transactions.adjustmentByKey
    .load({ partnerId: row.partner_id, id: row.adjustment_id! })
    .then((adjustment) => adjustment!);

/** The fields every transaction type shares (`type` is the row's own: transactionTypeValues). */
const common = {
  time: column('occurred_at'),
  // Formatted as the row was read (queries.ts LISTED_AMOUNT): on jit a property read, not a call per row.
  // An Error there is answered as a throw by both executors, which the generated types do not say.
  amount: column('amount') as unknown as { resolve: (row: ListedTransactionRow) => string },
  merchant: (row: TransactionRow, _args: unknown, ctx: Context) => merchantOf(row, ctx),
};

/**
 * TransactionType's internal values are the rows' own (ROW_TRANSACTION_TYPES): graphql-js answers
 * 'finance' as FINANCE, so a transaction's `type` needs no resolver (on jit, a property read: one call
 * fewer per listed row). Outside the generated Resolvers type, whose enum names are the wire's.
 */
export const transactionTypeValues = {
  TransactionType: ROW_TRANSACTION_TYPES satisfies Record<TransactionTypeName, TransactionType>,
};

export const transactionResolvers: Resolvers = {
  Query: {
    transactions: async (_root, { start, end, filter, first, after, partnerId: requested }, ctx, info) => {
      // Transactions are for partner keys (not retail keys) and operators (decisions.md 1).
      const partnerId = readablePartner(ctx, requested, ['partner']);
      if (partnerId === null) throw invalidArgument('partnerId', 'is required for operators');
      if (end < start) throw invalidArgument('end', 'must not be before the start of the window');
      if (end - start > MAX_WINDOW_DAYS * 86_400)
        throw invalidArgument('end', `must be at most ${MAX_WINDOW_DAYS} days after the start of the window`);
      const pageSize = pageSizeOf(info, first);
      const filters = parseFilterTerms(filter ?? []);
      const afterPosition = after != null ? parseCursor(after) : undefined;
      if (partnerId === undefined) return { rows: [], hasNextPage: false, previousExists: null };
      const window = { partnerId, start: new Date(start * 1000), end: new Date(end * 1000), filters };
      const rows = await transactionsInWindow(
        ctx.reads.db,
        {
          ...window,
          after: afterPosition,
          // One page at a time, whatever the caller asks: memory follows the page, not the window.
          limit: pageSize + 1,
          links: linksSelected(info),
        },
        ctx.signal,
        ctx.readAhead && { reads: ctx.readAhead, rowsShown: pageSize },
      );
      const hasNextPage = rows.length > pageSize;
      return {
        rows: hasNextPage ? rows.slice(0, pageSize) : rows,
        hasNextPage,
        previousExists: afterPosition ? () => transactionsPrecede(ctx.reads.db, window, afterPosition) : null,
      };
    },
  },
  Mutation: {
    createAdjustment: async (_root, { input }, ctx) => {
      const operatorId = requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      const merchantId = requireId('merchant', input.merchantId);
      const financeOrderId = input.financeOrderId != null ? requireId('finance order', input.financeOrderId) : null;
      const amount = money(requireAmount('input.amount', input.amount, input.currency, 'non-zero'), input.currency);
      const notes = requireText('input.notes', input.notes, 1000);
      const adjustment = await createAdjustment(
        ctx.primary,
        operatorActor(ctx),
        {
          partnerId,
          merchantId,
          financeOrderId,
          kind: input.kind === 'PAYMENT' ? 'payment' : 'commission',
          amount,
          amountAsGiven: input.amount,
          notes,
          operatorId,
        },
        ctx.partnerPolicies.nowFor(partnerId),
      );
      ctx.logger.info({ adjustmentId: adjustment.id, partnerId, operatorId }, 'adjustment recorded');
      return adjustment;
    },
  },
  TransactionConnection: {
    edges: (connection) => connection.rows,
    nodes: (connection) => connection.rows,
    pageInfo: (connection) => pageInfoOf(connection.rows, connection.hasNextPage, cursorOf, connection.previousExists),
  },
  TransactionEdge: {
    cursor: (row) => cursorOf(row),
    node: (row) => row,
  },
  Transaction: {
    __resolveType: (row) => TYPE_NAMES[row.type],
  } as TransactionResolvers,
  FinanceTransaction: {
    ...common,
    financeOrder: (row, _args, ctx) => orderOf(row, ctx),
    salesClerk: (row, _args, ctx) => clerkOf(row, ctx),
    device: (row, _args, ctx) => joined(row.links?.device) ?? deviceOf(row, ctx),
  },
  CashTransaction: {
    ...common,
    payment: (row, _args, ctx) => paymentOf(row, ctx),
    financeOrder: (row, _args, ctx) => orderOf(row, ctx),
    salesClerk: (row, _args, ctx) => clerkOf(row, ctx),
  },
  CommissionTransaction: {
    ...common,
    payment: (row, _args, ctx) => paymentOf(row, ctx),
    financeOrder: (row, _args, ctx) => orderOf(row, ctx),
  },
  AdjustmentTransaction: {
    ...common,
    adjustment: (row, _args, ctx) => adjustmentOf(row, ctx),
  },
  Adjustment: {
    kind: (adjustment) => (adjustment.kind === 'payment' ? 'PAYMENT' : 'COMMISSION'),
    amount: (adjustment) => formatAmount(adjustment.amount_minor, adjustment.currency),
    merchant: async (adjustment, _args, ctx) =>
      (await ctx.reads.loaders.merchants.byKey.load({ partnerId: adjustment.partner_id, id: adjustment.merchant_id }))!,
    financeOrder: (adjustment, _args, ctx) =>
      adjustment.finance_order_id
        ? ctx.reads.loaders.financeOrders.byKey.load({
            partnerId: adjustment.partner_id,
            id: adjustment.finance_order_id,
          })
        : null,
    time: column('created_at'),
  },
};
