// Creating a merchant (a partner's store): the row and its audit record in one transaction.
import type { Db } from '../../db/knex.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { insertMerchant } from './queries.js';
import type { MerchantRow } from './rows.js';

export function createMerchant(db: Db, actor: AuditActor, merchant: Omit<MerchantRow, 'id'>): Promise<MerchantRow> {
  return audited(
    db,
    actor,
    (trx) => insertMerchant(trx, merchant),
    (row) => ({
      action: 'merchant.create',
      subjectKind: 'merchant',
      subjectId: row.id,
      partnerId: row.partner_id,
      details: { name: row.name },
    }),
  );
}
