// Creating a sales clerk: the row and its audit record in one transaction; a person already a clerk
// of the partner is refused by name.
import type { Db } from '../../db/knex.js';
import { invalidArgument } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { isUniqueViolation } from '../inputs.js';
import { insertClerk } from './queries.js';
import type { ClerkRow } from './rows.js';

export async function createClerk(db: Db, actor: AuditActor, clerk: Omit<ClerkRow, 'id'>): Promise<ClerkRow> {
  try {
    return await audited(
      db,
      actor,
      (trx) => insertClerk(trx, clerk),
      (row) => ({
        action: 'clerk.create',
        subjectKind: 'clerk',
        subjectId: row.id,
        partnerId: row.partner_id,
        details: { personUuid: row.person_uuid },
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidArgument('input.personUuid', 'is already a clerk of this partner');
    throw error;
  }
}
