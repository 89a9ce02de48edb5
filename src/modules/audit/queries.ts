import type { DbOrTrx } from '../../db/knex.js';
import type { AuditActor, AuditEntry, AuditEventRow } from './rows.js';

export async function insertAuditEvent(trx: DbOrTrx, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await trx('audit_events').insert({
    actor_kind: actor.kind,
    actor_id: actor.id,
    actor_key_id: actor.keyId,
    action: entry.action,
    subject_kind: entry.subjectKind,
    subject_id: entry.subjectId,
    partner_id: entry.partnerId ?? null,
    details: JSON.stringify(entry.details ?? {}),
    client_address: actor.clientAddress,
    request_id: actor.requestId,
  });
}

/** The trail, newest first, optionally one action or one partner; `beforeId` continues a page. */
export function listAuditEvents(
  db: DbOrTrx,
  filter: { action?: string | null; partnerId?: string | null; beforeId?: string; limit: number },
): Promise<AuditEventRow[]> {
  const query = db<AuditEventRow>('audit_events').select('*').orderBy('id', 'desc').limit(filter.limit);
  if (filter.action) query.where({ action: filter.action });
  if (filter.partnerId) query.where({ partner_id: filter.partnerId });
  if (filter.beforeId) query.where('id', '<', filter.beforeId);
  return query;
}
