// The lock timeline, exact (docs/decisions.md 37). A payment reference's EXPIRED may be stored: a
// sandbox clock reset stores it on the references its partner saw expired, so no later clock makes
// them payable. And the shown whole second decides: the instants already in the timeline are cut to
// their second (their real time, fire_at, by as much), as the instants made from now on are.
import type { Knex } from 'knex';

const STATUS_CHECK = 'payment_references_status_known';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table payment_references drop constraint ${STATUS_CHECK},
    add constraint ${STATUS_CHECK} check (status in ('OPEN', 'PAID', 'CANCELLED', 'EXPIRED'))`);
  // Every expression reads the row as it was: fire_at moves by due_at's own fraction of a second.
  await knex.raw(`update lock_timeline
    set fire_at = fire_at - (due_at - date_trunc('second', due_at)),
        due_at = date_trunc('second', due_at),
        lock_at = date_trunc('second', lock_at)
    where due_at <> date_trunc('second', due_at) or lock_at <> date_trunc('second', lock_at)`);
}

export async function down(knex: Knex): Promise<void> {
  // A stored EXPIRED goes back to OPEN, which reads EXPIRED again at its partner's time. The
  // instants keep their whole seconds: the older code reads them the same, less a fraction.
  await knex('payment_references').where({ status: 'EXPIRED' }).update({ status: 'OPEN' });
  await knex.raw(`alter table payment_references drop constraint ${STATUS_CHECK},
    add constraint ${STATUS_CHECK} check (status in ('OPEN', 'PAID', 'CANCELLED'))`);
}
