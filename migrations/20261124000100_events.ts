// The event log: one row per change a partner may want to hear of (a payment, a transaction, an order
// created or paid off), written in the change's own database transaction (a transactional outbox).
// Events are numbered from one database sequence: a partner's numbers increase with each event it
// writes (gaps are other partners' events and rolled-back changes). A counter per partner would number
// them densely, but its row would be locked until each change commits and so make every payment of a
// partner wait for the one before it (measured: a third fewer payments per second).
// Listeners on every instance (subscriptions) hear of committed events from the service after each
// commit (src/modules/events/publish.ts), not from a trigger here: see there why.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('create sequence events_sequence');
  await knex.schema.createTable('events', (t) => {
    t.bigInteger('partner_id').notNullable().references('id').inTable('partners');
    // evt_ + 26 characters: time-ordered and random (src/modules/events/ids.ts); Event.id in the graph.
    t.text('id').notNullable();
    t.bigInteger('sequence').notNullable().defaultTo(knex.raw("nextval('events_sequence')"));
    t.text('type').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.jsonb('data').notNullable();
    t.primary(['partner_id', 'id']);
    t.unique(['partner_id', 'sequence']);
    t.check(
      "type in ('payment.recorded', 'transaction.created', 'finance_order.created', 'finance_order.paid_off')",
      [],
      'events_type_known',
    );
    t.check("id ~ '^evt_[0-9A-Za-z]{26}$'", [], 'events_id_shape');
    // event(id) by operators, who name no partner.
    t.index(['id']);
    // Retention: the oldest first.
    t.index(['occurred_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('events');
  await knex.raw('drop sequence events_sequence');
}
