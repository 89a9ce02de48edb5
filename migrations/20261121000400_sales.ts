// Carts (a sale being prepared) and finance orders (the customer's contract). Money is bigint minor
// units of the row's currency (decisions.md 4); financeAmount = purchase - down payment is derived,
// not stored.
import type { Knex } from 'knex';

// The terms a cart proposes and a finance order fixes. Kept inside this migration (not shared with
// others) so that a later edit cannot change what an applied migration meant.
function addFinanceTerms(t: Knex.CreateTableBuilder): void {
  t.specificType('currency', 'char(3)').notNullable();
  t.bigInteger('purchase_minor').notNullable();
  t.bigInteger('down_payment_minor').notNullable();
  t.bigInteger('price_pre_tax_minor').notNullable();
  t.bigInteger('monthly_cost_minor').notNullable();
  t.bigInteger('weekly_cost_minor').notNullable();
  t.integer('months').notNullable();
}

function checkFinanceTerms(t: Knex.CreateTableBuilder, name: string): void {
  t.check(
    'down_payment_minor >= 0 and down_payment_minor <= purchase_minor and price_pre_tax_minor >= 0 and monthly_cost_minor > 0 and weekly_cost_minor > 0 and months > 0',
    [],
    name,
  );
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('carts', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('cart_tag').notNullable();
    t.bigInteger('customer_id').notNullable();
    t.bigInteger('merchant_id').notNullable();
    t.bigInteger('clerk_id').notNullable();
    t.bigInteger('device_model_id').notNullable().references('id').inTable('device_models');
    t.text('device_description').nullable();
    addFinanceTerms(t);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.unique(['partner_id', 'cart_tag']);
    t.foreign(['partner_id', 'customer_id']).references(['partner_id', 'id']).inTable('customers');
    t.foreign(['partner_id', 'merchant_id']).references(['partner_id', 'id']).inTable('merchants');
    t.foreign(['partner_id', 'clerk_id']).references(['partner_id', 'id']).inTable('clerks');
    checkFinanceTerms(t, 'carts_terms_valid');
  });

  await knex.schema.createTable('finance_orders', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('customer_id').notNullable();
    t.bigInteger('device_id').notNullable();
    t.bigInteger('merchant_id').notNullable();
    t.bigInteger('clerk_id').notNullable();
    t.bigInteger('cart_id').nullable();
    addFinanceTerms(t);
    // Running total of payments, changed in the same transaction as each payment row. The check
    // below makes an overpayment impossible even if two payments race.
    t.bigInteger('total_paid_minor').notNullable().defaultTo(0);
    t.timestamp('ordered_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'customer_id']).references(['partner_id', 'id']).inTable('customers');
    t.foreign(['partner_id', 'device_id']).references(['partner_id', 'id']).inTable('devices');
    t.foreign(['partner_id', 'merchant_id']).references(['partner_id', 'id']).inTable('merchants');
    t.foreign(['partner_id', 'clerk_id']).references(['partner_id', 'id']).inTable('clerks');
    t.foreign(['partner_id', 'cart_id']).references(['partner_id', 'id']).inTable('carts');
    t.unique(['partner_id', 'cart_id']);
    checkFinanceTerms(t, 'finance_orders_terms_valid');
    t.check(
      'total_paid_minor >= 0 and total_paid_minor <= monthly_cost_minor * months',
      [],
      'finance_orders_balance_in_range',
    );
    t.index(['id']);
    t.index(['partner_id', 'customer_id']);
    t.index(['partner_id', 'device_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('finance_orders');
  await knex.schema.dropTable('carts');
}
