// Device commands (docs/decisions.md 20): what an operator or a partner asks of one device's lock
// agent, carried by the device's next check-in and acknowledged by the one after. A tenant table like
// the others: its key starts with partner_id and its reference to the device is a composite key that
// includes it. EXPIRED is not stored: it is a PENDING command 7 days old, computed when read.
// The event log takes device.command_acknowledged. The list of types kept here is every type before
// this migration, the device door's device.checked_in (20261127200100, which runs before it) among them.
import type { Knex } from 'knex';

const EARLIER_TYPES =
  "'payment.recorded', 'transaction.created', 'finance_order.created', 'finance_order.paid_off', 'webhook.test', " +
  "'device.lock_upcoming', 'device.locked', 'device.unlocked', 'device.released', 'device.checked_in'";
const COMMAND_TYPES = "'device.command_acknowledged'";

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(
    `alter table events add constraint events_type_known check (type in (${EARLIER_TYPES}, ${COMMAND_TYPES}))`,
  );
  await knex.schema.createTable('device_commands', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('device_id').notNullable();
    t.text('type').notNullable();
    t.integer('hours').nullable();
    t.text('message').nullable();
    // PENDING, DELIVERED or ACKNOWLEDGED; times in the partner's time (a sandbox clock may run ahead).
    t.text('status').notNullable().defaultTo('PENDING');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.timestamp('acknowledged_at', { useTz: true }).nullable();
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'device_id']).references(['partner_id', 'id']).inTable('devices');
    t.check("type in ('LOCK_NOW', 'UNLOCK_FOR_HOURS', 'SHOW_MESSAGE', 'RELEASE')", [], 'device_commands_type_known');
    t.check("status in ('PENDING', 'DELIVERED', 'ACKNOWLEDGED')", [], 'device_commands_status_known');
    t.check(
      "(type = 'UNLOCK_FOR_HOURS') = (hours is not null) and (hours is null or hours between 1 and 720)",
      [],
      'device_commands_hours_of_unlocks',
    );
    t.check(
      "(type = 'SHOW_MESSAGE') = (message is not null) and (message is null or char_length(message) between 1 and 500)",
      [],
      'device_commands_message_of_messages',
    );
    t.check(
      "(status = 'PENDING') = (delivered_at is null) and (status = 'ACKNOWLEDGED') = (acknowledged_at is not null)",
      [],
      'device_commands_times_of_status',
    );
    // Device.commands (newest first) and a check-in's reads: one device's commands by id.
    t.index(['partner_id', 'device_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('device_commands');
  // The acknowledgements (and, by cascade, their deliveries) have no place in the earlier log.
  await knex.raw(`delete from events where type in (${COMMAND_TYPES})`);
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(`alter table events add constraint events_type_known check (type in (${EARLIER_TYPES}))`);
}
