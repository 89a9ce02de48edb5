// Creating a partner (a retail chain), for the operator's mutation and the keys CLI alike: the row
// and its audit record in one transaction.
import type { Db } from '../../db/knex.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { insertPartner } from './queries.js';
import type { PartnerRow } from './rows.js';

export function createPartner(
  db: Db,
  actor: AuditActor,
  partner: { name: string; commissionRateBasisPoints: number },
): Promise<PartnerRow> {
  const { name, commissionRateBasisPoints } = partner;
  return audited(
    db,
    actor,
    (trx) => insertPartner(trx, { name, commission_rate_bps: commissionRateBasisPoints }),
    (row) => ({
      action: 'partner.create',
      subjectKind: 'partner',
      subjectId: row.id,
      partnerId: row.id,
      details: { name, commissionRateBasisPoints },
    }),
  );
}
