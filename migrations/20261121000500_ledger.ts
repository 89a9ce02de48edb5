// The ledger: payments against finance orders, operator adjustments, and the partner-facing
// transactions (finance, cash, commission, adjustment) that list-transactions reports.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payments', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('finance_order_id').notNullable();
    t.text('channel').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    // In store: where and by whom. Through a vendor: which vendor, and its own reference.
    t.bigInteger('merchant_id').nullable();
    t.bigInteger('clerk_id').nullable();
    t.bigInteger('vendor_id').nullable().references('id').inTable('payment_vendors');
    t.text('vendor_reference').nullable();
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'finance_order_id']).references(['partner_id', 'id']).inTable('finance_orders');
    t.foreign(['partner_id', 'merchant_id']).references(['partner_id', 'id']).inTable('merchants');
    t.foreign(['partner_id', 'clerk_id']).references(['partner_id', 'id']).inTable('clerks');
    t.unique(['partner_id', 'vendor_id', 'vendor_reference']);
    t.check('amount_minor > 0', [], 'payments_amount_positive');
    t.check(
      `(channel = 'in_store' and merchant_id is not null and clerk_id is not null and vendor_id is null and vendor_reference is null)
       or (channel = 'vendor' and vendor_id is not null and vendor_reference is not null and merchant_id is null and clerk_id is null)`,
      [],
      'payments_channel_fields',
    );
    t.index(['id']);
    // paymentHistory: an order's payments, oldest first.
    t.index(['partner_id', 'finance_order_id', 'received_at', 'id']);
  });

  await knex.schema.createTable('adjustments', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('kind').notNullable();
    t.bigInteger('amount_minor').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.text('notes').notNullable();
    t.bigInteger('merchant_id').notNullable();
    t.bigInteger('finance_order_id').nullable();
    t.bigInteger('operator_id').nullable().references('id').inTable('operators');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'merchant_id']).references(['partner_id', 'id']).inTable('merchants');
    t.foreign(['partner_id', 'finance_order_id']).references(['partner_id', 'id']).inTable('finance_orders');
    t.check("kind in ('payment', 'commission')", [], 'adjustments_kind_known');
    t.check('amount_minor <> 0', [], 'adjustments_amount_nonzero');
  });

  await knex.schema.createTable('transactions', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('type').notNullable();
    // Signed, from the partner's side: finance +financeAmount, cash -payment, commission +owed.
    t.bigInteger('amount_minor').notNullable();
    t.specificType('currency', 'char(3)').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.bigInteger('merchant_id').notNullable();
    t.bigInteger('finance_order_id').nullable();
    t.bigInteger('payment_id').nullable();
    t.bigInteger('clerk_id').nullable();
    t.bigInteger('adjustment_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'merchant_id']).references(['partner_id', 'id']).inTable('merchants');
    t.foreign(['partner_id', 'finance_order_id']).references(['partner_id', 'id']).inTable('finance_orders');
    t.foreign(['partner_id', 'payment_id']).references(['partner_id', 'id']).inTable('payments');
    t.foreign(['partner_id', 'clerk_id']).references(['partner_id', 'id']).inTable('clerks');
    t.foreign(['partner_id', 'adjustment_id']).references(['partner_id', 'id']).inTable('adjustments');
    t.check(
      `(type = 'finance' and finance_order_id is not null and clerk_id is not null and payment_id is null and adjustment_id is null)
       or (type = 'cash' and payment_id is not null and finance_order_id is not null and clerk_id is not null and adjustment_id is null)
       or (type = 'commission' and payment_id is not null and finance_order_id is not null and adjustment_id is null)
       or (type = 'adjustment' and adjustment_id is not null and payment_id is null)`,
      [],
      'transactions_type_fields',
    );
    // list-transactions: one partner's window, in (time, id) order.
    t.index(['partner_id', 'occurred_at', 'id']);
  });
  // At most one finance transaction per order and one cash / commission transaction per payment.
  await knex.raw(
    "create unique index transactions_one_finance_per_order on transactions (partner_id, finance_order_id) where type = 'finance'",
  );
  await knex.raw(
    'create unique index transactions_one_per_payment_and_type on transactions (partner_id, payment_id, type) where payment_id is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('transactions');
  await knex.schema.dropTable('adjustments');
  await knex.schema.dropTable('payments');
}
