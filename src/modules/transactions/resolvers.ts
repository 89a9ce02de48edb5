import type {
  Resolvers,
  TransactionResolvers,
  TransactionType as TransactionTypeName,
} from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { formatAmount, money } from '../../kernel/money.js';
import { operatorActor } from '../audit/record.js';
import { readablePartner, requireOperator } from '../auth/principal.js';
import type { ClerkRow } from '../clerks/rows.js';
import { column, madeColumn } from '../columns.js';
import type { DeviceParent } from '../devices/rows.js';
import type { FinanceOrderParent } from '../financeOrders/rows.js';
import { requireAmount, requireId, requireText } from '../inputs.js';
import type { MerchantRow } from '../merchants/rows.js';
import { pageInfoOf } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import type { PaymentParent } from '../payments/rows.js';
import { createAdjustment } from './adjust.js';
import { cursorOf, parseCursor } from './cursor.js';
import { parseFilterTerms } from './filters.js';
import { transactionsInWindow } from './listing.js';
import { transactionsPrecede } from './queries.js';
import {
  type AdjustmentRow,
  LISTED_LINK_AT,
  type ListedTransactionRow,
  ROW_TRANSACTION_TYPES,
  type TransactionLink,
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
 * A link field: the row the listing read along for it, at the top of the transaction's row
 * (LISTED_LINK_AT), so jit reads it as a column (decisions.md 47). The listing reads along every link
 * the request selects (selection.ts), with the columns of every field it selects of it
 * (linkColumns.ts), which is all its type's resolvers will read; null where the transaction has no
 * such row (a non-null field then fails as a null one does).
 */
const joinedLink = <Row>(link: TransactionLink) => madeColumn<ListedTransactionRow, Row>(LISTED_LINK_AT[link]);

/** The fields every transaction type shares (`type` is the row's own: transactionTypeValues). */
const common = {
  time: column('occurred_at'),
  // Formatted as the row was read (queries.ts LISTED_AMOUNT): on jit a property read, not a call per row.
  // An Error there is answered as a throw by both executors, which the generated types do not say.
  amount: madeColumn<ListedTransactionRow, string>('amount'),
  merchant: joinedLink<MerchantRow>('merchant'),
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
    financeOrder: joinedLink<FinanceOrderParent>('order'),
    salesClerk: joinedLink<ClerkRow>('clerk'),
    device: joinedLink<DeviceParent>('device'),
  },
  CashTransaction: {
    ...common,
    payment: joinedLink<PaymentParent>('payment'),
    financeOrder: joinedLink<FinanceOrderParent>('order'),
    salesClerk: joinedLink<ClerkRow>('clerk'),
  },
  CommissionTransaction: {
    ...common,
    payment: joinedLink<PaymentParent>('payment'),
    financeOrder: joinedLink<FinanceOrderParent>('order'),
  },
  AdjustmentTransaction: {
    ...common,
    adjustment: joinedLink<AdjustmentRow>('adjustment'),
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
