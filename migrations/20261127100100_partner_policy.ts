// STAND-IN: the partner's settings columns, as the split of the work names them; the foundation's migration replaces this file.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table partners
    add column lock_grace_hours int not null default 0,
    add column lock_reminder_days int[] not null default '{3,1}',
    add column repayment_days int[] not null default '{7,30}',
    add column flexible_amount_enabled boolean not null default true`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table partners
    drop column lock_grace_hours, drop column lock_reminder_days, drop column repayment_days,
    drop column flexible_amount_enabled`);
}
