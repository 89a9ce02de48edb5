// Creating a customer: the row and its audit record in one transaction; a phone number already a
// customer's of the partner is refused by name.
import type { Db } from '../../db/knex.js';
import { invalidArgument } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { isUniqueViolation } from '../inputs.js';
import { insertCustomer } from './queries.js';
import type { CustomerRow } from './rows.js';

export async function createCustomer(
  db: Db,
  actor: AuditActor,
  customer: Omit<CustomerRow, 'id'>,
): Promise<CustomerRow> {
  try {
    // The trail names the customer by id only: no personal data in the audit record.
    return await audited(
      db,
      actor,
      (trx) => insertCustomer(trx, customer),
      (row) => ({ action: 'customer.create', subjectKind: 'customer', subjectId: row.id, partnerId: row.partner_id }),
    );
  } catch (error) {
    if (isUniqueViolation(error))
      throw invalidArgument('input.phoneNumber', 'is already the phone number of a customer of this partner');
    throw error;
  }
}
