// A partner's stores and staff. Tenant tables: partner_id leads every key, so the data can be
// sharded by partner, and composite foreign keys make a cross-tenant reference impossible.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('merchants', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('name').notNullable();
    t.text('street').notNullable();
    t.text('street2').nullable();
    t.text('city').notNullable();
    t.text('state').notNullable();
    t.text('postal_code').notNullable().defaultTo('');
    t.text('country').notNullable();
    t.text('phone_number').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.check("country ~ '^[A-Z]{2}$'", [], 'merchants_country_iso_alpha2');
    t.index(['id']);
  });

  await knex.schema.createTable('clerks', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.uuid('person_uuid').notNullable();
    t.text('name').notNullable();
    t.text('phone_number').notNullable();
    t.text('email').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.unique(['partner_id', 'person_uuid']);
    t.index(['id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('clerks');
  await knex.schema.dropTable('merchants');
}
