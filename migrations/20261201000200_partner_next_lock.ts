// Partner.nextLockAt (docs/decisions.md 46): the earliest lockAt still ahead among a partner's open
// orders is the first row of this index past the partner's now, one probe per partner, rather than a
// walk over every partner's pending instants (lock_timeline_due) or one partner's whole history.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create index lock_timeline_partner_next_lock on lock_timeline (partner_id, lock_at) where state = 'pending' and kind = 'lock'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index lock_timeline_partner_next_lock');
}
