// Where a vendor notification that names a finance order id or a phone number finds its partner: a
// notification carries no partner, and without these it read finance_orders or customers across every
// partner (every shard, on Postgres distributed by partner). Like device_directory, each is a global
// pointer table: a finance order id (ids come from one sequence, unique across partners) or a phone
// number to (partner_id, id). Triggers keep them, so every writer (the service, the demo seed, the
// bench generator, tests' bulk rows) fills them alike and no code path can forget to.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('finance_order_directory', (t) => {
    t.bigInteger('id').primary();
    t.bigInteger('partner_id').notNullable();
    t.foreign(['partner_id', 'id']).references(['partner_id', 'id']).inTable('finance_orders').onDelete('CASCADE');
  });
  await knex.schema.createTable('customer_phone_directory', (t) => {
    t.text('phone_number').notNullable().index();
    t.bigInteger('partner_id').notNullable();
    t.bigInteger('customer_id').notNullable();
    t.primary(['partner_id', 'customer_id']);
    t.foreign(['partner_id', 'customer_id']).references(['partner_id', 'id']).inTable('customers').onDelete('CASCADE');
  });
  await knex.raw(`create function finance_order_directory_add() returns trigger language plpgsql as $$
    begin
      insert into finance_order_directory (id, partner_id) values (new.id, new.partner_id);
      return new;
    end $$`);
  await knex.raw(
    'create trigger finance_orders_in_directory after insert on finance_orders for each row execute function finance_order_directory_add()',
  );
  await knex.raw(`create function customer_phone_directory_sync() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then
        delete from customer_phone_directory where partner_id = old.partner_id and customer_id = old.id;
      end if;
      if new.phone_number is not null then
        insert into customer_phone_directory (phone_number, partner_id, customer_id) values (new.phone_number, new.partner_id, new.id);
      end if;
      return new;
    end $$`);
  await knex.raw(
    'create trigger customers_in_phone_directory after insert or update of phone_number on customers for each row execute function customer_phone_directory_sync()',
  );
  // What is there already.
  await knex.raw('insert into finance_order_directory (id, partner_id) select id, partner_id from finance_orders');
  await knex.raw(
    'insert into customer_phone_directory (phone_number, partner_id, customer_id) select phone_number, partner_id, id from customers where phone_number is not null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger customers_in_phone_directory on customers');
  await knex.raw('drop function customer_phone_directory_sync()');
  await knex.raw('drop trigger finance_orders_in_directory on finance_orders');
  await knex.raw('drop function finance_order_directory_add()');
  await knex.schema.dropTable('customer_phone_directory');
  await knex.schema.dropTable('finance_order_directory');
}
