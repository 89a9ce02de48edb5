// The event log partitioned by month of occurred_at (docs/decisions.md 25), so retention drops whole
// months. The primary key and the per-partner sequence rule gain occurred_at (the id carries 16
// random characters and the sequence is the database's: neither was ever refused by these alone).
// Webhook deliveries lose their foreign key to the event: a key into a partitioned table must name
// its partition key. Whoever removes events removes their deliveries first (the retention), and
// ledger:check reports a delivery without its event. The fan-out trigger is made again on the new
// table after the copy, so copied events queue no deliveries twice.
import type { Knex } from 'knex';
import { makeMonths } from './20261128000200_partition_transactions.js';

const TRIGGER = `create trigger events_enqueue_deliveries after insert on events
  for each row execute function events_enqueue_deliveries()`;

async function rebuild(knex: Knex, partitioned: boolean): Promise<void> {
  await knex.raw('drop trigger events_enqueue_deliveries on events');
  await knex.raw('alter table events rename to events_before');
  await knex.raw('alter table events_before rename constraint events_pkey to events_before_pkey');
  await knex.raw(
    'alter table events_before rename constraint events_partner_id_sequence_unique to events_before_sequence_unique',
  );
  await knex.raw('drop index events_id_index');
  await knex.raw('drop index events_occurred_at_index');
  // Columns, defaults, not-nulls and the checks (the known types, the id's shape) as they stand.
  await knex.raw(
    `create table events (like events_before including defaults including constraints)${partitioned ? ' partition by range (occurred_at)' : ''}`,
  );
  const key = partitioned ? ', occurred_at' : '';
  await knex.raw(`alter table events add constraint events_pkey primary key (partner_id, id${key})`);
  await knex.raw(
    `alter table events add constraint events_partner_id_sequence_unique unique (partner_id, sequence${key})`,
  );
  await knex.raw(
    'alter table events add constraint events_partner_id_foreign foreign key (partner_id) references partners (id)',
  );
  if (partitioned) {
    const { rows } = (await knex.raw(
      `select date_trunc('month', coalesce(min(occurred_at), now()), 'UTC') as first from events_before`,
    )) as { rows: Array<{ first: Date }> };
    await makeMonths(knex, 'events', new Date(rows[0]!.first));
  }
  // event(id) by operators, who name no partner; retention, the oldest first.
  await knex.raw('create index events_id_index on events (id)');
  await knex.raw('create index events_occurred_at_index on events (occurred_at)');
  await knex.raw('insert into events select * from events_before');
  await knex.raw('drop table events_before');
  await knex.raw(TRIGGER);
}

export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table webhook_deliveries drop constraint webhook_deliveries_partner_id_event_id_foreign');
  await rebuild(knex, true);
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(knex, false);
  await knex.raw(
    `delete from webhook_deliveries d where not exists (
       select 1 from events e where e.partner_id = d.partner_id and e.id = d.event_id)`,
  );
  await knex.raw(
    `alter table webhook_deliveries add constraint webhook_deliveries_partner_id_event_id_foreign
       foreign key (partner_id, event_id) references events (partner_id, id) on delete cascade`,
  );
}
