// A partner's lock policy and its sandbox clock (decisions.md 15). The settings are columns of the
// partner, with the defaults every partner starts with; the database holds them to the same bounds
// the mutation checks. policy_revision counts the changes of a partner's policy (settings or clock),
// each made under the partner's row lock: instances apply the notified policies in that order.
// A sandbox clock is an offset from real time, one row per partner that has one.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table partners
      add column lock_grace_hours int not null default 0
        constraint partners_lock_grace_hours check (lock_grace_hours between 0 and 720),
      add column lock_reminder_days int[] not null default '{3,1}'
        constraint partners_lock_reminder_days check (coalesce(array_length(lock_reminder_days, 1), 0) <= 10),
      add column repayment_days int[] not null default '{7,30}'
        constraint partners_repayment_days check (coalesce(array_length(repayment_days, 1), 0) between 1 and 10),
      add column flexible_amount_enabled boolean not null default true,
      add column policy_revision int8 not null default 0
  `);
  await knex.raw(`
    create table sandbox_clocks (
      partner_id int8 primary key references partners (id) on delete cascade,
      offset_ms int8 not null,
      set_at timestamptz not null default now()
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table sandbox_clocks');
  await knex.raw(`
    alter table partners
      drop column policy_revision,
      drop column flexible_amount_enabled,
      drop column repayment_days,
      drop column lock_reminder_days,
      drop column lock_grace_hours
  `);
}
