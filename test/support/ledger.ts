// A snapshot of everything a payment writes, to show that a refused request wrote nothing.
import type { Db } from '../../src/db/knex.js';

export async function ledgerSnapshot(db: Db) {
  const count = async (table: string) => Number((await db(table).count({ n: '*' }))[0]!.n);
  const orders = await db('finance_orders')
    .select('partner_id', 'id', 'total_paid_minor')
    .orderBy(['partner_id', 'id']);
  return {
    payments: await count('payments'),
    transactions: await count('transactions'),
    idempotencyKeys: await count('idempotency_keys'),
    vendorNotifications: await count('vendor_notifications'),
    totals: orders.map((order) => `${order.id}:${order.total_paid_minor}`),
  };
}
