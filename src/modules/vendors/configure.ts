// Setting up a payment vendor's integration (its name, its notification JSON Schema, whether it is
// enabled): each change with its audit record in one transaction. The trail keeps what changed: a
// schema change records the new schema in full.
import type { Db } from '../../db/knex.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { isUniqueViolation } from '../inputs.js';
import { insertPaymentVendor, updatePaymentVendorRow } from './queries.js';
import type { PaymentVendorRow } from './rows.js';

type PaymentVendorChanges = Parameters<typeof updatePaymentVendorRow>[2];

export async function createPaymentVendor(
  db: Db,
  actor: AuditActor,
  vendor: Omit<PaymentVendorRow, 'id' | 'created_at'>,
): Promise<PaymentVendorRow> {
  try {
    return await audited(
      db,
      actor,
      (trx) => insertPaymentVendor(trx, vendor),
      (row) => ({
        action: 'payment_vendor.create',
        subjectKind: 'payment_vendor',
        subjectId: row.id,
        details: { name: row.name, enabled: row.enabled, requestSchema: row.request_schema },
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidArgument('input.name', 'is already a payment vendor');
    throw error;
  }
}

export function updatePaymentVendor(
  db: Db,
  actor: AuditActor,
  id: string,
  changes: PaymentVendorChanges,
): Promise<PaymentVendorRow> {
  return audited(
    db,
    actor,
    async (trx) => {
      const updated = await updatePaymentVendorRow(trx, id, changes);
      if (!updated) throw notFound('payment vendor', id);
      return updated;
    },
    (row) => ({
      action: 'payment_vendor.update',
      subjectKind: 'payment_vendor',
      subjectId: row.id,
      details: { changed: changes },
    }),
  );
}
