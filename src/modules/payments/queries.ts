import type { DbOrTrx } from '../../db/knex.js';
import { whereTenantKeys, type TenantKey } from '../tenancy.js';
import type { PaymentRow } from './rows.js';

const COLUMNS = [
  'partner_id', 'id', 'finance_order_id', 'channel', 'amount_minor', 'currency', 'merchant_id', 'clerk_id', 'vendor_id', 'vendor_reference', 'received_at',
] as const;

export function paymentsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<PaymentRow[]> {
  return whereTenantKeys(db<PaymentRow>('payments').select(...COLUMNS), ['partner_id', 'id'], keys);
}

/** The payments of several orders, oldest first (paymentHistory order). */
export function paymentsOfOrders(db: DbOrTrx, orders: readonly TenantKey[]): Promise<PaymentRow[]> {
  return whereTenantKeys(db<PaymentRow>('payments').select(...COLUMNS), ['partner_id', 'finance_order_id'], orders)
    .orderBy(['received_at', 'id']);
}

export async function insertPayment(trx: DbOrTrx, row: Omit<PaymentRow, 'id'>): Promise<PaymentRow> {
  const [inserted] = await trx<PaymentRow>('payments').insert(row).returning([...COLUMNS]);
  return inserted as PaymentRow;
}
