// The webhook fan-out leaves the database for src/modules/webhooks/fanOut.ts, a relay over the
// committed log run by the workers (decisions.md 40): the trigger that wrote deliveries inside every
// writer's transaction and its function are dropped. Each event carries whether it was fanned out (the
// events before this migration were, by the trigger); a partial index keeps those still to fan out, in
// order, on every partition (a month's partition made later takes it from the parent), and when it was
// recorded (its transaction's start), so an endpoint hears the events recorded since it was created,
// however late the relay comes to them (the trigger saw the endpoints there at the insert). A delivery the
// fan-out wrote is marked so, and at most one per (event, endpoint): the relay's unique key.
// `down` restores the trigger and its function as 20261127000500_webhook_tools left them, on the
// partitioned table as 20261128000300_partition_events made it.
import type { Knex } from 'knex';

const FUNCTION = `create or replace function events_enqueue_deliveries() returns trigger
  language plpgsql as $$
    begin
      if new.type = 'webhook.test' then return null; end if;
      insert into webhook_deliveries (partner_id, endpoint_id, event_id, next_attempt_at)
      select new.partner_id, e.id, new.id, now()
      from webhook_endpoints e
      where e.partner_id = new.partner_id and e.enabled and new.type = any(e.event_types)
        and (e.format = 'standard' or new.type = 'transaction.created');
      return null;
    end
  $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('drop trigger events_enqueue_deliveries on events');
  await knex.raw('drop function events_enqueue_deliveries()');
  // Every event already in the log was fanned out by the trigger; new ones are not yet.
  await knex.raw('alter table events add column fanned_out boolean not null default true');
  await knex.raw('alter table events alter column fanned_out set default false');
  await knex.raw('alter table events add column recorded_at timestamptz');
  await knex.raw('alter table events alter column recorded_at set default now()');
  await knex.raw('create index events_to_fan_out on events (sequence) where not fanned_out');
  await knex.raw('alter table webhook_deliveries add column fanned_out boolean not null default false');
  await knex.raw(
    `create unique index webhook_deliveries_fanned_out on webhook_deliveries (partner_id, endpoint_id, event_id)
       where fanned_out`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index webhook_deliveries_fanned_out');
  await knex.raw('alter table webhook_deliveries drop column fanned_out');
  await knex.raw('drop index events_to_fan_out');
  await knex.raw('alter table events drop column fanned_out');
  await knex.raw('alter table events drop column recorded_at');
  await knex.raw(FUNCTION);
  await knex.raw(
    `create trigger events_enqueue_deliveries after insert on events
       for each row execute function events_enqueue_deliveries()`,
  );
}
