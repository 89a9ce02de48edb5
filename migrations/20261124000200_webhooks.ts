// Webhook endpoints and their deliveries. A trigger on `events` writes one delivery for every enabled
// endpoint of the event's partner that subscribes to its type, in the event's own transaction: no event
// without its deliveries. Workers claim due deliveries with a lease (claimed_until), so a delivery whose
// instance died is claimed again once the lease runs out. Partner keys act on endpoints, so the audit
// trail gains the actor kind 'partner'.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.text('url').notNullable();
    t.specificType('event_types', 'text[]').notNullable();
    t.text('format').notNullable();
    t.text('description').nullable();
    // whsec_<base64>: stored as is, like every signing secret the service must be able to use.
    t.text('secret').notNullable();
    // After a rotation the old secret signs beside the new one until previous_secret_expires_at.
    t.text('previous_secret').nullable();
    t.timestamp('previous_secret_expires_at', { useTz: true }).nullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason').nullable();
    // The first failed attempt since the last delivered one: 5 days of failures disable the endpoint.
    t.timestamp('failing_since', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['partner_id', 'id']);
    t.check("format in ('standard', 'payjoy_v1')", [], 'webhook_endpoints_format_known');
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('endpoint_id').notNullable();
    t.text('event_id').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).nullable();
    // A worker's lease: until then no other worker claims the delivery; claim_token names the holder.
    t.timestamp('claimed_until', { useTz: true }).nullable();
    t.text('claim_token').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('delivered_at', { useTz: true }).nullable();
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'endpoint_id'])
      .references(['partner_id', 'id'])
      .inTable('webhook_endpoints')
      .onDelete('CASCADE');
    // Purging an event (retention) purges its deliveries.
    t.foreign(['partner_id', 'event_id']).references(['partner_id', 'id']).inTable('events').onDelete('CASCADE');
    t.check("status in ('pending', 'delivered', 'failed')", [], 'webhook_deliveries_status_known');
    t.index(['partner_id', 'endpoint_id', 'id']);
    t.index(['partner_id', 'event_id']);
  });
  // The workers' queue: only pending deliveries, the due first.
  await knex.raw(
    "create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'",
  );
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigInteger('partner_id').notNullable();
    t.bigIncrements('id', { primaryKey: false });
    t.bigInteger('delivery_id').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
    t.integer('status_code').nullable();
    t.integer('latency_ms').nullable();
    // The first 1 kB of the receiver's answer.
    t.text('response').nullable();
    t.text('error').nullable();
    t.primary(['partner_id', 'id']);
    t.foreign(['partner_id', 'delivery_id'])
      .references(['partner_id', 'id'])
      .inTable('webhook_deliveries')
      .onDelete('CASCADE');
    t.index(['partner_id', 'delivery_id', 'id']);
  });
  await knex.raw(`create function events_enqueue_deliveries() returns trigger language plpgsql as $$
    begin
      insert into webhook_deliveries (partner_id, endpoint_id, event_id, next_attempt_at)
      select new.partner_id, e.id, new.id, now()
      from webhook_endpoints e
      where e.partner_id = new.partner_id and e.enabled and new.type = any(e.event_types)
        and (e.format = 'standard' or new.type = 'transaction.created');
      return null;
    end
  $$`);
  await knex.raw(
    `create trigger events_enqueue_deliveries after insert on events
       for each row execute function events_enqueue_deliveries()`,
  );
  await knex.raw('alter table audit_events drop constraint audit_events_actor_kind_known');
  await knex.raw(
    `alter table audit_events add constraint audit_events_actor_kind_known
       check (actor_kind in ('operator', 'cli', 'partner'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table audit_events drop constraint audit_events_actor_kind_known');
  await knex.raw(
    `alter table audit_events add constraint audit_events_actor_kind_known
       check (actor_kind in ('operator', 'cli')) not valid`,
  );
  await knex.raw('drop trigger events_enqueue_deliveries on events');
  await knex.raw('drop function events_enqueue_deliveries()');
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_endpoints');
}
