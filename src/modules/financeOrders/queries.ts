import type { DbOrTrx } from '../../db/knex.js';
import { whereTenantKeys, type TenantKey } from '../tenancy.js';
import type { FinanceOrderRow } from './rows.js';

const COLUMNS = [
  'partner_id', 'id', 'customer_id', 'device_id', 'merchant_id', 'clerk_id', 'cart_id', 'currency', 'purchase_minor',
  'down_payment_minor', 'price_pre_tax_minor', 'monthly_cost_minor', 'weekly_cost_minor', 'months', 'total_paid_minor', 'ordered_at',
] as const;

export function financeOrdersByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(db<FinanceOrderRow>('finance_orders').select(...COLUMNS), ['partner_id', 'id'], keys);
}

/** An order by id: within one partner, or in any partner when partnerId is null (operators, vendors). */
export function financeOrderById(db: DbOrTrx, id: string, partnerId: string | null): Promise<FinanceOrderRow | undefined> {
  const query = db<FinanceOrderRow>('finance_orders').select(...COLUMNS).where({ id });
  return (partnerId === null ? query : query.where({ partner_id: partnerId })).first();
}

/** The orders of several customers, newest first. */
export function financeOrdersOfCustomers(db: DbOrTrx, customers: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(db<FinanceOrderRow>('finance_orders').select(...COLUMNS), ['partner_id', 'customer_id'], customers)
    .orderBy([{ column: 'ordered_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

/** The orders of several devices, newest first. */
export function financeOrdersOfDevices(db: DbOrTrx, devices: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(db<FinanceOrderRow>('finance_orders').select(...COLUMNS), ['partner_id', 'device_id'], devices)
    .orderBy([{ column: 'ordered_at', order: 'desc' }, { column: 'id', order: 'desc' }]);
}

/** The orders financed from several carts. */
export function financeOrdersOfCarts(db: DbOrTrx, carts: readonly TenantKey[]): Promise<FinanceOrderRow[]> {
  return whereTenantKeys(db<FinanceOrderRow>('finance_orders').select(...COLUMNS), ['partner_id', 'cart_id'], carts);
}

/**
 * The order, locked for this transaction (SELECT ... FOR UPDATE): concurrent payments on one order
 * take turns, so each sees the balance the previous one left.
 */
export function lockFinanceOrder(trx: DbOrTrx, key: TenantKey): Promise<FinanceOrderRow | undefined> {
  return trx<FinanceOrderRow>('finance_orders').select(...COLUMNS).where({ partner_id: key.partnerId, id: key.id }).forUpdate().first();
}

/** Adds a payment to the order's running total; the schema's check refuses going past the repayable total. */
export async function addToTotalPaid(trx: DbOrTrx, key: TenantKey, amountMinor: bigint): Promise<FinanceOrderRow> {
  const [row] = await trx<FinanceOrderRow>('finance_orders')
    .where({ partner_id: key.partnerId, id: key.id })
    .update({ total_paid_minor: trx.raw('total_paid_minor + ?::int8', [amountMinor.toString()]) as unknown as string })
    .returning([...COLUMNS]);
  return row as FinanceOrderRow;
}

export async function insertFinanceOrder(trx: DbOrTrx, row: Omit<FinanceOrderRow, 'id' | 'total_paid_minor'>): Promise<FinanceOrderRow> {
  const [inserted] = await trx<FinanceOrderRow>('finance_orders').insert(row).returning([...COLUMNS]);
  return inserted as FinanceOrderRow;
}
