// Changing a partner's policy (decisions.md 15): its settings, or its sandbox clock, and with them the
// partner's lock timeline (decisions.md 18). Above both the partners and the timeline folders, which
// reads the partners' settings. Each change, in
// one transaction under the partner's row lock: the new values, the policy's next revision, the
// notification every instance applies at commit (policies.ts), and the audit record. The caller
// applies the returned policy to its own instance once committed.
import type { Db, DbOrTrx } from '../../db/knex.js';
import { notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { settleCommandTimesAt } from '../deviceCommands/queries.js';
import type { EventRow } from '../events/rows.js';
import { offsetToReach } from '../partners/clock.js';
import { type PartnerPolicy, partnerPolicyOf, publishPartnerPolicy } from '../partners/policies.js';
import { changedSettings, columnsOfSettings, type PartnerSettingsChange } from '../partners/settings.js';
import { expireReferencesAt } from '../paymentReferences/queries.js';
import { reopenOverturnedOrders, reschedulePartner, shiftPartnerTimeline } from '../timeline/schedule.js';

/** The partner's policy, its row locked for the change; NOT_FOUND for an unknown partner. */
async function lockedPolicy(trx: DbOrTrx, partnerId: string): Promise<PartnerPolicy> {
  const policy = await partnerPolicyOf(trx, partnerId);
  if (!policy) throw notFound('partner', partnerId);
  return policy;
}

/** Writes the policy's next revision (with `columns` changed) and tells every instance. */
async function commitPolicy(
  trx: DbOrTrx,
  before: PartnerPolicy,
  after: Omit<PartnerPolicy, 'revision' | 'partnerId'>,
): Promise<PartnerPolicy> {
  const [row] = (await trx('partners')
    .where({ id: before.partnerId })
    .update({ ...columnsOfSettings(after.settings), policy_revision: trx.raw('policy_revision + 1') })
    .returning(['policy_revision'])) as Array<{ policy_revision: string }>;
  const policy = { partnerId: before.partnerId, revision: String(row!.policy_revision), ...after };
  await publishPartnerPolicy(trx, policy);
  return policy;
}

/**
 * Changes the settings named in `change`; a bad value is INVALID_PARTNER_SETTINGS and nothing changes.
 * The unlocks a raised grace writes (decisions.md 37) are published by the log once committed.
 */
export async function updatePartnerSettings(
  db: Db,
  actor: AuditActor,
  partnerId: string,
  change: PartnerSettingsChange,
): Promise<{ before: PartnerPolicy; after: PartnerPolicy }> {
  const { events, ...changed } = await audited(
    db,
    actor,
    async (trx) => {
      const before = await lockedPolicy(trx, partnerId);
      const settings = changedSettings(before.settings, change);
      // A new grace or new reminders move the partner's pending instants, at its own time (decisions.md 18).
      const timelineMoves =
        settings.lockGraceHours !== before.settings.lockGraceHours ||
        settings.lockReminderDays.join() !== before.settings.lockReminderDays.join();
      const events: EventRow[] = timelineMoves
        ? await reschedulePartner(trx, partnerId, settings, new Date(Date.now() + (before.offsetMs ?? 0)))
        : [];
      return { before, after: await commitPolicy(trx, before, { settings, offsetMs: before.offsetMs }), events };
    },
    ({ before, after }) => ({
      action: 'partner.settings.update',
      subjectKind: 'partner',
      subjectId: partnerId,
      partnerId,
      details: { before: before.settings, after: after.settings },
    }),
  );
  return changed;
}

/**
 * Puts the partner's sandbox clock at `now` (real time then runs on from it): refused when `now` is
 * before the partner's time. The timeline's pending instants move with it, in the same transaction.
 */
export function setSandboxClock(
  db: Db,
  actor: AuditActor,
  partnerId: string,
  now: Date,
  realNow: () => Date,
): Promise<PartnerPolicy> {
  return audited(
    db,
    actor,
    async (trx) => {
      const before = await lockedPolicy(trx, partnerId);
      const real = realNow();
      const offsetMs = offsetToReach(now, real, before.offsetMs ?? 0);
      await trx.raw(
        // set_at from the row proposed, not now() in the update: Citus takes only immutable functions there.
        `insert into sandbox_clocks (partner_id, offset_ms, set_at) values (?, ?, now())
         on conflict (partner_id) do update set offset_ms = excluded.offset_ms, set_at = excluded.set_at`,
        [partnerId, offsetMs],
      );
      const partnerNow = new Date(real.getTime() + offsetMs);
      await shiftPartnerTimeline(trx, partnerId, offsetMs - (before.offsetMs ?? 0), partnerNow);
      return commitPolicy(trx, before, { settings: before.settings, offsetMs });
    },
    (policy) => ({
      action: 'partner.sandbox_clock.set',
      subjectKind: 'partner',
      subjectId: partnerId,
      partnerId,
      details: { now: now.toISOString(), offsetMs: policy.offsetMs },
    }),
  );
}

/**
 * Puts the partner back on real time (the one way a sandbox clock goes back), leaving nothing stuck
 * (decisions.md 37): the open references already expired at the partner's time are stored EXPIRED,
 * the locked orders whose lockAt real time puts ahead again are unlocked (their events published
 * once committed), and no device command keeps a time ahead of it (decisions.md 34). The
 * pending instants move back by the offset.
 */
export async function resetSandboxClock(
  db: Db,
  actor: AuditActor,
  partnerId: string,
  realNow: () => Date,
): Promise<PartnerPolicy> {
  const { policy } = await audited(
    db,
    actor,
    async (trx) => {
      const before = await lockedPolicy(trx, partnerId);
      const now = realNow();
      await trx('sandbox_clocks').where({ partner_id: partnerId }).delete();
      await expireReferencesAt(trx, partnerId, new Date(now.getTime() + (before.offsetMs ?? 0)));
      if (before.offsetMs) await shiftPartnerTimeline(trx, partnerId, -before.offsetMs, now);
      await settleCommandTimesAt(trx, partnerId, now);
      const events = await reopenOverturnedOrders(trx, partnerId, before.settings, now);
      return { policy: await commitPolicy(trx, before, { settings: before.settings, offsetMs: null }), events };
    },
    () => ({
      action: 'partner.sandbox_clock.reset',
      subjectKind: 'partner',
      subjectId: partnerId,
      partnerId,
      details: {},
    }),
  );
  return policy;
}
