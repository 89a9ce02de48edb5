// The device catalogue (global), and a partner's customers and their devices (tenant tables).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('device_families', (t) => {
    t.bigIncrements('id');
    t.text('name').notNullable().unique();
  });

  await knex.schema.createTable('device_models', (t) => {
    t.bigIncrements('id');
    t.bigInteger('family_id').notNullable().references('id').inTable('device_families');
    t.text('make_model').notNullable().unique();
    t.text('name').notNullable();
    t.index(['family_id']);
  });

  await knex.schema.createTable('customers', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('name').notNullable();
    t.text('phone_number').notNullable();
    t.text('email').nullable();
    t.text('address').nullable();
    t.text('national_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    // customerLocator may be a phone number: one customer per phone within a partner.
    t.unique(['partner_id', 'phone_number']);
    t.index(['id']);
  });

  await knex.schema.createTable('devices', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('customer_id').nullable();
    t.bigInteger('model_id').notNullable().references('id').inTable('device_models');
    t.text('tag').notNullable();
    t.text('imei').notNullable();
    t.text('sim_number').nullable();
    t.text('phone_number').nullable();
    t.text('description').nullable();
    t.timestamp('last_seen_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'customer_id']).references(['partner_id', 'id']).inTable('customers');
    t.unique(['partner_id', 'tag']);
    t.unique(['partner_id', 'imei']);
    t.check("imei ~ '^[0-9]{15,16}$'", [], 'devices_imei_digits');
    t.index(['id']);
    t.index(['partner_id', 'customer_id']);
  });

  // A physical device is one device everywhere: its IMEI and tag are unique across partners. This
  // global directory holds that guarantee and lets a vendor notification, which arrives without a
  // partner, find the device's partner in one lookup instead of asking every shard.
  await knex.schema.createTable('device_directory', (t) => {
    t.text('imei').notNullable().unique();
    t.text('tag').notNullable().unique();
    t.bigInteger('partner_id').notNullable();
    t.bigInteger('device_id').notNullable();
    t.primary(['partner_id', 'device_id']);
    t.foreign(['partner_id', 'device_id']).references(['partner_id', 'id']).inTable('devices').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('device_directory');
  await knex.schema.dropTable('devices');
  await knex.schema.dropTable('customers');
  await knex.schema.dropTable('device_models');
  await knex.schema.dropTable('device_families');
}
