// Offline unlock codes (docs/decisions.md 21): each device credential counts the codes made under its
// unlock key, so a device accepts each code once. The counter is the credential's: a new credential
// is a new key, and its codes count from 0 again. The credentials' table is the device door's
// (20261127200100_device_door).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The greatest counter a code was made with under this credential (0: none yet).
  await knex.raw(
    `alter table device_credentials add column unlock_code_counter integer not null default 0
       constraint device_credentials_unlock_code_counter_range check (unlock_code_counter >= 0)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'alter table device_credentials drop constraint device_credentials_unlock_code_counter_range, drop column unlock_code_counter',
  );
}
