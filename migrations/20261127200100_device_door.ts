// The device door (docs/decisions.md 19): each device's credentials (only the SHA-256 of each, and the
// unlock key derived from it; at most one live per device), what the device's last check-in
// reported, its enrolled SIM, when its last check-in event was written (one an hour at most), the
// partners' two settings of the door, the check-in's event type, and the device as an actor of the
// audit trail (a refused check-in is recorded).
import type { Knex } from 'knex';

const EARLIER_TYPES =
  "'payment.recorded', 'transaction.created', 'finance_order.created', 'finance_order.paid_off', 'webhook.test', " +
  "'device.lock_upcoming', 'device.locked', 'device.unlocked', 'device.released'";
const DOOR_TYPES = "'device.checked_in'";

export async function up(knex: Knex): Promise<void> {
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
  // One live credential per device: issuing ends the previous one first, and a race of two issues
  // fails one of them here rather than leaving two.
  await knex.raw(
    'create unique index device_credentials_live on device_credentials (partner_id, device_id) where ended_at is null',
  );
  await knex.raw(`
    alter table devices
      add column last_checkin_at timestamptz,
      add column last_sim_number text,
      add column last_app_version text,
      add column enrolled_sim_number text,
      add column last_checkin_event_at timestamptz
  `);
  await knex.raw(`
    alter table partners
      add column offline_lock_days int not null default 7
        constraint partners_offline_lock_days check (offline_lock_days between 1 and 90),
      add column sim_control_enabled boolean not null default false
  `);
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(
    `alter table events add constraint events_type_known check (type in (${EARLIER_TYPES}, ${DOOR_TYPES}))`,
  );
  await knex.raw('alter table audit_events drop constraint audit_events_actor_kind_known');
  await knex.raw(
    `alter table audit_events add constraint audit_events_actor_kind_known
       check (actor_kind in ('operator', 'cli', 'partner', 'device'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("delete from audit_events where actor_kind = 'device'");
  await knex.raw('alter table audit_events drop constraint audit_events_actor_kind_known');
  await knex.raw(
    `alter table audit_events add constraint audit_events_actor_kind_known
       check (actor_kind in ('operator', 'cli', 'partner'))`,
  );
  // The check-in events (and, by cascade, their deliveries) have no place in the earlier log.
  await knex.raw(`delete from events where type in (${DOOR_TYPES})`);
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(`alter table events add constraint events_type_known check (type in (${EARLIER_TYPES}))`);
  await knex.raw('alter table partners drop column sim_control_enabled, drop column offline_lock_days');
  await knex.raw(`
    alter table devices
      drop column last_checkin_event_at,
      drop column enrolled_sim_number,
      drop column last_app_version,
      drop column last_sim_number,
      drop column last_checkin_at
  `);
  await knex.schema.dropTable('device_credentials');
}
