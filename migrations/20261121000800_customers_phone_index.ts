// A customer by phone number across partners: a vendor notification that names its device by
// phoneNumber (src/modules/payments/notification.ts) and an operator's locator search carry no
// partner, so the (partner_id, phone_number) unique index cannot serve them and every such lookup
// read the whole customers table (found by test/reliability/query-plans.test.ts on the bench data set).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('customers', (t) => {
    t.index(['phone_number'], 'customers_phone_number_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('customers', (t) => {
    t.dropIndex(['phone_number'], 'customers_phone_number_index');
  });
}
