// The webhook tools' rules in the database. sendTestWebhook writes a `webhook.test` event of the
// endpoint's partner and one delivery of it to that endpoint alone: the log admits the type, and the
// trigger that fans events out to subscribed endpoints passes it over (no endpoint subscribes to it,
// and none may). redeliverEvent answers the pending delivery of an event to an endpoint when there is
// one: at most one pending delivery per (event, endpoint), held by a partial unique index, so two
// redeliveries at once cannot both queue. Pending duplicates queued before this rule are failed first
// (their attempts kept), the oldest of each kept pending.
import type { Knex } from 'knex';

const KNOWN_TYPES = "'payment.recorded', 'transaction.created', 'finance_order.created', 'finance_order.paid_off'";

const enqueueFunction = (skipTests: boolean) => `create or replace function events_enqueue_deliveries() returns trigger
  language plpgsql as $$
    begin
      ${skipTests ? "if new.type = 'webhook.test' then return null; end if;" : ''}
      insert into webhook_deliveries (partner_id, endpoint_id, event_id, next_attempt_at)
      select new.partner_id, e.id, new.id, now()
      from webhook_endpoints e
      where e.partner_id = new.partner_id and e.enabled and new.type = any(e.event_types)
        and (e.format = 'standard' or new.type = 'transaction.created');
      return null;
    end
  $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(
    `alter table events add constraint events_type_known check (type in (${KNOWN_TYPES}, 'webhook.test'))`,
  );
  await knex.raw(enqueueFunction(true));
  await knex.raw(
    `update webhook_deliveries d set status = 'failed', next_attempt_at = null, claimed_until = null, claim_token = null
     where d.status = 'pending' and exists (
       select from webhook_deliveries older
       where older.partner_id = d.partner_id and older.endpoint_id = d.endpoint_id and older.event_id = d.event_id
         and older.status = 'pending' and older.id < d.id)`,
  );
  await knex.raw(
    `create unique index webhook_deliveries_one_pending on webhook_deliveries (partner_id, endpoint_id, event_id)
       where status = 'pending'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index webhook_deliveries_one_pending');
  await knex.raw(enqueueFunction(false));
  // Test events (and, by cascade, their deliveries) have no place in the earlier log.
  await knex('events').where({ type: 'webhook.test' }).delete();
  await knex.raw('alter table events drop constraint events_type_known');
  await knex.raw(`alter table events add constraint events_type_known check (type in (${KNOWN_TYPES}))`);
}
