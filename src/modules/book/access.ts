// Who reads a partner's book, and as of which moment (decisions.md 45): the checks every door of the
// book makes (the figures, the ageing, the history, the report runs) before it reads anything of it.
import { forbidden, invalidArgument, notFound } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import type { Context } from '../../pipeline/context.js';
import { requirePrincipal } from '../auth/principal.js';
import type { BookMoment } from './figures.js';

/**
 * The partner whose book the caller asks for, once it may read it: a partner key its own partner
 * (another is FORBIDDEN, as the acceptance names it, not a 404); an operator any partner that exists
 * (RESOURCE_NOT_FOUND otherwise); retail and vendor keys nothing (a store's clerk does not read the book).
 */
export async function readableBookPartner(ctx: Context, partnerId: string): Promise<string> {
  const principal = requirePrincipal(ctx);
  if (principal.kind === 'operator') {
    if (!isDatabaseId(partnerId) || !(await ctx.reads.loaders.partners.byId.load(partnerId)))
      throw notFound('partner', partnerId);
    return partnerId;
  }
  if (principal.kind === 'partner' && principal.keyKind === 'partner') {
    if (partnerId !== principal.partnerId)
      throw forbidden(
        `a partner key reads its own partner's book; partner ${JSON.stringify(partnerId.slice(0, 64))} is not its partner`,
      );
    return partnerId;
  }
  const kind = principal.kind === 'vendor' ? 'a vendor key' : 'a retail key';
  throw forbidden(`the book needs a partner key or an operator key; ${kind} cannot read it`);
}

/**
 * The moment a figure is asked as of: `asOfSeconds` (the graph's Timestamp), or the partner's now
 * when omitted; a moment after the partner's current second is INVALID_ARGUMENT (its current second
 * is not "after": the graph's times are whole seconds). The grace is the partner's setting now
 * (settings keep no history).
 */
export function bookMomentOf(ctx: Context, partnerId: string, asOfSeconds: number | null | undefined): BookMoment {
  const now = ctx.partnerPolicies.nowFor(partnerId);
  const graceHours = ctx.partnerPolicies.settingsFor(partnerId).lockGraceHours;
  if (asOfSeconds == null) return { partnerId, asOf: now, graceHours };
  const nowSecond = Math.floor(now.getTime() / 1000);
  if (asOfSeconds > nowSecond)
    throw invalidArgument(
      'asOf',
      `must not be after the partner's now, ${new Date(nowSecond * 1000).toISOString()} (${nowSecond}); got ${asOfSeconds}`,
    );
  return { partnerId, asOf: new Date(asOfSeconds * 1000), graceHours };
}
