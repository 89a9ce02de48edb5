// STAND-IN for the device door's migration (its owner's version is kept at merge): only the column
// the silent devices' listing reads, devices.last_checkin_at, so this branch's tests can run.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devices', (t) => {
    t.timestamp('last_checkin_at', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('devices', (t) => {
    t.dropColumn('last_checkin_at');
  });
}
