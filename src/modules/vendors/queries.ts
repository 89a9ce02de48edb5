import type { DbOrTrx } from '../../db/knex.js';
import type { PaymentVendorRow } from './rows.js';

const COLUMNS = ['id', 'name', 'display_name', 'request_schema', 'enabled', 'created_at'] as const;

export function paymentVendorsByIds(db: DbOrTrx, ids: readonly string[]): Promise<PaymentVendorRow[]> {
  return db<PaymentVendorRow>('payment_vendors')
    .select(...COLUMNS)
    .whereIn('id', ids);
}

export function listPaymentVendors(db: DbOrTrx, limit: number): Promise<PaymentVendorRow[]> {
  return db<PaymentVendorRow>('payment_vendors')
    .select(...COLUMNS)
    .orderBy('id')
    .limit(limit);
}

export async function insertPaymentVendor(
  db: DbOrTrx,
  row: Omit<PaymentVendorRow, 'id' | 'created_at'>,
): Promise<PaymentVendorRow> {
  const [inserted] = await db('payment_vendors')
    .insert({ ...row, request_schema: JSON.stringify(row.request_schema) })
    .returning([...COLUMNS]);
  return inserted as PaymentVendorRow;
}

export async function updatePaymentVendorRow(
  db: DbOrTrx,
  id: string,
  changes: Partial<Pick<PaymentVendorRow, 'display_name' | 'request_schema' | 'enabled'>>,
): Promise<PaymentVendorRow | undefined> {
  const update: Record<string, unknown> = { ...changes };
  if (changes.request_schema !== undefined) update.request_schema = JSON.stringify(changes.request_schema);
  if (Object.keys(update).length === 0)
    return db<PaymentVendorRow>('payment_vendors')
      .select(...COLUMNS)
      .where({ id })
      .first();
  const [row] = await db('payment_vendors')
    .where({ id })
    .update(update)
    .returning([...COLUMNS]);
  return row as PaymentVendorRow | undefined;
}
