import type { DbOrTrx } from '../../db/knex.js';
import { type TenantKey, whereTenantKeys } from '../tenancy.js';
import type { CartRow } from './rows.js';

const COLUMNS = [
  'partner_id',
  'id',
  'cart_tag',
  'customer_id',
  'merchant_id',
  'clerk_id',
  'device_model_id',
  'device_description',
  'currency',
  'purchase_minor',
  'down_payment_minor',
  'price_pre_tax_minor',
  'monthly_cost_minor',
  'weekly_cost_minor',
  'months',
  'created_at',
] as const;

export function cartByTag(db: DbOrTrx, partnerId: string, cartTag: string): Promise<CartRow | undefined> {
  return db<CartRow>('carts')
    .select(...COLUMNS)
    .where({ partner_id: partnerId, cart_tag: cartTag })
    .first();
}

export function cartsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<CartRow[]> {
  return whereTenantKeys(db<CartRow>('carts').select(...COLUMNS), ['partner_id', 'id'], keys);
}

export async function insertCart(db: DbOrTrx, row: Omit<CartRow, 'id' | 'created_at'>): Promise<CartRow> {
  const [inserted] = await db<CartRow>('carts')
    .insert(row)
    .returning([...COLUMNS]);
  return inserted as CartRow;
}

/** The cart with this tag, locked for the caller's transaction (FOR UPDATE): two operators cannot finance it twice. */
export function lockCartByTag(trx: DbOrTrx, partnerId: string, cartTag: string): Promise<CartRow | undefined> {
  return trx<CartRow>('carts')
    .select(...COLUMNS)
    .where({ partner_id: partnerId, cart_tag: cartTag })
    .forUpdate()
    .first();
}
