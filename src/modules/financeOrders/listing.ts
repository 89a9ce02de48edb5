// The arguments of the dashboards' listings (Query.financeOrders, and Query.customers through their
// orders), checked and read into the window and filters the queries take.
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import type { FinanceOrderStatus, ListingWindow, OrderFilters } from './rows.js';

export interface ListingArguments {
  status?: FinanceOrderStatus | null;
  merchantId?: string | null;
  createdAfter?: number | null;
  createdBefore?: number | null;
}

/**
 * The listing of `partnerId` (null: every partner) that the arguments ask for at `now`; null when
 * nothing can match (a merchant id that could not be a database id, which is never sent to SQL).
 * A window whose end (createdBefore) is before its start is INVALID_ARGUMENT, as for transactions.
 */
export function listingOf(
  partnerId: string | null,
  args: ListingArguments,
  now: Date,
): (ListingWindow & OrderFilters) | null {
  const { createdAfter, createdBefore } = args;
  if (createdAfter != null && createdBefore != null && createdBefore < createdAfter)
    throw invalidArgument('createdBefore', 'must not be before createdAfter');
  if (args.merchantId != null && !isDatabaseId(args.merchantId)) return null;
  return {
    partnerId,
    createdAfter: createdAfter != null ? new Date(createdAfter * 1000) : null,
    createdBefore: createdBefore != null ? new Date(createdBefore * 1000) : null,
    status: args.status ?? null,
    merchantId: args.merchantId ?? null,
    now,
  };
}
