import type { DbOrTrx } from '../../db/knex.js';
import type { AuditActor, AuditEntry, AuditEventFilter, AuditEventRow } from './rows.js';

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

/** The events of the trail a filter keeps (one action, one partner), as a query to narrow further. */
function filteredTrail(db: DbOrTrx, filter: AuditEventFilter) {
  const query = db<AuditEventRow>('audit_events');
  if (filter.action) query.where({ action: filter.action });
  if (filter.partnerId) query.where({ partner_id: filter.partnerId });
  return query;
}

/** The trail, newest first, optionally one action or one partner; `beforeId` continues a page. */
export function listAuditEvents(
  db: DbOrTrx,
  filter: AuditEventFilter & { beforeId?: string; limit: number },
): Promise<AuditEventRow[]> {
  const query = filteredTrail(db, filter).select('*').orderBy('id', 'desc').limit(filter.limit);
  if (filter.beforeId) query.where('id', '<', filter.beforeId);
  return query;
}

/** Whether the filtered trail holds the event `id` or a newer one: what precedes a page read after it. */
export async function auditEventsPrecede(db: DbOrTrx, filter: AuditEventFilter, id: string): Promise<boolean> {
  return (await filteredTrail(db, filter).select(db.raw('1 as present')).where('id', '>=', id).limit(1)).length > 0;
}

/** How many events the filtered trail holds (the trail grows with management actions only). */
export async function countAuditEvents(db: DbOrTrx, filter: AuditEventFilter): Promise<number> {
  const [row] = await filteredTrail(db, filter).count({ n: '*' });
  return Number(row?.n ?? 0);
}
