// Asking for a report (docs/decisions.md 45): the window checked against the partner's time, then, in
// one transaction under the partner's report lock (two requests at once cannot both pass the bound),
// the waiting runs counted (at most MAX_WAITING_RUNS) and the run recorded PENDING with its link key;
// the workers are told on the event log's channel at its commit.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { invalidArgument, tooManyReportRuns } from '../../kernel/errors.js';
import { EVENTS_CHANNEL } from '../events/publish.js';
import { newLinkKey } from './links.js';
import { insertReportRun, type NewReportRun, waitingRunsOf } from './queries.js';
import type { ReportRunRow, ReportType } from './rows.js';

/** At most this many runs of a partner wait for a worker (TOO_MANY_REPORT_RUNS past it). */
export const MAX_WAITING_RUNS = 20;
/** A TRANSACTIONS window: as list-transactions takes it. */
const MAX_TRANSACTION_DAYS = 366;
/** A PORTFOLIO_HISTORY window: as many days as portfolioHistory answers points. */
const MAX_HISTORY_DAYS = 1000;
const DAY_SECONDS = 86_400;

/**
 * "report-run:<partner id>": a run of the partner waits. A partner id is digits, so neither the
 * subscriptions' feed nor the webhook fan-out takes it for an event's message.
 */
export const REPORT_RUN_WAITING_PREFIX = 'report-run:';

export interface ReportRequest {
  partnerId: string;
  type: ReportType;
  /** Unix seconds, as the graph's Timestamp. */
  start: number | null | undefined;
  end: number | null | undefined;
  asOf: number | null | undefined;
  requestedBy: 'partner' | 'operator';
  apiKeyId: string | null;
}

type ReportWindow = Pick<NewReportRun, 'window_start' | 'window_end' | 'as_of'>;

const at = (seconds: number) => new Date(seconds * 1000);

/** An argument the type does not take: refused, so a client never believes it was applied. */
function refuseUnused(type: ReportType, name: string, value: number | null | undefined): void {
  if (value != null) throw invalidArgument(`input.${name}`, `is not taken by a ${type} report`);
}

/** The run's window or moment, checked: `now` is the partner's time (a moment after it is in the future). */
export function reportWindowOf(request: ReportRequest, now: Date): ReportWindow {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const { type, start, end, asOf } = request;
  if (type === 'AGEING') {
    refuseUnused(type, 'start', start);
    refuseUnused(type, 'end', end);
    if (asOf != null && asOf > nowSeconds) throw invalidArgument('input.asOf', "must not be after the partner's now");
    return { window_start: null, window_end: null, as_of: asOf != null ? at(asOf) : now };
  }
  refuseUnused(type, 'asOf', asOf);
  if (start == null) throw invalidArgument('input.start', `is required for a ${type} report`);
  if (end == null) throw invalidArgument('input.end', `is required for a ${type} report`);
  if (end <= start) throw invalidArgument('input.end', 'must be after the start of the window');
  const maxDays = type === 'TRANSACTIONS' ? MAX_TRANSACTION_DAYS : MAX_HISTORY_DAYS;
  if (end - start > maxDays * DAY_SECONDS)
    throw invalidArgument('input.end', `must be at most ${maxDays} days after the start of the window`);
  // A window that has not ended yet would make a file that changes: refused, like a moment ahead.
  if (end > nowSeconds) throw invalidArgument('input.end', "must not be after the partner's now");
  return { window_start: at(start), window_end: at(end), as_of: null };
}

/** Records the run PENDING (the caller checked who may ask); TOO_MANY_REPORT_RUNS past the bound. */
export async function createReportRun(db: Db, request: ReportRequest, now: Date): Promise<ReportRunRow> {
  const window = reportWindowOf(request, now);
  return db.transaction(async (trx) => {
    await lockPartnerReports(trx, request.partnerId);
    if ((await waitingRunsOf(trx, request.partnerId)) >= MAX_WAITING_RUNS) throw tooManyReportRuns(MAX_WAITING_RUNS);
    const run = await insertReportRun(trx, {
      partner_id: request.partnerId,
      type: request.type,
      ...window,
      requested_by: request.requestedBy,
      api_key_id: request.apiKeyId,
      link_key: newLinkKey(),
    });
    // Delivered at the commit (or never): every worker looks for a run at once instead of at its poll.
    await trx.raw('select pg_notify(?, ?)', [EVENTS_CHANNEL, `${REPORT_RUN_WAITING_PREFIX}${request.partnerId}`]);
    return run;
  });
}

/** The partner's report runs' lock, held to the transaction's end: its requests are counted one at a time. */
async function lockPartnerReports(trx: DbOrTrx, partnerId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`report-runs:${partnerId}`]);
}
