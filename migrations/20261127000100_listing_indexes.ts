// The dashboards' listings (Query.financeOrders, Query.customers) page in id order within a partner;
// these indexes serve their merchant and creation-time filters. A merchant's orders in id order are
// one range of (partner_id, merchant_id, id), read from the page's after id and stopped at its end;
// a window of creation times is one range of (partner_id, ordered_at) or (partner_id, created_at).
// The status filter has no index: ACTIVE and LOCKED depend on the moment of the request, and a
// partial index of the paid-off orders goes unused (the planner has no estimate of how few match, so
// it keeps reading the primary key in id order, checking each row, which a page stops early).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('finance_orders', (t) => {
    t.index(['partner_id', 'merchant_id', 'id'], 'finance_orders_partner_merchant_id');
    t.index(['partner_id', 'ordered_at'], 'finance_orders_partner_ordered_at');
  });
  await knex.schema.alterTable('customers', (t) => {
    t.index(['partner_id', 'created_at'], 'customers_partner_created_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('customers', (t) => {
    t.dropIndex(['partner_id', 'created_at'], 'customers_partner_created_at');
  });
  await knex.schema.alterTable('finance_orders', (t) => {
    t.dropIndex(['partner_id', 'ordered_at'], 'finance_orders_partner_ordered_at');
    t.dropIndex(['partner_id', 'merchant_id', 'id'], 'finance_orders_partner_merchant_id');
  });
}
