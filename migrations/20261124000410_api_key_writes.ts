// Where each API key last wrote: the primary's WAL position after the key's last mutation, so the key's
// reads go to the primary until the read replica has replayed past it (read your own writes, on every
// instance). UNLOGGED: it is never replicated (a standby could not read it anyway) and writes no WAL;
// a crash empties it, which only sends reads to the replica a few seconds early. No foreign key: keys
// are never deleted, and the upsert after every mutation should cost one index probe, not two.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unlogged table api_key_writes (
      key_id bigint primary key,
      lsn pg_lsn not null,
      written_at timestamptz not null default now()
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_key_writes');
}
