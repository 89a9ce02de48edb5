// Device answers bound to their request (docs/decisions.md 34): each device counts its check-in
// answers, and an agent orders the answers it accepts by that count, never by their time (a partner's
// sandbox clock can go back; two check-ins may share a second). Moved on by one in the check-in's
// transaction, under the device's row lock.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The sequence of the device's last answer (0: none yet).
  await knex.raw(
    `alter table devices add column checkin_sequence bigint not null default 0
       constraint devices_checkin_sequence_range check (checkin_sequence >= 0)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table devices drop constraint devices_checkin_sequence_range, drop column checkin_sequence');
}
