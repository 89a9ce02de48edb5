// The arguments of the dashboards' listings (Query.financeOrders, and Query.customers through their
// orders), checked and read into the window and filters the queries take.
import { invalidArgument } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import type { PartnerPolicies } from '../partners/policies.js';
import type { FinanceOrderStatus, ListingWindow, OrderFilters, StatusMoment } from './rows.js';

interface ListingArguments {
  status?: FinanceOrderStatus | null;
  merchantId?: string | null;
  createdAfter?: number | null;
  createdBefore?: number | null;
}

/** The moment a listing of `partnerId` (null: every partner) takes its status at: each partner's time and grace. */
export function statusMomentOf(partnerId: string | null, policies: PartnerPolicies, realNow: Date): StatusMoment {
  if (partnerId === null) return { partnerId, realNow, offsets: policies.sandboxOffsets() };
  return { partnerId, now: policies.nowFor(partnerId), graceHours: policies.settingsFor(partnerId).lockGraceHours };
}

/**
 * The listing of `partnerId` (null: every partner) that the arguments ask for at `moment`; null when
 * nothing can match (a merchant id that could not be a database id, which is never sent to SQL).
 * A window whose end (createdBefore) is before its start is INVALID_ARGUMENT, as for transactions.
 */
export function listingOf(
  partnerId: string | null,
  args: ListingArguments,
  moment: StatusMoment,
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
    moment,
  };
}
