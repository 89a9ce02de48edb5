// Offline unlock codes (docs/decisions.md 21): each device credential counts the codes made under its
// unlock key, so a device accepts each code once. The counter is the credential's: a new credential
// is a new key, and its codes count from 0 again.
import type { Knex } from 'knex';

// STAND-IN for the device door's migration (20261127200100_device_door, which owns device_credentials):
// the table as the shared names describe it, made only where that migration has not made it, and
// marked so that this migration's down drops only a table it made.
const STAND_IN_MARK = 'STAND-IN: made by 20261127200300_unlock_codes until the device door migration exists';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('device_credentials'))) {
    await knex.schema.createTable('device_credentials', (t) => {
      t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
      t.bigIncrements('id', { primaryKey: false });
      t.bigInteger('device_id').notNullable();
      t.text('key_hash').notNullable().unique();
      t.text('unlock_key').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('ended_at', { useTz: true }).nullable();
      t.primary(['partner_id', 'id']);
      t.foreign(['partner_id', 'device_id']).references(['partner_id', 'id']).inTable('devices');
    });
    await knex.raw(
      'create unique index device_credentials_live on device_credentials (partner_id, device_id) where ended_at is null',
    );
    await knex.raw(`comment on table device_credentials is '${STAND_IN_MARK}'`);
  }
  // The greatest counter a code was made with under this credential (0: none yet).
  await knex.raw(
    `alter table device_credentials add column unlock_code_counter integer not null default 0
       constraint device_credentials_unlock_code_counter_range check (unlock_code_counter >= 0)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  const [mark] = (await knex.raw("select obj_description('device_credentials'::regclass, 'pg_class') as mark"))
    .rows as Array<{ mark: string | null }>;
  if (mark?.mark === STAND_IN_MARK) {
    await knex.schema.dropTable('device_credentials');
    return;
  }
  await knex.raw(
    'alter table device_credentials drop constraint device_credentials_unlock_code_counter_range, drop column unlock_code_counter',
  );
}
