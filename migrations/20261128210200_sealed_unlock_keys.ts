// Unlock keys sealed at rest (docs/decisions.md 35): a credential's unlock key is kept sealed
// (unlock_key_sealed: AES-256-GCM under DEVICE_UNLOCK_SEALING_KEYS, which the database does not hold)
// instead of in clear (unlock_key). The release step runs with the database alone (decisions.md 27), so
// this migration seals nothing: it makes room, and the worker seals the clear keys with the key it
// holds (src/modules/unlockCodes/storedKeys.ts). A row holds one of the two, never both, never neither.
// A later release drops unlock_key, refusing while any clear key remains.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table device_credentials
      add column unlock_key_sealed text,
      alter column unlock_key drop not null,
      add constraint device_credentials_unlock_key_once check (num_nonnulls(unlock_key, unlock_key_sealed) = 1)
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The release before reads the clear key only: a row that holds its key sealed only would lose it.
  const [sealed] = await knex('device_credentials').whereNull('unlock_key').count({ n: '*' });
  if (Number(sealed!.n) > 0) {
    throw new Error(
      `${sealed!.n} device credential(s) hold their unlock key sealed only, which the release before cannot read: roll forward instead (docs/decisions.md 35)`,
    );
  }
  await knex.raw(`
    alter table device_credentials
      drop constraint device_credentials_unlock_key_once,
      drop column unlock_key_sealed,
      alter column unlock_key set not null
  `);
}
