// A schema that distributes by partner (decisions.md 48): the shapes a distributed Postgres refuses go,
// on every backend alike.
// - The two directory triggers (finance_orders, customers) and their functions: the code that writes the
//   row writes its directory entry (src/modules/directories.ts).
// - The foreign keys from the global directories and vendor_notifications into tenant tables.
// - The two unique rules of tenant tables without partner_id: a payment reference's code and a device
//   credential's key hash become unique within a partner, and unique across partners through a global
//   directory of their own (payment_reference_directory; device_credential_directory, live credentials only).
// `down` puts each back as the earlier migrations made it.
import type { Knex } from 'knex';

/** The foreign keys from a global table into a tenant table, by (table, columns): named by knex at the time. */
const GLOBAL_TO_TENANT = [
  ['device_directory', ['partner_id', 'device_id'], 'devices', 'cascade'],
  ['finance_order_directory', ['partner_id', 'id'], 'finance_orders', 'cascade'],
  ['customer_phone_directory', ['partner_id', 'customer_id'], 'customers', 'cascade'],
  ['vendor_notifications', ['partner_id', 'payment_id'], 'payments', 'no action'],
] as const;

/** The name of `table`'s foreign key on exactly `columns`, read from the catalogue (one each). */
async function foreignKeyName(knex: Knex, table: string, columns: readonly string[]): Promise<string> {
  const { rows } = await knex.raw(
    `select f.conname as name
       from pg_constraint f
      where f.contype = 'f' and f.conrelid = ?::regclass
        and (select array_agg(a.attname::text order by k.n) from unnest(f.conkey) with ordinality as k(attnum, n)
               join pg_attribute a on a.attrelid = f.conrelid and a.attnum = k.attnum) = ?::text[]`,
    [table, [...columns]],
  );
  if (rows.length !== 1) throw new Error(`expected one foreign key on ${table} (${columns}), found ${rows.length}`);
  return rows[0].name;
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop trigger customers_in_phone_directory on customers');
  await knex.raw('drop function customer_phone_directory_sync()');
  await knex.raw('drop trigger finance_orders_in_directory on finance_orders');
  await knex.raw('drop function finance_order_directory_add()');

  for (const [table, columns] of GLOBAL_TO_TENANT) {
    await knex.raw('alter table ?? drop constraint ??', [table, await foreignKeyName(knex, table, columns)]);
  }

  await knex.schema.createTable('payment_reference_directory', (t) => {
    t.text('code').primary();
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
  });
  await knex.raw(
    'insert into payment_reference_directory (code, partner_id) select code, partner_id from payment_references',
  );
  await knex.raw('alter table payment_references drop constraint payment_references_code_key');
  await knex.raw('alter table payment_references add constraint payment_references_code_key unique (partner_id, code)');

  await knex.schema.createTable('device_credential_directory', (t) => {
    t.text('key_hash').primary();
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigInteger('device_id').notNullable();
  });
  await knex.raw(
    `insert into device_credential_directory (key_hash, partner_id, device_id)
     select key_hash, partner_id, device_id from device_credentials where ended_at is null`,
  );
  await knex.raw('alter table device_credentials drop constraint device_credentials_key_hash_unique');
  await knex.raw(
    'alter table device_credentials add constraint device_credentials_key_hash_unique unique (partner_id, key_hash)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table device_credentials drop constraint device_credentials_key_hash_unique');
  await knex.raw('alter table device_credentials add constraint device_credentials_key_hash_unique unique (key_hash)');
  await knex.schema.dropTable('device_credential_directory');
  await knex.raw('alter table payment_references drop constraint payment_references_code_key');
  await knex.raw('alter table payment_references add constraint payment_references_code_key unique (code)');
  await knex.schema.dropTable('payment_reference_directory');

  for (const [table, columns, target, onDelete] of GLOBAL_TO_TENANT) {
    await knex.raw(`alter table ?? add foreign key (??, ??) references ?? (partner_id, id) on delete ${onDelete}`, [
      table,
      columns[0],
      columns[1],
      target,
    ]);
  }

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
}
