// Report runs in the graph (docs/decisions.md 45): partner keys ask for and read their own partner's,
// operators any partner's; retail and vendor keys neither. Another partner's run is an unknown one.
import type { Resolvers } from '../../__generated__/resolvers.js';
import { forbidden } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import type { Context } from '../../pipeline/context.js';
import { requirePartnerTenant, requirePrincipal } from '../auth/principal.js';
import { column } from '../columns.js';
import { connectionResolvers, idCursorOf, pageAfter, parseIdCursor } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import { createReportRun } from './create.js';
import { signedFilePath } from './links.js';
import { listReportRuns, reportRunOf, reportRunsPrecede } from './queries.js';
import type { ReportRunRow } from './rows.js';
import { failureReasonOf } from './run.js';

const RUN_CURSOR = 'reportRuns';

/** The partner whose runs the caller reads: its own (partner keys), or null for an operator (any). */
function readingPartner(ctx: Context): string | null {
  if (requirePrincipal(ctx).kind === 'operator') return null;
  return requirePartnerTenant(ctx, ['partner']);
}

/** Whom a new run is for, as who asks: a partner key its own partner (another: FORBIDDEN), an operator any that exists. */
async function askingFor(ctx: Context, partnerId: string) {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'operator') {
    return { partnerId: await requireExistingPartner(ctx.primary, partnerId), requestedBy: 'operator' as const };
  }
  const own = requirePartnerTenant(ctx, ['partner']);
  if (partnerId !== own) throw forbidden("a partner key asks for its own partner's reports only");
  return { partnerId: own, requestedBy: 'partner' as const, apiKeyId: principal.keyId };
}

const optionalCount = (value: string | null) => (value === null ? null : Number(value));

export const reportResolvers: Resolvers = {
  Query: {
    reportRun: async (_root, { id }, ctx) => {
      const partner = readingPartner(ctx);
      if (!isDatabaseId(id)) return null;
      return (await reportRunOf(ctx.reads.db, partner, id)) ?? null;
    },
    reportRuns: (_root, { first, after, partnerId }, ctx, info) => {
      const own = readingPartner(ctx);
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(RUN_CURSOR, after) : undefined;
      // Partner keys: their own, whatever is named; an operator naming an id that cannot exist reads nothing.
      const partner = own ?? partnerId ?? null;
      if (partner !== null && !isDatabaseId(partner)) return { rows: [], hasNextPage: false, previousExists: null };
      return pageAfter(
        afterId,
        limit,
        (position, count) => listReportRuns(ctx.reads.db, partner, { after: position, limit: count }),
        (position) => reportRunsPrecede(ctx.reads.db, partner, position),
      );
    },
  },
  Mutation: {
    createReportRun: async (_root, { input }, ctx) => {
      const asker = await askingFor(ctx, input.partnerId);
      const run = await createReportRun(
        ctx.primary,
        {
          partnerId: asker.partnerId,
          type: input.type,
          start: input.start,
          end: input.end,
          asOf: input.asOf,
          requestedBy: asker.requestedBy,
          apiKeyId: asker.apiKeyId ?? null,
        },
        ctx.partnerPolicies.nowFor(asker.partnerId),
      );
      ctx.logger.info({ reportRunId: run.id, partnerId: run.partner_id, type: run.type }, 'report run asked for');
      return run;
    },
  },
  ReportRun: {
    partnerId: column('partner_id'),
    start: column('window_start'),
    end: column('window_end'),
    asOf: column('as_of'),
    createdAt: column('created_at'),
    startedAt: column('started_at'),
    finishedAt: column('finished_at'),
    expiresAt: column('expires_at'),
    failureReason: (run) => failureReasonOf(run),
    rowCount: (run) => optionalCount(run.row_count),
    byteSize: (run) => optionalCount(run.byte_size),
    // Made at each read, valid 15 minutes of real time (ctx.now: never a sandbox clock's).
    downloadUrl: (run, _args, ctx) => {
      const now = ctx.now();
      if (run.state !== 'SUCCEEDED' || !run.expires_at || run.expires_at <= now) return null;
      return signedFilePath(run, now);
    },
  },
  ReportRunConnection: connectionResolvers((run: ReportRunRow) => idCursorOf(RUN_CURSOR, run.id)),
};
