// The arguments of the dashboards' listing of devices (Query.devices), checked and read into the
// listing its queries take: silentForDays becomes the moment a device must have been silent since,
// in each partner's time (decisions.md 22).
import { invalidArgument } from '../../kernel/errors.js';
import type { PartnerPolicies } from '../partners/policies.js';
import type { DeviceListing } from './rows.js';

/** The most days a silence filter takes: ten years, past any order's term. */
const MAX_SILENT_DAYS = 3650;
const DAY_MS = 86_400_000;

interface DeviceFilterArguments {
  silentForDays?: number | null;
}

/** Where a listing takes its time: one partner's clock, or every sandbox clock's offset from real time. */
interface ListingTime {
  policies: Pick<PartnerPolicies, 'nowFor' | 'sandboxOffsets'>;
  realNow: Date;
}

/**
 * The listing of `partnerId` (null: every partner) the filter asks for now. silentForDays outside 1
 * to 3,650 is INVALID_ARGUMENT (filter.silentForDays).
 */
export function deviceListingOf(
  partnerId: string | null,
  filter: DeviceFilterArguments | null | undefined,
  { policies, realNow }: ListingTime,
): DeviceListing {
  const days = filter?.silentForDays;
  if (days == null) return { partnerId, silence: null };
  if (!Number.isInteger(days) || days < 1 || days > MAX_SILENT_DAYS)
    throw invalidArgument('filter.silentForDays', `must be a whole number of days from 1 to ${MAX_SILENT_DAYS}`);
  const span = days * DAY_MS;
  if (partnerId !== null)
    return { partnerId, silence: { partnerId, silentSince: new Date(policies.nowFor(partnerId).getTime() - span) } };
  return {
    partnerId,
    silence: { partnerId, realSilentSince: new Date(realNow.getTime() - span), offsets: policies.sandboxOffsets() },
  };
}
