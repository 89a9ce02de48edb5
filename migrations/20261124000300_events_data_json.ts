// An event's data is kept as the exact JSON text it was written with (json, not jsonb): jsonb reorders
// an object's keys, and a transaction.created event must be byte for byte the list-transactions object
// (webhooks sign and deliver these bytes). The operators that read into it (->, ->>) work on json too.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table events alter column data type json using data::json');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table events alter column data type jsonb using data::jsonb');
}
