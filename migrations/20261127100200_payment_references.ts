// Payment references (decisions.md 17): an amount on one finance order, named by a short code a
// vendor's notification quotes, paid at most once. A tenant table like the others: its key starts with
// partner_id and its references to the order and the payment are composite keys that include it. The
// code is unique across partners (a notification names no partner); a payment pays at most one
// reference; a reference names a payment exactly when it is PAID.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_references', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('code').notNullable();
    t.bigInteger('finance_order_id').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.integer('days_paid').notNullable();
    // OPEN, PAID or CANCELLED; EXPIRED is computed from the partner's clock and expires_at.
    t.text('status').notNullable().defaultTo('OPEN');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.bigInteger('payment_id').nullable();
    t.timestamp('paid_at', { useTz: true }).nullable();
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.primary(['partner_id', 'id']);
    t.unique(['code'], { indexName: 'payment_references_code_key' });
    t.unique(['partner_id', 'payment_id'], { indexName: 'payment_references_one_per_payment' });
    t.foreign(['partner_id', 'finance_order_id']).references(['partner_id', 'id']).inTable('finance_orders');
    t.foreign(['partner_id', 'payment_id']).references(['partner_id', 'id']).inTable('payments');
    t.check('amount_minor > 0', [], 'payment_references_amount_positive');
    t.check("status in ('OPEN', 'PAID', 'CANCELLED')", [], 'payment_references_status_known');
    t.check(
      "(status = 'PAID') = (payment_id is not null and paid_at is not null)",
      [],
      'payment_references_paid_has_payment',
    );
    // FinanceOrder.paymentReferences: an order's references in id order.
    t.index(['partner_id', 'finance_order_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_references');
}
